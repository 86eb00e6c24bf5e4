"""What a player sends that is empty, malformed or odd gets a clear answer and changes nothing.

An empty order box, an absence in the past, a time zone no one has, an API
``since`` too large for the database (press: ``tests/press/test_press_input.py``).
And what a player reads back: the stored order in words with its
receipt, the machine's seats called so.
"""

from __future__ import annotations

import re

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.links import prefs_link
from app.models import Absence, Game, Order, Player
from tests.platform.helpers import create_game, csrf_of, path_of, step_of


def _orders(app) -> list[Order]:
    with Session(get_engine(app)) as s:
        return list(s.exec(select(Order)).all())


def _set_language(app, email: str, lang: str) -> None:
    with write_session(get_engine(app)) as s:
        player = s.exec(select(Player).where(Player.email == email)).one()
        player.language = lang
        s.add(player)


def _settings_page(app, runner) -> str:
    """A new game's first player's settings page (``/me/<token>``)."""
    create_game(runner)
    with app.app_context(), Session(get_engine(app)) as s:
        return path_of(prefs_link(s.exec(select(Player).where(Player.email == "a@example.org")).one()))


def test_an_empty_order_box_says_to_type_an_order_and_stores_nothing(app, client, runner):
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    _set_language(app, "a@example.org", "pt")
    html = client.get(link).get_data(as_text=True)
    resp = client.post(link, data={"csrf_token": csrf_of(html), "step_no": step_of(html), "notation": "   "})
    body = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert "Escreva primeiro a sua ordem na caixa. Nada foi enviado." in body
    assert "recarregue a página" not in body, "not the stale-form message"
    assert re.search(r"<details\s+open>\s*<summary>", body), "the notation box is shown open again"
    assert _orders(app) == []


def test_an_absence_in_the_past_is_refused_for_being_past(app, client, runner):
    me = _settings_page(app, runner)
    html = client.get(me).get_data(as_text=True)
    assert "0 used this year" in html and "0.0" not in html
    resp = client.post(me, data={"csrf_token": csrf_of(html), "action": "absence", "start": "2020-01-01",
                                 "end": "2020-01-05"})
    assert resp.status_code == 422
    assert "Absences are declared in advance, not for days already past." in resp.get_data(as_text=True)
    with Session(get_engine(app)) as s:
        assert s.exec(select(Absence)).all() == []


def test_an_unknown_time_zone_of_any_length_is_refused_not_an_error(app, client, runner):
    me = _settings_page(app, runner)
    for zone in ("a" * 300, "Mars/Olympus", "\x00", "../../etc/passwd"):
        html = client.get(me).get_data(as_text=True)
        resp = client.post(me, data={"csrf_token": csrf_of(html), "action": "settings", "timezone": zone})
        assert resp.status_code == 422, zone
        assert "is not a time zone." in resp.get_data(as_text=True)
        assert "\\x00" not in resp.get_data(as_text=True), "no Python quoting"
    with Session(get_engine(app)) as s:
        assert s.exec(select(Player).where(Player.email == "a@example.org")).one().timezone == "UTC"


def test_an_api_since_too_large_for_the_database_is_a_clear_400(client, runner):
    made = create_game(runner)
    token = path_of(made["seats"][0]["link"]).rsplit("/", 1)[1]
    for url in (f"/api/v1/seat/{token}?since=99999999999999999999999", f"/api/v1/game/{made['game']}?since=1e999",
                f"/api/v1/seat/{token}?since=abc"):
        resp = client.get(url)
        assert resp.status_code == 400, url
        assert resp.get_json()["message"].startswith("since: a step number"), url
    assert client.get(f"/api/v1/seat/{token}?since=-3").status_code == 200


def test_the_notice_after_an_order_says_which_order_was_stored(app, client, runner):
    made = create_game(runner)
    link = made["seats"][0]["link"]
    html = client.get(path_of(link)).get_data(as_text=True)
    resp = client.post(path_of(link), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                            "form_index": "0", "n": "2"})
    assert resp.status_code == 303
    notice = client.get(resp.headers["Location"]).get_data(as_text=True)
    said = re.search(r'<div class="notice" role="status">(.*?)</div>', notice, re.S).group(1)
    assert "Your order:" in said and "Receipt:" in said and "2" in said.split("Receipt:")[0]
    assert 'href="#log"' not in said, "stored, not yet resolved: nothing happened yet"
    other = made["seats"][1]["link"]
    html = client.get(path_of(other)).get_data(as_text=True)
    resp = client.post(path_of(other), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                             "form_index": "0", "n": "1"})
    assert "done=resolved" in resp.headers["Location"]
    notice = client.get(resp.headers["Location"]).get_data(as_text=True)
    said = re.search(r'<div class="notice" role="status">(.*?)</div>', notice, re.S).group(1)
    assert 'href="#log"' in said, "the last order resolved the step: a link down to what happened"


def test_the_machines_seats_are_not_called_human(app, client, runner):
    made = create_game(runner, "conquest", ("a@example.org",), "--bot", "--option", "players=3")
    html = client.get(path_of(made["seats"][0]["link"])).get_data(as_text=True)
    kinds = re.findall(r"data-label=\"Kind\">([^<]+)<", html)
    assert sorted(kinds) == ["AI", "AI", "human"]
    with Session(get_engine(app)) as s:
        assert s.get(Game, made["game"]) is not None


def test_a_new_player_has_no_name_from_their_address_and_may_set_and_clear_one(app, client, runner):
    me = _settings_page(app, runner)

    def name() -> str:
        with Session(get_engine(app)) as s:
            return s.exec(select(Player).where(Player.email == "a@example.org")).one().name

    html = client.get(me).get_data(as_text=True)
    assert name() == "" and 'name="name" maxlength="40" value=""' in html, "not 'a', the address's first part"
    assert "never by your address" in html
    for typed, kept in (("  Ann\u202e  of   Lisbon ", "Ann of Lisbon"), ("", "")):
        html = client.get(me).get_data(as_text=True)
        resp = client.post(me, data={"csrf_token": csrf_of(html), "action": "settings", "timezone": "UTC",
                                     "name": typed})
        assert resp.status_code in (200, 303) and name() == kept
