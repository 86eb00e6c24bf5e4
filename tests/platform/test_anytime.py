"""Decisions a seat may send at any time (the anytime extra of the Game protocol), on the web.

Played with ``toy_anytime`` (tests/platform/toygame.py): both seats pick a number each round;
at any time a seat may resign for good (it owes nothing more and picks 1) or leave a note.
"""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, make_engine
from app.games import GAMES, register
from app.games.base import ANYTIME_STEP
from app.models import Event, Order, Seat, Step, utcnow
from app.verify import replay_game
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, post_form, step_of
from tests.platform.toygame import ANYTIME_RULES


@pytest.fixture
def toy_anytime():
    register(ANYTIME_RULES)
    yield ANYTIME_RULES
    GAMES.pop(ANYTIME_RULES.slug, None)


def post_anytime(client, link, fields, form_index="0", page=None):
    page = page or client.get(path_of(link)).get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": form_index, **fields}
    return client.post(path_of(link) + "/anytime", data=data)


def _rows(app, model, game_id):
    with Session(get_engine(app)) as s:
        return list(s.exec(select(model).where(model.game_id == game_id).order_by(model.id)).all())


def _texts(app, game_id):
    return [e.text for e in _rows(app, Event, game_id)]


def test_page_offers_the_anytime_forms_below_the_owed_one(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    a = made["seats"][0]
    html = client.get(path_of(a["link"])).get_data(as_text=True)
    assert html.index("Pick a number for round 1") < html.index("Resign at any time")
    assert f'action="{path_of(a["link"])}/anytime"' in html
    orders = html.split('id="orders"', 1)[1].split("</section>", 1)[0]  # (press and standing orders come after)
    assert orders.count('name="csrf_token"') == 4  # two anytime forms, the pick form, the notation box


def test_resigning_while_the_other_order_is_on_file_resolves_the_step_once(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    a, b = made["seats"]
    assert post_form(client, a["link"], {"n": "3"}).status_code == 303
    (mine,) = _rows(app, Order, made["game"])
    resp = post_anytime(client, b["link"], {"confirm": "on"})
    assert resp.status_code == 303 and "done=applied" in resp.headers["Location"]
    game = game_row(app, made["game"])
    # step 1 closed by the resignation; step 2 (only A owes, A's order carried over) resolved at once
    assert game.step_no == 3 and game.state["round"] == 2 and set(game.owed) == {"A"}
    steps = {s.step_no: s for s in _rows(app, Step, made["game"])}
    assert steps[1].orders == {ANYTIME_STEP: {"seat": "B", "order": {"type": "RESIGN", "confirm": True}}}
    assert steps[2].owed.keys() == {"A"} and steps[2].orders == {"A": {"type": "PICK", "n": 3}}
    moved = next(o for o in _rows(app, Order, made["game"]) if o.id == mine.id)
    assert moved.step_no == 2  # the same row: its receipt still holds
    texts = _texts(app, made["game"])
    assert texts.count("B resigns.") == 1 and texts.count("Round 1: A picked 3, B picked 1.") == 1
    page = client.get(path_of(b["link"])).get_data(as_text=True)
    assert "Nothing owed by you now" in page and "Leave a note" in page and "Resign (final)" not in page


def test_a_note_while_owing_nothing_is_logged_and_the_others_form_still_counts(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    a, b = made["seats"]
    post_anytime(client, b["link"], {"confirm": "on"})
    a_page = client.get(path_of(a["link"])).get_data(as_text=True)  # A's form, drawn at step 2
    resp = post_anytime(client, b["link"], {"text": "good luck"}, form_index="0")
    assert resp.status_code == 303
    assert game_row(app, made["game"]).step_no == 3
    log = client.get(path_of(a["link"])).get_data(as_text=True)
    assert "B notes &#39;good luck&#39; and rolls" in log
    # the note changed nothing A decides: A's form of step 2 is taken for step 3
    resp = client.post(path_of(a["link"]), data={"csrf_token": csrf_of(a_page), "step_no": step_of(a_page),
                                                 "form_index": "0", "n": "2"})
    assert resp.status_code == 303
    game = game_row(app, made["game"])
    assert game.state["round"] == 2 and game.state["score"]["A"] == 2


def test_an_old_form_does_not_count_after_a_resolution(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    a, b = made["seats"]
    a_page = client.get(path_of(a["link"])).get_data(as_text=True)
    post_form(client, a["link"], {"n": "1"})
    post_form(client, b["link"], {"n": "2"})
    post_anytime(client, b["link"], {"text": "hi"}, form_index="1")
    resp = client.post(path_of(a["link"]), data={"csrf_token": csrf_of(a_page), "step_no": step_of(a_page),
                                                 "form_index": "0", "n": "3"})
    assert resp.status_code == 409
    assert game_row(app, made["game"]).state["round"] == 2


def test_an_illegal_anytime_order_changes_nothing_and_says_why(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    b = made["seats"][1]
    before = game_row(app, made["game"])
    resp = post_anytime(client, b["link"], {})  # the box not ticked
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "Tick the box to resign for good." in html and "Resign at any time" in html
    resp = post_anytime(client, b["link"], {}, form_index="7")
    assert resp.status_code == 422 and "not part of this decision" in resp.get_data(as_text=True)
    resp = post_anytime(client, b["link"], {"text": ""}, form_index="1")
    assert resp.status_code == 422 and "please fill this in" in resp.get_data(as_text=True)
    after = game_row(app, made["game"])
    assert (after.step_no, after.state, after.owed) == (before.step_no, before.state, before.owed)
    assert _rows(app, Order, made["game"]) == [] and _texts(app, made["game"]) == []


def test_an_anytime_decision_typed_in_the_notation_box_is_applied_at_once(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    a = made["seats"][0]
    page = client.get(path_of(a["link"])).get_data(as_text=True)
    resp = client.post(path_of(a["link"]), data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                                 "notation": "RESIGN CONFIRM"})
    assert resp.status_code == 303 and "done=applied" in resp.headers["Location"]
    game = game_row(app, made["game"])
    assert game.state["resigned"] == ["A"] and set(game.owed) == {"B"}
    resp = client.post(path_of(a["link"]), data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                                 "notation": "PICK 2"})
    assert resp.status_code == 409  # A owes nothing any more


def test_a_stale_anytime_form_never_picks_another_decision(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    b = made["seats"][1]
    stale = client.get(path_of(b["link"])).get_data(as_text=True)
    resign_key = re.findall(r'name="form_key" value="(\w+)"', stale)[0]
    assert post_anytime(client, b["link"], {"confirm": "on"}).status_code == 303
    # the Resign form (index 0 then) posted again: now index 0 is the note, but the key tells them apart
    resp = post_anytime(client, b["link"], {"form_key": resign_key, "confirm": "on", "text": "oops"}, page=stale)
    assert resp.status_code == 422 and "not part of this decision" in resp.get_data(as_text=True)
    assert game_row(app, made["game"]).state["notes"] == 0


def test_the_anytime_post_needs_the_form_token(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime")
    link = path_of(made["seats"][1]["link"])
    page = client.get(link).get_data(as_text=True)
    assert client.post(link + "/anytime", data={"form_index": "0", "confirm": "on"}).status_code == 403
    assert client.post(link + "/anytime", data={"csrf_token": "1.forged", "confirm": "on"}).status_code == 403
    resp = client.post(link + "/anytime", data={"csrf_token": csrf_of(page), "form_index": "0", "confirm": "on"},
                       headers={"Sec-Fetch-Site": "cross-site"})
    assert resp.status_code == 403
    assert client.get(link + "/anytime").status_code == 405
    assert client.post("/p/" + "x" * 43 + "/anytime", data={}).status_code == 404
    assert game_row(app, made["game"]).state["resigned"] == []


def test_a_game_without_the_extra_offers_nothing_at_any_time(app, client, runner):
    made = create_game(runner, "toy")
    link = made["seats"][0]["link"]
    html = client.get(path_of(link)).get_data(as_text=True)
    assert "/anytime" not in html
    resp = post_anytime(client, link, {"confirm": "on"}, page=html)
    assert resp.status_code == 422 and "There is nothing you can send now." in resp.get_data(as_text=True)


def test_after_the_end_nothing_is_offered_and_the_game_replays(app, client, runner, toy_anytime):
    made = create_game(runner, "toy_anytime", ("a@example.org", "b@example.org"), "--option", "rounds=2")
    a, b = made["seats"]
    post_anytime(client, a["link"], {"text": "hello"}, form_index="1")
    post_form(client, a["link"], {"n": "2"})
    post_form(client, b["link"], {"n": "3"})
    post_anytime(client, b["link"], {"confirm": "on"})
    b_page = client.get(path_of(b["link"])).get_data(as_text=True)
    post_form(client, a["link"], {"n": "3"})
    game = game_row(app, made["game"])
    assert game.status == "finished" and game.state["score"] == {"A": 3, "B": 3}
    html = client.get(path_of(b["link"])).get_data(as_text=True)
    assert "/anytime" not in html and "The game is over" in html
    resp = post_anytime(client, b["link"], {"text": "late"}, form_index="0", page=b_page)
    assert resp.status_code == 409 and "The game is not running now" in resp.get_data(as_text=True)
    with app.app_context(), Session(get_engine(app)) as s:
        report = replay_game(game, s)
    assert report.ok, report.problems
    assert report.steps_checked == 4  # note, round 1, resignation, round 2
    assert [ANYTIME_STEP in (s.orders or {}) for s in _rows(app, Step, made["game"])] == [True, False, True, False,
                                                                                           False]


def test_an_anytime_order_racing_the_deadline_closes_each_step_once(app, runner, toy_anytime):
    made = create_game(runner, "toy_anytime", ("a@example.org", "b@example.org"), "--hours", "1")
    later = utcnow() + timedelta(hours=2)
    with Session(get_engine(app)) as s:
        seat_b = s.exec(select(Seat).where(Seat.game_id == made["game"], Seat.seat == "B")).one()
    url = app.config["DATABASE_URL"]
    barrier = threading.Barrier(3)
    errors = []

    def resolver():
        engine = make_engine(url)
        barrier.wait()
        with app.app_context():
            turns.process_game(engine, made["game"], later)

    def note(text):
        engine = make_engine(url)
        barrier.wait()
        with app.app_context():
            try:
                turns.accept_anytime(engine, made["game"], seat_b.id, {"type": "NOTE", "text": text})
            except Exception as exc:  # noqa: BLE001
                errors.append(exc)

    threads = [threading.Thread(target=resolver), threading.Thread(target=note, args=("x",)),
               threading.Thread(target=note, args=("y",))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with app.app_context():  # the next sweep resolves the step if a note took it from under the resolver
        turns.process_game(get_engine(app), made["game"], later)
    steps = _rows(app, Step, made["game"])
    game = game_row(app, made["game"])
    assert [s.step_no for s in steps] == list(range(1, game.step_no + 1))
    assert all(s.resolved_at is not None for s in steps[:-1]) and steps[-1].resolved_at is None
    texts = _texts(app, made["game"])
    assert sum(t.startswith("Round 1:") for t in texts) == 1
    assert sum(" notes " in t for t in texts) == 2
    assert game.state["round"] == 2 and game.state["notes"] == 2
