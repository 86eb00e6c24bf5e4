"""The missed-deadline ladder: extensions, defaults, civil disorder, a replacement player."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.models import Event, League, Order, Seat, utcnow
from tests.platform.helpers import csrf_of, game_row, mails, path_of, post_form


def _league_game(app, runner, extensions=1):
    out = runner.invoke(args=["league", "create", "Ladder", "--game", "toy", "--extensions", str(extensions)])
    assert out.exit_code == 0, out.output
    runner.invoke(args=["league", "add", "ladder", "a@example.org", "b@example.org"])
    with app.app_context(), write_session(get_engine(app)) as s:
        league = s.exec(select(League)).one()
        league.extension_hours = 12
        league.civil_disorder_after = 2
        s.add(league)
    runner.invoke(args=["league", "season", "ladder"])
    with Session(get_engine(app)) as s:
        seats = s.exec(select(Seat).order_by(Seat.id)).all()
        return seats[0].game_id


def _tick(runner, hours):
    out = runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=hours)).isoformat()])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _events(app, game_id):
    with Session(get_engine(app)) as s:
        return [e.text for e in s.exec(select(Event).where(Event.game_id == game_id).order_by(Event.id))]


def test_excused_extension_then_default_order(app, runner):
    game_id = _league_game(app, runner, extensions=1)
    assert _tick(runner, 25)["steps"] == 0, "both seats take their one excused extension: the step waits"
    assert game_row(app, game_id).step_no == 1
    assert sum("excused extension (1 of 1)" in t for t in _events(app, game_id)) == 2
    assert _tick(runner, 38)["steps"] == 1, "no extension left: default orders"
    with Session(get_engine(app)) as s:
        sources = {o.source for o in s.exec(select(Order).where(Order.game_id == game_id))}
    assert sources == {"default"}


def test_civil_disorder_after_missed_deadlines_until_the_player_returns(app, client, runner):
    game_id = _league_game(app, runner, extensions=0)
    _tick(runner, 25)
    _tick(runner, 50)
    with Session(get_engine(app)) as s:
        seats = s.exec(select(Seat).where(Seat.game_id == game_id)).all()
        assert all(seat.civil_disorder for seat in seats)
    assert any("auto-command plays the seat" in t for t in _events(app, game_id))
    _tick(runner, 75)
    with Session(get_engine(app)) as s:
        last = s.exec(select(Order).where(Order.game_id == game_id, Order.step_no == 3)).all()
    assert {o.source for o in last} == {"auto"}


def test_gm_hands_a_seat_to_a_replacement_and_the_old_link_dies(app, client, runner):
    out = json.loads(runner.invoke(args=["game", "create", "toy", "--player", "old@example.org",
                                         "--player", "b@example.org"]).output)
    old_link = out["seats"][0]["link"]
    gm = path_of(out["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    resp = client.post(gm, data={"csrf_token": csrf_of(page), "action": "replace", "seat": "A",
                                 "email": "new@example.org"})
    assert resp.status_code in (200, 303)
    assert client.get(path_of(old_link)).status_code == 404
    invite = [m for m in mails(app) if m.to_addr == "new@example.org"]
    assert len(invite) == 1 and "take over A" in invite[0].subject
    with app.app_context(), Session(get_engine(app)) as s:
        from app.links import seat_link

        seat = s.exec(select(Seat).where(Seat.game_id == out["game"], Seat.seat == "A")).one()
        new_link = seat_link(seat)
    assert post_form(client, new_link, {"n": "2"}).status_code == 303
    assert "A new player takes over A." in _events(app, out["game"])


def test_a_playing_gm_pauses_only_when_every_other_player_agrees(app, client, runner):
    out = json.loads(runner.invoke(args=["game", "create", "toy", "--player", "gm@example.org", "--player",
                                         "b@example.org", "--gm", "gm@example.org"]).output)
    gm = path_of(out["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    assert client.post(gm, data={"csrf_token": csrf_of(page), "action": "pause"}).status_code == 422
    assert client.post(gm, data={"csrf_token": csrf_of(page), "action": "ask-pause", "hours": "48"}).status_code == 303
    assert game_row(app, out["game"]).status == "running"
    b = path_of(out["seats"][1]["link"]) + "/pause"
    html = client.get(b).get_data(as_text=True)
    assert "asks to pause the game for 48 hours" in html and "0 of 1" in html
    gm_seat = path_of(out["seats"][0]["link"]) + "/pause"
    assert "I agree" not in client.get(gm_seat).get_data(as_text=True), "the GM does not vote for themselves"
    assert client.post(b, data={"csrf_token": csrf_of(html)}).status_code == 303
    assert game_row(app, out["game"]).status == "paused"
    assert "Every player agreed: the game is paused." in _events(app, out["game"])
