"""The deadline calendars (.ics) speak the player's language: the one attached to a turn
mail and the feed of the settings page."""

from __future__ import annotations

from icalendar import Calendar
from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.models import OutboxMail, Player
from app.turns import get_or_create_player
from tests.platform.helpers import create_game, path_of


def _game_in(app, runner, lang: str) -> dict:
    emails = (f"ics-{lang}1@example.org", f"ics-{lang}2@example.org")
    with app.app_context(), write_session(get_engine()) as session:
        for email in emails:
            player = get_or_create_player(session, email)
            player.language = lang
            session.add(player)
    return create_game(runner, "dual_powers", emails)


def _events(ics: str | bytes) -> list:
    return [c for c in Calendar.from_ical(ics).walk() if c.name == "VEVENT"]


def _attached_ics(app, made: dict) -> str:
    from app.mail import build_message

    with app.app_context(), Session(get_engine()) as session:
        mail = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"],
                                                     OutboxMail.to_addr == made["seats"][0]["email"])).first()
        msg = build_message(session, mail, with_pdf=False)
    part = next(p for p in msg.iter_attachments() if p.get_content_type() == "text/calendar")
    assert part.get_content_charset() == "utf-8", "a mail client must not read it as ASCII"
    return part.get_content()


def test_turn_mail_ics_in_greek(app, runner):
    made = _game_in(app, runner, "el")
    ics = _attached_ics(app, made)
    cal = Calendar.from_ical(ics)
    assert str(cal["x-wr-calname"]) == "Προθεσμίες παιχνιδιών"
    [event] = _events(ics)
    seat = made["seats"][0]["seat"]
    assert str(event["summary"]) == (f"Dual Powers: Revolution 1917 #{made['game']}: προθεσμία εντολών "
                                     f"({_seat(seat, 'el')})")
    assert str(event["description"]).startswith("Στείλτε τις εντολές σας: https://pbem.example.org/p/")
    [alarm] = [c for c in event.walk() if c.name == "VALARM"]
    assert str(alarm["description"]) == f"Προθεσμία εντολών στο Dual Powers: Revolution 1917 #{made['game']}"
    assert "orders due" not in ics and "Send your orders" not in ics


def test_turn_mail_ics_in_english_is_unchanged(app, runner):
    made = _game_in(app, runner, "en")
    [event] = _events(_attached_ics(app, made))
    assert str(event["summary"]).endswith(f"#{made['game']}: orders due ({_seat(made['seats'][0]['seat'], 'en')})")
    assert str(event["description"]).startswith("Send your orders: https://")


def test_calendar_feed_in_portuguese(app, client, runner):
    made = _game_in(app, runner, "pt")
    with app.app_context(), Session(get_engine()) as session:
        from app.links import prefs_link

        link = prefs_link(session.exec(select(Player).where(Player.email == made["seats"][0]["email"])).one())
    feed = client.get(path_of(link) + "/deadlines.ics")
    assert feed.headers["Content-Type"].startswith("text/calendar")
    [event] = _events(feed.data)
    seat = _seat(made["seats"][0]["seat"], "pt")
    assert str(event["summary"]).endswith(f"#{made['game']}: prazo das ordens ({seat})")
    assert str(event["description"]).startswith("Envie as suas ordens: ")


def _seat(seat: str, lang: str) -> str:
    """A seat as the game names it in ``lang`` (Dual Powers: "SOV" -> "Soviet")."""
    from app.games.text import name
    from app.i18n.gametext import render

    return render("dual_powers", name("seat", seat), lang)
