"""Deadlines as iCalendar (RFC 5545): a player's feed, and one event per turn mail.

Written in the current language: the player's own (the feed is served on the
player's settings page; a turn mail is built inside ``player_locale``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from icalendar import Alarm, Calendar, Event

from app.i18n import game_title_filter, gettext, seat_name_filter
from app.kinds import GameStatus
from app.models import Game, Seat, iso


def _calendar() -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//PBEM turn processor//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", gettext("Game deadlines"))
    return cal


def deadline_event(game_id: int, title: str, seat: str, step_no: int, deadline, link: str = "",  # type: ignore[no-untyped-def]
                   slug: str = "") -> Event:
    """A deadline as a calendar event; the game's title and the seat as the game names them."""
    event = Event()
    event.add("uid", f"deadline-g{game_id}-s{step_no}-{seat}@pbem")
    title = game_title_filter(title, slug) if slug else title
    event.add("summary", gettext("%(title)s #%(id)s: orders due (%(seat)s)", title=title, id=game_id,
                                 seat=seat_name_filter(seat, slug) if slug else seat))
    event.add("dtstart", deadline - timedelta(minutes=30))
    event.add("dtend", deadline)
    event.add("dtstamp", deadline)
    if link:
        event.add("url", link)
        event.add("description", gettext("Send your orders: %(link)s", link=link))
    alarm_text = gettext("Orders due in %(title)s #%(id)s", title=title, id=game_id)
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", alarm_text)
    alarm.add("trigger", timedelta(hours=-2))
    event.add_component(alarm)
    return event


def deadlines_ics(games: list[tuple[Game, Seat]], link_of: dict[int, str] | None = None) -> bytes:
    """All upcoming deadlines of a player's running games."""
    cal = _calendar()
    for game, seat in games:
        if game.status == GameStatus.RUNNING and game.deadline is not None:
            cal.add_component(deadline_event(game.id, game.title, seat.seat, game.step_no, game.deadline,
                                             (link_of or {}).get(seat.id, ""), slug=game.slug))
    return cal.to_ical()


def one_deadline_ics(context: dict, link: str) -> bytes | None:
    """The .ics attached to a mail that announces a deadline (None when nothing is owed)."""
    if not context.get("prompt") or not context.get("deadline"):
        return None
    deadline = datetime.fromisoformat(context["deadline"])
    game = context["game"]
    cal = _calendar()
    cal.add_component(deadline_event(game["id"], game["title"], context["seat"], game["step_no"], deadline, link,
                                     slug=game.get("slug", "")))
    return cal.to_ical()


__all__ = ["deadlines_ics", "one_deadline_ics", "iso"]
