"""The GM page refuses what it may not do, clearly, and never changes a game silently.

Each test drives ``POST /gm/<token>`` the way a GM does: pauses use the capped GM
time, a seat is never handed to the GM or to a player who holds another seat,
bad input and actions that do not fit the game's state are refused (422) with a
message, a finished game keeps no controls, an agreed pause ends by itself, and
game creation checks its addresses.
"""

from __future__ import annotations

from datetime import timedelta

import time_machine
from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.kinds import GameStatus, GmActionKind
from app.models import Event, Game, GmAction, Player, Seat, utcnow
from app.turns import consent
from tests.platform.helpers import create_game, csrf_of, game_row, mails, path_of


def _gm(client, made, headers=None, **fields):
    gm = path_of(made["gm_link"])
    page = client.get(gm, headers=headers).get_data(as_text=True)
    return client.post(gm, data={"csrf_token": csrf_of(page), **fields}, headers=headers)


def _page(client, made, headers=None) -> str:
    return client.get(path_of(made["gm_link"]), headers=headers).get_data(as_text=True)


def _told(app, game_id) -> list[str]:
    with Session(get_engine(app)) as s:
        return [e.text for e in s.exec(select(Event).where(Event.game_id == game_id, Event.seq == -1)).all()]


def _actions(app, game_id) -> list[GmAction]:
    with Session(get_engine(app)) as s:
        return list(s.exec(select(GmAction).where(GmAction.game_id == game_id).order_by(GmAction.id)).all())


def _naive(moment):
    return moment.replace(tzinfo=None)


def _refused(resp, text: str) -> None:
    assert resp.status_code == 422, resp.status_code
    assert text in resp.get_data(as_text=True), text


# --------------------------------------------------------------------------- 1. pauses use the capped GM time


def test_a_pause_moves_the_deadline_by_at_most_the_gm_time_left_then_pausing_is_refused(app, client, runner):
    app.config["GM_MAX_EXTENSION_HOURS"] = 10
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "24")
    assert "A pause uses GM time for as long as it lasts" in _page(client, made)
    assert _gm(client, made, action="extend", hours="8").status_code == 303
    deadline = game_row(app, made["game"]).deadline
    assert _gm(client, made, action="pause").status_code == 303
    with time_machine.travel(utcnow() + timedelta(hours=30), tick=False):
        assert _gm(client, made, action="resume").status_code == 303
        game = game_row(app, made["game"])
        assert game.status == GameStatus.RUNNING
        assert _naive(game.deadline) == _naive(deadline + timedelta(hours=2)), "2 h of GM time were left, not 30"
        assert [a.hours for a in _actions(app, made["game"]) if a.action == GmActionKind.PAUSE] == [2]
        page = _page(client, made)
        assert "No GM time is left in this game" in page
        assert 'value="pause"' not in page and 'value="extend"' not in page
        _refused(_gm(client, made, action="pause"), "No GM time is left in this game")
        _refused(_gm(client, made, action="extend", hours="1"), "No GM time is left in this game")
    assert game_row(app, made["game"]).status == GameStatus.RUNNING


# --------------------------------------------------------------------------- 2. whom a seat may be handed to


def test_a_seat_is_not_handed_to_the_gm_nor_to_a_player_of_another_seat(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    before = len(mails(app))
    _refused(_gm(client, made, action="replace", seat="A", email="GM@Example.ORG"), "the GM&#39;s")
    _refused(_gm(client, made, action="replace", seat="A", email="B@EXAMPLE.org"), "already plays")
    assert len(mails(app)) == before, "nobody was invited"
    assert client.get(path_of(made["seats"][0]["link"])).status_code == 200, "A's link still works"
    assert _gm(client, made, action="extend", hours="1").status_code == 303, "the GM keeps the GM's powers"
    assert _gm(client, made, action="replace", seat="A", email="c@example.org").status_code == 303


# --------------------------------------------------------------------------- 3. bad input, wrong state


def test_extensions_must_be_a_positive_number_of_hours_within_the_time_left(app, client, runner):
    made = create_game(runner)
    deadline = game_row(app, made["game"]).deadline
    for hours in ("-5", "0", "", "0.0001", "abc", "nan", "inf", "1e400", "100000"):
        resp = _gm(client, made, action="extend", hours=hours)
        assert resp.status_code == 422, hours
        text = resp.get_data(as_text=True)
        assert "Give a number of hours." in text or "hours of GM time left" in text or "capped" in text, hours
    _refused(_gm(client, made, action="extend"), "Give a number of hours.")
    assert _naive(game_row(app, made["game"]).deadline) == _naive(deadline)
    assert _actions(app, made["game"]) == [] and not any("extended" in t for t in _told(app, made["game"]))


def test_actions_that_do_not_fit_the_games_state_are_refused(app, client, runner):
    made = create_game(runner)
    for action in ("", "bogus"):
        _refused(_gm(client, made, action=action), "Choose one of the page")
    _refused(_gm(client, made), "Choose one of the page")
    _refused(_gm(client, made, action="resume"), "nothing to resume")
    _refused(_gm(client, made, action="ask-pause", hours="5"), "Only a GM who also plays")
    assert 'value="ask-pause"' not in _page(client, made), "no ask-pause button for a GM who does not play"
    assert _gm(client, made, action="pause").status_code == 303
    page = _page(client, made)
    assert 'value="pause"' not in page and 'value="resolve"' not in page and 'value="resume"' in page
    _refused(_gm(client, made, action="pause"), "Only a running game can be paused.")
    _refused(_gm(client, made, action="resolve"), "Only a running game can have its turn resolved now.")
    with write_session(get_engine(app)) as session:
        session.get(Game, made["game"]).status = GameStatus.CRASHED
    _refused(_gm(client, made, action="extend", hours="2"), "Only a running or paused game")
    assert [a.action for a in _actions(app, made["game"])] == [GmActionKind.PAUSE]


def test_a_playing_gm_asks_for_a_positive_pause_within_the_time_left(app, client, runner):
    made = create_game(runner, "toy", ("gm@example.org", "b@example.org"), "--gm", "gm@example.org")
    page = _page(client, made)
    assert 'value="ask-pause"' in page
    assert 'value="extend"' not in page and 'value="pause"' not in page and 'value="replace"' not in page
    for hours in ("-3", "0", "", "x", "100000"):
        _refused(_gm(client, made, action="ask-pause", hours=hours), "" if hours in ("", "x") else "GM time left")
    assert _actions(app, made["game"]) == []


# --------------------------------------------------------------------------- 4. a finished game


def test_a_finished_game_has_no_hand_over_nor_extension(app, client, runner):
    made = create_game(runner)
    with write_session(get_engine(app)) as session:
        game = session.get(Game, made["game"])
        game.status = GameStatus.FINISHED
    before = len(mails(app))
    page = _page(client, made)
    assert 'value="replace"' not in page and 'value="extend"' not in page and 'value="pause"' not in page
    _refused(_gm(client, made, action="replace", seat="A", email="new@example.org"), "The game is over")
    _refused(_gm(client, made, action="extend", hours="2"), "Only a running or paused game")
    assert [m for m in mails(app)[before:] if m.to_addr == "new@example.org"] == []


# --------------------------------------------------------------------------- 5. an agreed pause ends by itself


def test_an_agreed_pause_ends_after_its_hours_and_a_second_yes_is_harmless(app, client, runner):
    made = create_game(runner, "toy", ("gm@example.org", "b@example.org"), "--gm", "gm@example.org")
    assert _gm(client, made, action="ask-pause", hours="5").status_code == 303
    b = path_of(made["seats"][1]["link"]) + "/pause"
    html = client.get(b).get_data(as_text=True)
    assert client.post(b, data={"csrf_token": csrf_of(html)}).status_code == 303
    game = game_row(app, made["game"])
    assert game.status == GameStatus.PAUSED
    assert client.post(b, data={"csrf_token": csrf_of(html)}).status_code == 303, "agreeing twice is no conflict"
    paused_at = [a for a in _actions(app, made["game"]) if a.action == GmActionKind.PAUSE][0].created_at
    with write_session(get_engine(app)) as session:
        assert consent.end_agreed_pauses(session, paused_at + timedelta(hours=4), cap_hours=336) == 0
    with write_session(get_engine(app)) as session:
        assert consent.end_agreed_pauses(session, paused_at + timedelta(hours=5), cap_hours=336) == 1
    after = game_row(app, made["game"])
    assert after.status == GameStatus.RUNNING
    assert _naive(after.deadline) == _naive(game.deadline + timedelta(hours=5))
    assert "The agreed pause of 5 hours is over: the game runs again." in _told(app, made["game"])
    with write_session(get_engine(app)) as session:
        assert consent.end_agreed_pauses(session, paused_at + timedelta(hours=50), cap_hours=336) == 0


# --------------------------------------------------------------------------- 6. messages, not Python text


def test_an_unknown_seat_is_refused_in_the_gms_language(app, client, runner):
    made = create_game(runner)
    resp = _gm(client, made, action="replace", seat="XXX", email="new@example.org")
    _refused(resp, "This game has no such seat.")
    assert "no seat &#39;" not in resp.get_data(as_text=True)
    pt = {"Accept-Language": "pt-PT"}
    _refused(_gm(client, made, headers=pt, action="replace", seat="XXX", email="new@example.org"),
             "Este jogo não tem esse lugar.")


def test_the_gm_page_shows_the_deadline_in_the_gms_time_zone(app, client, runner):
    made = create_game(runner, "toy", ("gm@example.org", "b@example.org"), "--gm", "gm@example.org")
    assert "UTC" in _page(client, made)
    with write_session(get_engine(app)) as session:
        gm = session.exec(select(Player).where(Player.email == "gm@example.org")).one()
        gm.timezone = "Asia/Tokyo"
    assert "JST" in _page(client, made)


def _creation_error(client, **form) -> str:
    """The error ``/gm/new`` shows for a form (the game is not created)."""
    resp = client.post("/gm/new", data={"slug": "toy", **form})
    assert resp.status_code == 200
    text = resp.get_data(as_text=True)
    assert 'role="alert"' in text, form
    return text.split('role="alert">')[1].split("</div>")[0]


def test_game_creation_explains_a_wrong_number_of_players_without_python_text(app, client):
    app.config["GM_CREATE_KEY"] = ""
    error = _creation_error(client, players="a@example.org\nb@example.org\nc@example.org")
    assert "2 seats for players" in error and "3 addresses" in error and " given" in error
    assert "needs 2 players" in _creation_error(client, players="a@example.org")
    for hours in ("x", "nan"):
        error = _creation_error(client, players="a@example.org\nb@example.org", hours=hours)
        assert "hours per turn" in error and "&#39;" not in error, hours
    assert "options must be a JSON object" in _creation_error(client, players="a@example.org\nb@example.org",
                                                               options="{not json")


# --------------------------------------------------------------------------- 7. addresses on game creation


def test_game_creation_refuses_non_addresses_and_the_same_address_twice(app, client):
    app.config["GM_CREATE_KEY"] = ""
    for form, name in (({"players": "notanemail\nb@example.org"}, "notanemail"),
                       ({"players": "a@example.org\nb@example.org", "gm_email": "not-an-email"}, "not-an-email"),
                       ({"players": "a@example.org\nA@Example.org"}, "A@Example.org")):
        error = _creation_error(client, **form)
        assert name in error and "&#39;" not in error, form
        assert ("is not an e-mail address" in error) != (name == "A@Example.org"), error
    with Session(get_engine(app)) as s:
        assert s.exec(select(Game)).all() == [] and s.exec(select(Seat)).all() == []


def test_the_new_refusals_read_in_the_gms_language(app, client, runner):
    """Needs the pt catalogue to hold the new GM messages (the lead adds them): fails until then."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    pt = {"Accept-Language": "pt-PT"}
    resp = _gm(client, made, headers=pt, action="replace", seat="A", email="gm@example.org")
    assert resp.status_code == 422
    assert "This is your own address" not in resp.get_data(as_text=True)
    resp = _gm(client, made, headers=pt, action="bogus")
    assert resp.status_code == 422 and "Choose one of the page" not in resp.get_data(as_text=True)


def test_the_schedulers_sweep_ends_an_agreed_pause_and_a_stray_yes_reads_as_a_page(app, client, runner):
    from jobs.deadlines import sweep

    made = create_game(runner, "toy", ("gm@example.org", "b@example.org"), "--gm", "gm@example.org")
    b = path_of(made["seats"][1]["link"]) + "/pause"
    html = client.get(path_of(made["seats"][1]["link"])).get_data(as_text=True)  # the seat's form token
    stray = client.post(b, data={"csrf_token": csrf_of(html)})  # nothing was asked for
    assert stray.status_code == 409
    assert "There is no pause request for you to answer." in stray.get_data(as_text=True)
    assert "<title>409 Conflict</title>" not in stray.get_data(as_text=True)
    assert _gm(client, made, action="ask-pause", hours="2").status_code == 303
    html = client.get(b).get_data(as_text=True)
    assert client.post(b, data={"csrf_token": csrf_of(html)}).status_code == 303
    assert game_row(app, made["game"]).status == GameStatus.PAUSED
    with time_machine.travel(utcnow() + timedelta(hours=1), tick=False):
        sweep(app)
    assert game_row(app, made["game"]).status == GameStatus.PAUSED, "not before its hours"
    with time_machine.travel(utcnow() + timedelta(hours=3), tick=False):
        sweep(app)
    assert game_row(app, made["game"]).status == GameStatus.RUNNING
