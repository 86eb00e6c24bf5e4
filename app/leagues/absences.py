"""Declared absences (vacations): deadlines wait for an owed player who is away.

A player may be away at most ``League.vacation_days`` days a calendar year
(the smallest allowance of their leagues; 14 days outside leagues).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, select

from app.i18n.terms import N_
from app.models import Absence, Game, League, LeagueMember
from app.notices import Refusal
from app.seats import game_seats

DEFAULT_DAYS = 14


def allowance(session: Session, player_id: int) -> int:
    rows = session.exec(select(League.vacation_days).join(LeagueMember, LeagueMember.league_id == League.id)
                        .where(LeagueMember.player_id == player_id)).all()
    return min(rows) if rows else DEFAULT_DAYS


def days_used(session: Session, player_id: int, year: int) -> float:
    total = 0.0
    for a in session.exec(select(Absence).where(Absence.player_id == player_id)).all():
        start = max(a.start, a.start.replace(year=year, month=1, day=1, hour=0, minute=0, second=0))
        end = min(a.end, a.start.replace(year=year + 1, month=1, day=1, hour=0, minute=0, second=0))
        if a.start.year <= year <= a.end.year and end > start:
            total += (end - start).total_seconds() / 86400
    return total


def declare(session: Session, player_id: int, start: datetime, end: datetime, now: datetime) -> Absence:
    """Record an absence announced in advance.

    :raises ValueError: in the past, backwards, or beyond the yearly allowance.
    """
    if end <= start:
        raise Refusal(N_("The absence must end after it starts."))
    if start < now - timedelta(hours=1):
        raise Refusal(N_("Absences are declared in advance, not for days already past."))
    limit = allowance(session, player_id)
    for year in range(start.year, end.year + 1):
        y0 = start.replace(year=year, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        y1 = y0.replace(year=year + 1)
        part = (min(end, y1) - max(start, y0)).total_seconds() / 86400
        if part > 0 and days_used(session, player_id, year) + part > limit + 1e-9:
            raise Refusal(N_("That would be more than {limit} days away in {year}."), limit=limit, year=year)
    absence = Absence(player_id=player_id, start=start, end=end, created_at=now)
    session.add(absence)
    session.flush()
    return absence


def away_until(session: Session, game: Game, seats: list[str], deadline: datetime) -> datetime | None:
    """When the last owed player who is away at ``deadline`` comes back (None: nobody away)."""
    if not seats or game.id is None:
        return None
    players = [s.player_id for s in game_seats(session, game.id) if s.seat in seats and s.player_id]
    if not players:
        return None
    rows = session.exec(select(Absence).where(Absence.player_id.in_(players),  # type: ignore[attr-defined]
                                              Absence.start <= deadline, Absence.end > deadline)).all()
    return max((a.end for a in rows), default=None)
