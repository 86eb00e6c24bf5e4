"""What happens when seats miss a deadline: the missed-deadline ladder.

0. A seat whose turn mail or reminder bounced during the turn is excused once
   (``app.bounces``): the step waits one extension, the GM is told.
1. A seat with excused extensions left (league setting, per player per game)
   makes the step wait ``extension_hours`` once more; everyone is told.
2. Otherwise the game's default order is used for the seat.
3. After ``civil_disorder_after`` missed deadlines in a row the seat falls into
   civil disorder: at later deadlines the game's auto-command (its AI, else a
   random legal order) plays it, until the player sends an order again.
4. The GM may then hand the seat to a replacement player (``turns.replace_player``).

Games outside a league have no extensions: default orders, and civil disorder
after 3 missed deadlines in a row.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session

from app import bounces
from app.i18n.terms import N_
from app.models import Game, League
from app.notices import notice, seat_name
from app.seats import game_seats

PLAIN_CIVIL_DISORDER_AFTER = 3


def _league(session: Session, game: Game) -> League | None:
    return session.get(League, game.league_id) if game.league_id else None


def on_missed(session: Session, game: Game, missing: list[str], now: datetime) -> datetime | None:
    """Return a new deadline to make the step wait (an excused extension), or None.

    A seat whose turn mail or reminder bounced is excused first (``app.bounces``).
    """
    bounced = bounces.excuse(session, game, missing, now)
    if bounced is not None:
        return bounced
    league = _league(session, game)
    if league is None or league.max_extensions <= 0:
        return None
    seats = game_seats(session, game.id)
    excused = [s for s in seats if s.seat in missing and s.player_id and not s.civil_disorder
               and s.extensions_used < league.max_extensions]
    if not excused:
        return None
    for seat in excused:
        seat.extensions_used += 1
        session.add(seat)
        session.add(notice(game.slug, game.id or 0, game.step_no, now,
                           N_("{seat} has not ordered yet and takes an excused extension ({used} of {allowed}): "
                              "the step waits {hours:g} hours more."),
                           seat=seat_name(seat.seat), used=seat.extensions_used, allowed=league.max_extensions,
                           hours=league.extension_hours))
    return now + timedelta(hours=league.extension_hours)


def civil_disorder_after(session: Session, game: Game) -> int:
    league = _league(session, game)
    return league.civil_disorder_after if league else PLAIN_CIVIL_DISORDER_AFTER
