"""The player's home (``/me/<token>``): every game of a player, what is owed and by when.

Soonest first: games where the player owes a decision (by deadline), then the
other running games (by deadline), then the ones that ended.  Each row has the
seat page's link, the unread press and the seat's latest report.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, col, select

from app import press, turns
from app.kinds import GameStatus
from app.links import seat_link
from app.models import Game, Player, Report, Seat


@dataclass
class Row:
    game: Game
    seat: Seat
    link: str
    owes: bool  # a decision is owed and no order is on file
    on_file: bool  # owed, and an order is on file
    prompt: dict[str, Any] | None
    unread: int
    last_report: int | None  # the step of the seat's latest report

    @property
    def report_link(self) -> str:
        return f"{self.link}/report.pdf"


def dashboard(session: Session, player: Player) -> list[Row]:
    """The player's seats, soonest decision first."""
    rows = []
    for seat in session.exec(select(Seat).where(Seat.player_id == player.id)).all():
        game = session.get(Game, seat.game_id)
        if game is None:
            continue
        running = game.status == GameStatus.RUNNING
        owed = running and seat.seat in game.owed
        on_file = owed and seat.seat in turns.current_orders(session, game.id, game.step_no)
        last = session.exec(select(Report.step_no).where(Report.game_id == game.id, Report.seat == seat.seat)
                            .order_by(col(Report.step_no).desc())).first()
        rows.append(Row(game=game, seat=seat, link=seat_link(seat), owes=owed and not on_file, on_file=on_file,
                        prompt=game.owed.get(seat.seat) if owed else None, unread=press.unread(session, seat),
                        last_report=last))
    latest = datetime.max.replace(tzinfo=UTC)
    return sorted(rows, key=lambda r: (r.game.status != GameStatus.RUNNING, not r.owes,
                                       r.game.deadline or latest, r.game.id or 0))
