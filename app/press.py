"""Press: messages between the players of a game.

A message goes from one seat to one seat, several seats or everyone in the game
(``Press.to`` is None).  Only its sender and its recipients ever read it: the
seat pages, the mails, the daily digest, the player's dashboard, the seat's
export and the final report's appendix all ask :func:`readable`.

- The GM sets press per game (``Game.press``): ``full``, ``public`` (messages
  to everyone only) or ``none`` (gunboat).  A game's rules may forbid press in
  some phases (``Rules.press_allowed(state)``).
- Each message has at most ``PRESS_MAX_CHARS`` characters (default 2000) and a
  seat sends at most ``PRESS_PER_HOUR`` messages an hour (default 20).  Text
  is stored as written and escaped wherever it is shown (Jinja autoescape; the
  mails are plain text).
- Recipients are told by mail, or in their daily digest (``Player.digest``),
  or only on their page (``Player.optional_mail`` off: no news mail).
- A seat reads the messages addressed to it (or to everyone) and the ones it
  sent while its current player held it: a replaced sender's messages stay
  with that sender, whose link and reply address no longer work.
- By mail: a reply to a game mail (the seat's reply address) whose first line
  is ``PRESS TO <seat>[, <seat>...]`` (or ``PRESS TO ALL``) is press, not an
  order (:func:`parse_mail`).  Seats are named as the game names them, in any
  of the server's languages, or by their code.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from flask import current_app
from sqlmodel import Session, col, select

from app.games import get_rules
from app.i18n import LANGUAGES, game_title_filter, gettext, player_locale, seat_name_filter
from app.i18n.terms import N_
from app.kinds import GameStatus, OutboxStatus
from app.models import Game, GmAction, Player, Press, Seat, iso
from app.notices import Refusal, notice
from app.outbox import queue_mail
from app.tokens import LINK_PLACEHOLDER
from app.usertext import clean


class PressMode(StrEnum):
    FULL = "full"
    PUBLIC = "public"
    NONE = "none"


#: The English names of the modes, translated where they are shown.
MODE_NAMES = {PressMode.FULL: N_("full press"), PressMode.PUBLIC: N_("public press only"),
              PressMode.NONE: N_("no press (gunboat)")}

_MODE_NOTICES = {PressMode.FULL: N_("The GM set this game's press: full press."),
                 PressMode.PUBLIC: N_("The GM set this game's press: public press only."),
                 PressMode.NONE: N_("The GM set this game's press: no press (gunboat).")}

_PRESS_LINE = re.compile(r"^\s*(press\s+)?(to)\s*(:?)\s+(.+)$", re.IGNORECASE)
_EVERYONE = {"all", "everyone", "todos", "όλοι", "ολοι"}


def max_chars() -> int:
    return int(current_app.config.get("PRESS_MAX_CHARS", 2000))


def per_hour() -> int:
    return int(current_app.config.get("PRESS_PER_HOUR", 20))


# --------------------------------------------------------------------------- reading


def readable(row: Press, seat: Seat) -> bool:
    """Whether ``seat`` (as held by its current player) may read this message."""
    if row.game_id != seat.game_id:
        return False
    if row.sender == seat.seat:
        return row.sender_player is not None and row.sender_player == seat.player_id
    return row.to is None or seat.seat in row.to


def for_seat(session: Session, seat: Seat, limit: int = 200) -> list[Press]:
    """The messages this seat may read, newest first."""
    rows = session.exec(select(Press).where(Press.game_id == seat.game_id)
                        .order_by(col(Press.id).desc())).all()
    return [r for r in rows if readable(r, seat)][:limit]


def unread(session: Session, seat: Seat) -> int:
    """How many messages to this seat came after the last one it marked as read."""
    rows = session.exec(select(Press).where(Press.game_id == seat.game_id, col(Press.id) > seat.press_read)).all()
    return sum(1 for r in rows if readable(r, seat) and r.sender != seat.seat)


def mark_read(session: Session, seat: Seat) -> None:
    """Everything this seat may read now counts as read (a POST; flushes, the caller commits)."""
    last = session.exec(select(Press.id).where(Press.game_id == seat.game_id)
                        .order_by(col(Press.id).desc())).first()
    seat.press_read = max(seat.press_read, last or 0)
    session.add(seat)


def as_data(row: Press) -> dict[str, Any]:
    """A message as plain data (reports, exports)."""
    return {"id": row.id, "step": row.step_no, "from": row.sender, "to": row.to, "text": row.text,
            "source": row.source, "at": iso(row.created_at)}


def for_report(session: Session, seat: Seat) -> list[dict[str, Any]]:
    """What the seat may read, oldest first (the final report's appendix, the seat's export)."""
    return [as_data(r) for r in reversed(for_seat(session, seat, limit=100000))]


# --------------------------------------------------------------------------- sending


def allowed_now(game: Game, to: list[str] | None) -> str | None:
    """Why press to ``to`` is not allowed now (an English message marked for translation), or None."""
    if game.status != GameStatus.RUNNING:
        return N_("Press is closed: the game is not running.")
    mode = game.press or PressMode.FULL
    if mode == PressMode.NONE:
        return N_("This game is played without press.")
    if mode == PressMode.PUBLIC and to is not None:
        return N_("In this game press is public only: write to everyone.")
    if not get_rules(game.slug).press_allowed(game.state):
        return N_("The rules allow no press in this phase.")
    return None


def send(session: Session, game: Game, seat: Seat, to: list[str] | None, text: str, now: datetime,
         source: str = "web") -> Press:
    """Store a message from ``seat`` and queue it to its recipients; flushes, the caller commits.

    :raises Refusal: press is not allowed now, the text is empty or too long, a
        recipient is not a seat of the game, or the seat sent too much lately.
    """
    text = clean(text).strip()
    seats = {s.seat: s for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    if to is not None:
        to = sorted({t for t in to if t != seat.seat})
        unknown = [t for t in to if t not in seats]
        if unknown:
            raise Refusal(N_("{who} is not a seat of this game."), who=", ".join(unknown))
        if not to:
            raise Refusal(N_("Choose at least one recipient."))
        if len(to) == len(seats) - 1:
            to = None
    why = allowed_now(game, to)
    if why:
        raise Refusal(why)
    if not text:
        raise Refusal(N_("The message is empty."))
    if len(text) > max_chars():
        raise Refusal(N_("A message has at most {n} characters."), n=max_chars())
    recent = session.exec(select(Press.id).where(Press.game_id == game.id, Press.sender == seat.seat,
                                                 col(Press.created_at) > now - timedelta(hours=1))).all()
    if len(recent) >= per_hour():
        raise Refusal(N_("You sent {n} messages in the last hour: wait a little before the next."), n=len(recent))
    row = Press(game_id=game.id or 0, step_no=game.step_no, sender=seat.seat, sender_player=seat.player_id,
                to=to, text=text, source=source, created_at=now)
    session.add(row)
    session.flush()
    for target in seats.values():
        if target.seat != seat.seat and (to is None or target.seat in to):
            _mail(session, game, row, target, now)
    return row


def _mail(session: Session, game: Game, row: Press, target: Seat, now: datetime) -> None:
    """Tell one recipient by mail, held for the digest, or not at all (their settings)."""
    player = session.get(Player, target.player_id) if target.player_id and not target.is_bot else None
    if player is None or not player.optional_mail:
        return
    with player_locale(player.language):
        title = f"{game_title_filter(game.title, game.slug)} #{game.id}"
        sender = seat_name_filter(row.sender, game.slug, game.state)
        whom = (gettext("to everyone") if row.to is None else gettext(
            "to %(seats)s", seats=", ".join(seat_name_filter(s, game.slug, game.state) for s in row.to)))
        subject = gettext("[%(title)s] press from %(sender)s", title=title, sender=sender)
        lines = [gettext("%(sender)s writes %(whom)s:", sender=sender, whom=whom), "", row.text, "",
                 gettext("Read and answer on your page: %(link)s", link=LINK_PLACEHOLDER),
                 gettext("or reply to this mail with a first line PRESS TO %(sender)s (or PRESS TO ALL).",
                         sender=sender)]
    mail = queue_mail(session, game_id=game.id, step_no=game.step_no, seat=target.seat, kind=f"press{row.id}",
                      to_addr=player.email, subject=subject, text="\n".join(lines), html="", report_id=None,
                      thread=f"g{game.id}.{target.seat}", now=now)
    if player.digest and mail.status == OutboxStatus.PENDING:
        mail.status = OutboxStatus.DIGEST
        session.add(mail)


# --------------------------------------------------------------------------- GM and mail


def set_mode(session: Session, game: Game, mode: str, now: datetime) -> None:
    """The GM sets the game's press (logged, told to the players); flushes, the caller commits.

    :raises Refusal: not a press mode.
    """
    if mode not in set(PressMode):
        raise Refusal(N_("Choose full press, public press only or no press."))
    if mode == game.press:
        return
    game.press = mode
    session.add(game)
    session.add(GmAction(game_id=game.id or 0, action="press", detail=mode, created_at=now))
    session.add(notice(game.slug, game.id or 0, game.step_no, now, _MODE_NOTICES[PressMode(mode)]))


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in text if not unicodedata.combining(c)).strip()


def seat_names(game: Game, seats: list[str]) -> dict[str, str]:
    """Every way a player may name a seat (its code, its name in each language), folded -> seat id."""
    out: dict[str, str] = {}
    for seat in seats:
        out[_fold(seat)] = seat
        for lang in LANGUAGES:
            with player_locale(lang):
                out[_fold(seat_name_filter(seat, game.slug))] = seat
                out[_fold(seat_name_filter(seat, game.slug, game.state))] = seat  # "GREEN (Player 3)" too
    return out


def is_press_line(line: str, addressed: bool = False) -> bool:
    """Whether a mail's first line names recipients: ``PRESS TO ...``, or in a mail to the press address
    ``TO ...`` / ``To: ...`` (a message that begins "To be honest" is a message)."""
    match = _PRESS_LINE.match(line)
    if match is None:
        return False
    return bool(match.group(1)) or (addressed and (match.group(2) == "TO" or match.group(3) == ":"))


def parse_mail(game: Game, seats: list[str], text: str) -> tuple[list[str] | None, str] | None:
    """``(recipients, message)`` when a mail's first line is ``[PRESS] TO ...``, else None.

    :raises Refusal: a named recipient is not a seat of the game.
    """
    lines = text.strip().split("\n")
    match = _PRESS_LINE.match(lines[0]) if lines else None
    if match is None:
        return None
    names = [n.strip() for n in re.split(r"[,;]| and | e | και ", match.group(4)) if n.strip()]
    body = "\n".join(lines[1:]).strip()
    if any(_fold(n) in _EVERYONE for n in names):
        return None, body
    known = seat_names(game, seats)
    unknown = [n for n in names if _fold(n) not in known]
    if unknown or not names:
        raise Refusal(N_("{who} is not a seat of this game."), who=", ".join(unknown) or "?")
    return [known[_fold(n)] for n in names], body
