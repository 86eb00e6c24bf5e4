"""Press by mail, two ways (the seat is the one of the address, never the From header):

- a reply to a game mail (the seat's order address) whose first line is
  ``PRESS TO <seat>[, <seat>]`` (or ``PRESS TO ALL``);
- a mail to the seat's press address (``orders+press.<seat id>.<mac>@...``, the
  Reply-To of every press mail): a first line ``TO <seat>, ...`` names the
  recipients; without it, the mail answers the sender of the press it replies to.

The message is what the player wrote (no quoted text, no signature).  The answer
(sent or refused, in the player's language) goes to the address on file, like
every answer to inbound mail.
"""

from __future__ import annotations

import re
from datetime import datetime

from sqlmodel import Session, select

from app import press
from app.db import write_session
from app.i18n import game_text_filter, game_title_filter, gettext, player_locale, seat_name_filter
from app.i18n.terms import N_
from app.mailin.text import own_lines, quote
from app.models import Game, Player, Press, Seat
from app.notices import Refusal
from app.tokens import LINK_PLACEHOLDER

Answer = tuple[str, str, int, tuple[str, str]]  # status, detail, step, (subject, text)

_ANSWERED = re.compile(r"\.press(\d{1,12})@")


def handle(engine: object, game: Game, seat: Seat, player: Player, body: str, now: datetime, *,
           addressed: bool = False, refs: str = "") -> Answer | None:
    """Send the press a mail carries; its answer, or None when the mail is not press (an order).

    ``addressed``: the mail went to the seat's press address; ``refs``: its In-Reply-To and References.
    """
    text = "\n".join(own_lines(body)).strip()
    first = text.split("\n", 1)[0] if text else ""
    named = press.is_press_line(first, addressed)
    if not named and not addressed:
        return None
    message = text
    try:
        with write_session(engine) as session:  # type: ignore[arg-type]
            live_game = session.get(Game, game.id)
            live_seat = session.get(Seat, seat.id)
            if live_game is None or live_seat is None:
                raise Refusal(N_("Press is closed: the game is not running."))
            names = [s.seat for s in session.exec(select(Seat).where(Seat.game_id == game.id))]
            if named:
                to, message = press.parse_mail(live_game, names, text) or (None, "")
            else:
                to = [_answered(session, live_seat, refs)]
            row = press.send(session, live_game, live_seat, to, message, now, source="mail")
            sent_to = row.to
    except Refusal as exc:
        with player_locale(player.language):
            problem = game_text_filter(exc.message, game.slug)
            lines = [gettext("Your press mail for %(game)s was not sent:", game=_name(game)), "",
                     quote(text), "", gettext("Problem: %(problem)s", problem=problem), "", _help()]
            return "rejected", f"press: {exc}", game.step_no, (gettext("press NOT sent"), "\n".join(lines))
    with player_locale(player.language):
        whom = (gettext("to everyone") if sent_to is None else gettext(
            "to %(seats)s", seats=", ".join(seat_name_filter(s, game.slug, game.state) for s in sent_to)))
        lines = [gettext("Your press for %(game)s was sent %(whom)s:", game=_name(game), whom=whom),
                 "", quote(message), "", gettext("Your page:") + " " + LINK_PLACEHOLDER]
        return "press", f"press to {sent_to or 'everyone'}", game.step_no, (gettext("press sent"), "\n".join(lines))


def _answered(session: Session, seat: Seat, refs: str) -> str:
    """The sender of the press a mail replies to (one this seat may read).

    :raises Refusal: the mail answers no such press.
    """
    for found in reversed(_ANSWERED.findall(refs)):
        row = session.get(Press, int(found))
        if row is not None and press.readable(row, seat) and row.sender != seat.seat:
            return row.sender
    raise Refusal(N_("Name the recipients on the first line: TO <seat>, <seat> (or TO ALL)."))


def _name(game: Game) -> str:
    return f"{game_title_filter(game.title, game.slug)} #{game.id}"


def _help() -> str:
    return gettext("To write to other players by mail, reply to a game mail with a first line such as "
                   "PRESS TO <seat>, <seat> (or PRESS TO ALL), then your message.")
