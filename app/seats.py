"""A game's seats, read once while a step resolves.

Resolving a step asks for the game's seats in several places (the missed-deadline
ladder, bounced mails, absences, the reports to queue).  ``read_once`` reads them
at the start of the resolution and ``game_seats`` hands out that list for the
rest of it, so the write lock is not held for the same query five times.  Outside
``read_once`` (or for another game), ``game_seats`` reads them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlmodel import Session, col, select

from app.models import Seat


def _key(game_id: int | None) -> tuple[str, int | None]:
    return ("game_seats", game_id)


def _read(session: Session, game_id: int | None) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.id))).all())


def game_seats(session: Session, game_id: int | None) -> list[Seat]:
    """The game's seats in the order they were made."""
    rows = session.info.get(_key(game_id))
    return rows if rows is not None else _read(session, game_id)


def bot_seats(session: Session, game_id: int | None) -> list[str]:
    """The seats the platform's bots play (a board names them as played by the machine, not by a person)."""
    return [s.seat for s in game_seats(session, game_id) if s.is_bot]


@contextlib.contextmanager
def read_once(session: Session, game_id: int | None) -> Iterator[list[Seat]]:
    """Within this block ``game_seats(session, game_id)`` answers from one read (no seat is added meanwhile)."""
    rows = session.info[_key(game_id)] = _read(session, game_id)
    try:
        yield rows
    finally:
        session.info.pop(_key(game_id), None)
