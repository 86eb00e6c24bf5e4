"""A GM always has a way back to their games, and can move a GM page whose address leaked.

Game creation mails the GM (in the GM's language) their home page, which lists each game
with its GM page; "resend my link" mails it again to an address that runs games; the GM
page moves to a new address on request (the old one stops working); a replacement player
is told they take over a game under way, not that a game begins.
"""

from __future__ import annotations

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.links import prefs_link
from app.mail import fill_link
from app.models import OutboxMail, Player
from app.tokens import PREFS_PLACEHOLDER
from tests.platform.helpers import create_game, csrf_of, mails, path_of


def _gm_mails(app, kind_prefix: str) -> list[OutboxMail]:
    return [m for m in mails(app) if m.seat == "GM" and m.kind.startswith(kind_prefix)]


def test_a_new_game_mails_its_gm_the_way_to_the_gm_page_in_the_gms_language(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    [mail] = _gm_mails(app, "gm-opened")
    assert mail.to_addr == "gm@example.org" and f"#{made['game']}" in mail.subject
    assert PREFS_PLACEHOLDER in mail.text
    assert made["gm_link"].rsplit("/", 1)[1] not in mail.text, "no GM token is stored in the outbox"
    with app.app_context(), Session(get_engine(app)) as s:
        home = prefs_link(s.exec(select(Player).where(Player.email == "gm@example.org")).one())
    assert fill_link(mail.text, "", home).count(home) == 1
    assert path_of(made["gm_link"]) in client.get(path_of(home)).get_data(as_text=True), "the home lists the page"
    with write_session(get_engine(app)) as s:
        gm = s.exec(select(Player).where(Player.email == "gm@example.org")).one()
        gm.language = "pt"
    create_game(runner, "toy", ("c@example.org", "d@example.org"), "--gm", "gm@example.org")
    assert _gm_mails(app, "gm-opened")[-1].subject.endswith("é o GM")


def test_resend_mails_a_gm_their_home_page(app, client, runner):
    create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "GM@example.org")
    assert client.post("/resend", data={"email": "gm@EXAMPLE.org"}).status_code == 200
    [mail] = _gm_mails(app, "gm-home")
    assert mail.to_addr == "gm@example.org" and PREFS_PLACEHOLDER in mail.text


def test_a_gm_page_moves_to_a_new_address_and_the_old_one_stops_working(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    old = path_of(made["gm_link"])
    resp = client.post(old, data={"csrf_token": csrf_of(client.get(old).get_data(as_text=True)),
                                  "action": "new-gm-link"})
    assert resp.status_code == 303
    new = resp.headers["Location"].split("?", 1)[0]
    assert new != old and client.get(old).status_code == 404
    assert "your GM home" in client.get(old).get_data(as_text=True), "the old address says where to look"
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert "the old address no longer works" in page and "GM page moved" in page
    home = path_of(made["gm_home"])
    assert new in client.get(home).get_data(as_text=True) and old not in client.get(home).get_data(as_text=True)


def test_a_replacement_player_takes_over_a_game_under_way(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    gm = path_of(made["gm_link"])
    resp = client.post(gm, data={"csrf_token": csrf_of(client.get(gm).get_data(as_text=True)), "action": "replace",
                                 "seat": "B", "email": "new@example.org"})
    assert resp.status_code == 303
    [mail] = [m for m in mails(app) if m.to_addr == "new@example.org"]
    assert "You take over" in mail.text and "a game under way" in mail.text and "begins" not in mail.text


def test_the_front_page_offers_to_start_a_game_only_where_anyone_may(app, client):
    assert 'href="/gm/new"' in client.get("/").get_data(as_text=True)
    app.config["GM_CREATE_KEY"] = "a-key-for-our-gms"
    assert 'href="/gm/new"' not in client.get("/").get_data(as_text=True)
    assert client.get("/gm/new").status_code == 403
    assert client.get("/gm/new?key=a-key-for-our-gms").status_code == 200


def test_resending_a_seats_last_mail_is_logged_and_not_repeated_within_the_hour(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    gm = path_of(made["gm_link"])

    def resend():
        page = client.get(gm).get_data(as_text=True)
        return client.post(gm, data={"csrf_token": csrf_of(page), "action": "resend", "seat": "A"})

    assert resend().status_code == 303
    again = resend()
    assert again.status_code == 422 and "less than an hour ago" in again.get_data(as_text=True)
    assert client.get(gm).get_data(as_text=True).count("last mail sent again") == 1


def test_the_gm_log_names_seats_and_settings_in_words_in_every_game(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org", "c@example.org", "d@example.org"),
                       "--option", "players=4", "--gm", "gm@example.org")
    gm = path_of(made["gm_link"])
    for fields in ({"action": "press", "press": "public"},
                   {"action": "replace", "seat": "P3", "email": "new@example.org"}):
        page = client.get(gm).get_data(as_text=True)
        assert client.post(gm, data={"csrf_token": csrf_of(page), **fields}).status_code == 303
    page = client.get(gm + "?lang=pt")
    assert page.status_code == 200, "a log line that is not a seat never breaks the page"
    html = page.get_data(as_text=True)
    assert "mensagens · só mensagens públicas" in html
    assert "P3 →" not in html and "(Jogador 3) → new@example.org" in html


def test_a_step_the_gm_closes_early_counts_no_missed_deadline(app, client, runner):
    from app.models import Event, Seat

    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    gm = path_of(made["gm_link"])
    for _ in range(3):  # three early closes: as many missed deadlines would put a seat under auto-command
        page = client.get(gm).get_data(as_text=True)
        assert client.post(gm, data={"csrf_token": csrf_of(page), "action": "resolve"}).status_code == 303
    with Session(get_engine(app)) as s:
        seats = s.exec(select(Seat).where(Seat.game_id == made["game"])).all()
        told = [e.text for e in s.exec(select(Event).where(Event.game_id == made["game"], Event.seq == -1))]
    assert [(x.missed, x.civil_disorder) for x in seats] == [(0, False), (0, False)]
    assert any("The GM closed the step early" in t for t in told)
    assert not any("did not order in time" in t for t in told)


def test_a_control_character_in_a_seat_or_an_address_is_refused_on_every_database(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    gm = path_of(made["gm_link"])
    for action in ("rotate", "replace", "resend", "settings-link"):
        page = client.get(gm).get_data(as_text=True)
        resp = client.post(gm, data={"csrf_token": csrf_of(page), "action": action, "seat": "\x00",
                                     "email": "x@example.org"})
        assert resp.status_code == 422 and "no such seat" in resp.get_data(as_text=True), action
    assert client.post("/resend", data={"email": "a\x00@example.org"}).status_code == 422
