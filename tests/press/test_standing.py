"""Standing orders: set from the prompt's forms, used at a missed deadline when the rules accept them."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from app import turns
from app.db import get_engine, write_session
from app.kinds import GameStatus
from app.models import Event, Game, Order, OutboxMail, Report, StandingOrder, Step
from app.verify import replay_game
from tests.platform.helpers import csrf_of, step_of
from tests.press.helpers import create, links, page


def _set(client, link, **fields):
    html = page(client, link)
    data = {"csrf_token": csrf_of(html), "step_no": step_of(html), **fields}
    return client.post(f"{link}/standing", data=data)


def _order(client, link, n):
    html = page(client, link)
    client.post(link, data={"csrf_token": csrf_of(html), "step_no": step_of(html), "form_index": "0", "n": str(n)})


def _miss_deadline(app, game_id):
    with Session(get_engine(app)) as s:
        deadline = s.get(Game, game_id).deadline
    with app.app_context():
        turns.process_due(get_engine(app), deadline + timedelta(seconds=1))


def _rows(app, model, **where):
    with Session(get_engine(app)) as s:
        q = select(model)
        for k, v in where.items():
            q = q.where(getattr(model, k) == v)
        return list(s.exec(q).all())


def test_a_standing_order_from_the_form_is_shown_and_used_at_a_missed_deadline(app, client, runner):
    made = create(runner)
    link = links(made)
    resp = _set(client, link["A"], form_index="0", n="3")
    assert resp.status_code == 303 and resp.headers["Location"].endswith("?standing=saved#standing")
    html = page(client, link["A"])
    assert "Your standing orders" in html and "<code>PICK 3</code>" in html
    assert "PICK 3" not in page(client, link["B"]).split('id="standing"')[1], "a seat sees only its own"
    _order(client, link["B"], 1)
    _order(client, link["C"], 2)
    _miss_deadline(app, made["game"])
    [step] = _rows(app, Step, game_id=made["game"], step_no=1)
    assert step.orders["A"] == {"type": "PICK", "n": 3} and step.defaulted == []
    [used] = [o for o in _rows(app, Order, game_id=made["game"], step_no=1) if o.seat == "A"]
    assert used.source == "standing" and used.text == "PICK 3"
    log_a = page(client, link["A"])
    assert "your standing order was used for you: PICK 3" in log_a
    assert "standing order was used" not in page(client, link["B"])
    mail = [m for m in _rows(app, OutboxMail, game_id=made["game"], seat="A") if m.step_no == 2 and m.kind == "turn"]
    assert mail and "standing order was used for you: PICK 3" in mail[0].text
    [report] = _rows(app, Report, game_id=made["game"], step_no=2, seat="A")
    assert report.context["standing"] == [{"kind": "pick", "title": "Pick a number for round 1", "text": "PICK 3"}]
    assert client.get(f"{link['A']}/report.pdf").status_code == 200


def test_a_standing_order_the_rules_refuse_at_that_step_gives_way_to_the_default(app, client, runner):
    made = create(runner)
    link = links(made)
    assert _set(client, link["A"], notation="PICK 3").status_code == 303
    for seat in "ABC":
        _order(client, link[seat], 2)  # round 1 resolves: round 2 forbids 3
    _order(client, link["B"], 1)
    _order(client, link["C"], 1)
    _miss_deadline(app, made["game"])
    [step] = _rows(app, Step, game_id=made["game"], step_no=2)
    assert step.orders["A"] == {"type": "PICK", "n": 1} and step.defaulted == ["A"], "the game's default"
    assert [o.source for o in _rows(app, Order, game_id=made["game"], step_no=2) if o.seat == "A"] == ["default"]
    assert not [e for e in _rows(app, Event, game_id=made["game"]) if "standing" in e.text]


def test_an_illegal_or_foreign_standing_order_is_refused_and_changes_nothing(app, client, runner):
    made = create(runner)
    link = links(made)
    resp = _set(client, link["A"], notation="PICK 9")
    assert resp.status_code == 422 and "cannot read" in resp.get_data(as_text=True)
    resp = _set(client, link["A"], form_index="0", n="7")
    assert resp.status_code == 422
    resp = _set(client, link["A"], form_index="0", n="2", step_no="5")
    assert resp.status_code == 422 and "decision changed" in resp.get_data(as_text=True)
    assert _rows(app, StandingOrder) == []
    assert _set(client, link["A"], form_index="0", n="2").status_code == 303
    [row] = _rows(app, StandingOrder)
    html = page(client, link["B"])
    client.post(f"{link['B']}/standing", data={"csrf_token": csrf_of(html), "action": "clear", "id": str(row.id)})
    assert len(_rows(app, StandingOrder)) == 1, "another seat cannot remove it"
    html = page(client, link["A"])
    client.post(f"{link['A']}/standing", data={"csrf_token": csrf_of(html), "action": "clear", "id": str(row.id)})
    assert _rows(app, StandingOrder) == []


def test_a_game_played_with_standing_orders_replays(app, client, runner):
    made = create(runner, "toy3", ("a@example.org", "b@example.org", "c@example.org"), "--option", "rounds=2")
    link = links(made)
    _set(client, link["A"], notation="PICK 2")
    for _round in range(2):
        _order(client, link["B"], 1)
        _order(client, link["C"], 1)
        _miss_deadline(app, made["game"])
    with app.app_context(), Session(get_engine(app)) as s:
        game = s.get(Game, made["game"])
        assert game.status == "finished"
        report = replay_game(game, s)
    assert report.problems == [] and report.steps_checked == 2


def test_standing_orders_are_set_on_a_page_of_their_own_that_keeps_a_refused_input(app, client, runner):
    """The seat page only links to it (its forms would repeat the order forms' fields)."""
    made = create(runner)
    link = links(made)["A"]
    seat_page = page(client, link)
    card = seat_page.split('id="standing"')[1].split("</section>")[0]
    assert f'href="{link}/standing"' in card and 'name="form_index"' not in card
    standing_page = client.get(f"{link}/standing")
    assert standing_page.status_code == 200 and "Keep as my standing order" in standing_page.get_data(as_text=True)
    resp = _set(client, link, notation="PICK 99")
    assert resp.status_code == 422 and "PICK 99" in resp.get_data(as_text=True), "the refused input is kept"
    assert not _rows(app, StandingOrder)


def test_a_standing_order_refused_when_the_seat_owes_nothing_says_why(app, client, runner):
    made = create(runner)
    link = links(made)
    html = page(client, link["A"])
    with write_session(get_engine(app)) as s:  # the game ended while the page was open
        game = s.get(Game, made["game"])
        game.status, game.owed = GameStatus.FINISHED, {}
    resp = client.post(f"{link['A']}/standing", data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                      "form_index": "0", "n": "2"})
    assert resp.status_code == 422, "not a silent redirect that looks like it was saved"
    assert "class=\"error\"" in resp.get_data(as_text=True)
    assert _rows(app, StandingOrder) == []
