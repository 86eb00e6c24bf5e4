"""Timers and seat orders of spec 7.2-7.4 on the platform, as the players meet them on their pages.

Two human commanders with a one-hour timer: X misses its turns (the scheduler's tick at
the deadline plays them), Y plays through the order page.  Seat orders (Resume command,
Abandon) are sent from the page at any time, owing or not.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.games.base import ANYTIME_STEP, bot_order
from app.games.conquest import RULES
from app.models import Event, Step, iso
from tests.platform.helpers import csrf_of, game_row, path_of, step_of


@pytest.fixture
def game(app, runner, monkeypatch):
    monkeypatch.setattr("app.turns.setup.new_seed", lambda: "conquest-web-timers")
    out = runner.invoke(args=["game", "create", "conquest", "--player", "x@example.org", "--player", "y@example.org",
                              "--option", "players=2", "--option", "timer=3600"])
    assert out.exit_code == 0, out.output
    made = json.loads(out.output)
    return {s["email"][0].upper(): {"seat": s["seat"], "link": s["link"]} | {"game": made["game"]}
            for s in made["seats"]}


def _row(app, g):
    return game_row(app, g["X"]["game"])


def _events(app, g, since_step=0):
    with Session(get_engine(app)) as s:
        rows = s.exec(select(Event).where(Event.game_id == g["X"]["game"], Event.step_no >= since_step)
                      .order_by(Event.step_no, Event.seq)).all()
        return [e.text for e in rows if e.to is None]


def _named(seat):
    """How the log names a seat: "Commander 2 (" for P2, never its code."""
    return f"Commander {seat[1:]} ("


def _page(client, who):
    return client.get(path_of(who["link"])).get_data(as_text=True)


def tick_at_deadline(app, runner, g):
    deadline = _row(app, g).deadline
    out = runner.invoke(args=["tick", "--now", iso(deadline + timedelta(seconds=1))])
    assert out.exit_code == 0, out.output


def play_turn_on_the_page(app, client, g, who):
    """``who`` plays one whole turn by typing the AI's orders into the notation box."""
    serial = _row(app, g).state["serial"]
    for _ in range(300):
        row = _row(app, g)
        if row.status != "running" or who["seat"] not in row.owed or row.state["serial"] != serial:
            return
        order = bot_order(RULES, row.state, who["seat"], random.Random(0))
        html = _page(client, who)
        resp = client.post(path_of(who["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                       "notation": RULES.format(order)})
        assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    raise AssertionError("the turn did not end")


def post_anytime(client, who, label, fields=None, page=None):
    """Press the anytime button called ``label`` on ``who``'s page."""
    page = page or _page(client, who)
    section = page[page.index('id="anytime"'):]
    forms = re.findall(r'<form class="order anytime".*?</form>', section, re.S)
    form = next(f for f in forms if f">{label}</button>" in f)
    data = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    return client.post(path_of(who["link"]) + "/anytime", data={**data, **(fields or {})})


def hand_to_full_auto(app, client, runner, g):
    """X misses three turns in a row (ticks at its deadlines) while Y plays by the page."""
    x, y = g["X"], g["Y"]
    for _ in range(20):
        row = _row(app, g)
        if row.state["status"][x["seat"]] == "FULL_AUTO":
            return
        if x["seat"] in row.owed:
            tick_at_deadline(app, runner, g)
        else:
            play_turn_on_the_page(app, client, g, y)
    raise AssertionError("X never passed to full auto-command")


def test_three_missed_turns_hand_the_seat_to_full_auto_command_and_nobody_waits_for_it(app, client, runner, game):
    x, y = game["X"], game["Y"]
    hand_to_full_auto(app, client, runner, game)
    row = _row(app, game)
    assert row.state["timeouts"][x["seat"]] == 3 and _named(x["seat"]) in " ".join(_events(app, game))
    assert "passes to full auto-command" in " ".join(_events(app, game))
    page = _page(client, x)  # while the game runs (Y may win within the rounds below)
    assert "Nothing owed by you now" in page and "Your seat is under auto-command" in page
    assert ">Resume command</button>" in page and ">Abandon the game (final)</button>" in page
    attacks = 0
    for _ in range(4):  # four rounds: each of X's turns is played in the request that ends Y's turn
        row = _row(app, game)
        if row.status != "running":
            break
        assert set(row.owed) == {y["seat"]}
        before, round_ = row.step_no, row.state["round"]
        play_turn_on_the_page(app, client, game, y)
        row = _row(app, game)
        if row.status != "running":
            break
        assert set(row.owed) == {y["seat"]} and row.state["round"] == round_ + 1
        texts = _events(app, game, before)
        assert f"Auto-command plays the turn of {_named(x['seat'])}" in " ".join(texts)
        attacks += sum(t.startswith(_named(x["seat"])) and " attacks " in t for t in texts)
    assert attacks > 0, "the full auto-command never attacked"
    with Session(get_engine(app)) as s:
        steps = s.exec(select(Step).where(Step.game_id == x["game"])).all()
    full_auto_from = min(st.step_no for st in steps if st.state["status"][x["seat"]] == "FULL_AUTO")
    assert all(x["seat"] not in st.owed for st in steps if st.step_no >= full_auto_from)


def test_resume_command_from_the_page_takes_effect_at_the_next_turn(app, client, runner, game):
    x, y = game["X"], game["Y"]
    hand_to_full_auto(app, client, runner, game)
    assert x["seat"] not in _row(app, game).owed
    stale = _page(client, x)
    resp = post_anytime(client, x, "Resume command", page=stale)
    assert resp.status_code == 303
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "Your order was applied." in page and "You take command again at your next turn" in page
    assert ">Resume command</button>" not in page
    row = _row(app, game)
    assert row.state["status"][x["seat"]] == "FULL_AUTO" and set(row.owed) == {y["seat"]}
    assert "resumes command from the next turn" in " ".join(_events(app, game))
    with Session(get_engine(app)) as s:
        last = s.exec(select(Step).where(Step.game_id == x["game"], Step.step_no == row.step_no - 1)).one()
    assert last.orders == {ANYTIME_STEP: {"seat": x["seat"], "order": {"type": "RESUME"}}}
    # the same button again, from the page drawn before: refused, nothing changes
    again = post_anytime(client, x, "Resume command", page=stale)
    assert again.status_code == 422 and "not part of this decision" in again.get_data(as_text=True)
    assert _row(app, game).step_no == row.step_no
    # Y ends the turn: X commands again from its next turn start, counter 0
    play_turn_on_the_page(app, client, game, y)
    row = _row(app, game)
    assert set(row.owed) == {x["seat"]} and row.owed[x["seat"]]["kind"] == "mobilisation"
    assert row.state["status"][x["seat"]] == "ACTIVE" and row.state["timeouts"][x["seat"]] == 0
    assert "takes command again" in " ".join(_events(app, game))
    page = _page(client, x)
    assert "Place " in page and "Leave the game" in page


def test_abandon_while_owing_nothing_is_final_and_the_ai_takes_the_seat(app, client, runner, game):
    x, y = game["X"], game["Y"]
    row = _row(app, game)
    owner, idle = (x, y) if x["seat"] in row.owed else (y, x)
    # without the confirmation box: refused with the spec's message, nothing changes
    resp = post_anytime(client, idle, "Abandon the game (final)")
    assert resp.status_code == 422 and "Send ABANDON CONFIRM to leave the game for good." in resp.get_data(as_text=True)
    assert _row(app, game).step_no == row.step_no and _row(app, game).state == row.state
    resp = post_anytime(client, idle, "Abandon the game (final)", {"confirm": "on"})
    assert resp.status_code == 303
    row = _row(app, game)
    assert row.state["status"][idle["seat"]] == "ABANDONED" and row.status == "running"
    assert set(row.owed) == {owner["seat"]}
    assert "abandons the game" in " ".join(_events(app, game))
    page = _page(client, idle)
    assert 'id="anytime"' not in page and "Nothing owed by you now" in page
    # the owner's turn goes on; the abandoned seat's turn is played at once by the AI
    play_turn_on_the_page(app, client, game, owner)
    row = _row(app, game)
    if row.status == "running":
        assert set(row.owed) == {owner["seat"]}


def test_abandon_on_turn_from_the_page_lets_the_ai_finish_the_turn(app, client, runner, game):
    x, y = game["X"], game["Y"]
    row = _row(app, game)
    owner, idle = (x, y) if x["seat"] in row.owed else (y, x)
    page = _page(client, owner)
    assert page.index("Place ") < page.index('id="anytime"')
    resp = post_anytime(client, owner, "Abandon the game (final)", {"confirm": "on"}, page=page)
    assert resp.status_code == 303
    row = _row(app, game)
    assert row.state["status"][owner["seat"]] == "ABANDONED" and set(row.owed) == {idle["seat"]}
    assert _named(owner["seat"]) in " ".join(t for t in _events(app, game) if " places " in t)


def test_the_anytime_form_shows_nothing_of_the_other_seat(app, client, runner, game):
    x, y = game["X"], game["Y"]
    hand_to_full_auto(app, client, runner, game)
    state = _row(app, game).state
    for me, other in ((x, y), (y, x)):
        page = _page(client, me)
        section = page[page.index('id="anytime"'):page.index("</section>", page.index('id="anytime"'))]
        for secret in RULES.secrets(state, other["seat"]):
            assert not re.search(rf"\b{secret}\b", page), f"{me['seat']}'s page shows {other['seat']}'s {secret}"
        for secret in RULES.secrets(state, me["seat"]):
            # a link token or a form key may hold its letters: look for the code as a word
            assert not re.search(rf"\b{secret}\b", re.sub(r"/p/[\w-]+", "/p/<token>", section))
