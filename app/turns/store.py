"""Rows every part of the turn processor reads or writes: players, orders on file, the locked game.

Every function here takes a session and at most flushes; the caller commits.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.links import prefs_token
from app.models import Game, Order, Player
from app.tokens import hash_token, new_salt


def id_of(game: Game) -> int:
    """The id of a game that is in the database (flushed)."""
    if game.id is None:
        raise ValueError("the game has no id yet (not flushed)")
    return game.id


class StepClosed(Exception):
    """The order came for a step that is no longer open (resolved, or game over)."""


class NeedsWriteLock(Exception):
    """A step planned while reading wrote before its apply (``app.turns.plan``): resolve it under the lock."""


#: ``session.info`` key of the writes a planned step keeps for its apply (``app.turns.plan``)
PLANNED_WRITES = "planned_writes"


def planning(session: Session) -> bool:
    """Whether ``session`` plans a step while reading: its writes wait for the apply."""
    return PLANNED_WRITES in session.info


def write_later(session: Session, statement: Any, rows: list[dict[str, Any]] | None = None, *,
                expect: tuple[int, str] | None = None) -> None:
    """Run a write statement now, or keep it for the apply of a step planned while reading.

    ``expect``: (row count, what it means if another count comes back): a RuntimeError then.
    """
    if planning(session):
        session.info[PLANNED_WRITES].append((statement, rows, expect))
        return
    run_write(session, statement, rows, expect)


def run_write(session: Session, statement: Any, rows: list[dict[str, Any]] | None,
              expect: tuple[int, str] | None) -> None:
    result = session.execute(statement, rows) if rows is not None else session.execute(statement)
    if expect is not None and result.rowcount != expect[0]:  # type: ignore[attr-defined]
        raise RuntimeError(expect[1])


def address_key(email: str) -> str:
    """An e-mail address as the platform compares and stores it: trimmed, in lower case (``Ann@X.org``
    and ``ann@x.org`` are one player: one home page, one seat at most in a game)."""
    return email.strip().lower()


def is_address(email: str) -> bool:
    """Whether ``email`` looks like an e-mail address: one ``@`` between a name and a domain with a dot, no
    spaces or angle brackets, at most 254 characters."""
    email = email.strip()
    name, at, domain = email.rpartition("@")
    return (bool(at and name and "." in domain.strip(".")) and len(email) <= 254
            and not any(c.isspace() or c in "<>,;\"" or not c.isprintable() for c in email))


def player_by_address(session: Session, email: str) -> Player | None:
    """The player with this address, whatever its case (the oldest, if an earlier build stored two)."""
    return session.exec(select(Player).where(func.lower(Player.email) == address_key(email))
                        .order_by(col(Player.id))).first()


def get_or_create_player(session: Session, email: str) -> Player:
    """The player with this address (whatever its case), created in lower case (with a preferences link)
    if new; flushes."""
    email = address_key(email)
    player = player_by_address(session, email)
    if player is None:
        player = Player(email=email, prefs_salt=new_salt())  # no name until the player chooses one
        session.add(player)
        session.flush()
        player.prefs_hash = hash_token(prefs_token(player))
        session.add(player)
    return player


def current_orders(session: Session, game_id: int | None, step_no: int) -> dict[str, Order]:
    """The order that counts for each seat at a step: the last one submitted."""
    rows = session.exec(
        select(Order).where(Order.game_id == game_id, Order.step_no == step_no).order_by(col(Order.id))
    ).all()
    return {row.seat: row for row in rows}


def locked_game(session: Session, game_id: int) -> Game | None:
    """The game, loaded once in this write transaction with its row locked (PostgreSQL
    ``FOR UPDATE``; on SQLite the transaction already holds the write lock)."""
    return session.exec(
        select(Game).where(Game.id == game_id).with_for_update().execution_options(populate_existing=True)
    ).first()


def all_in(session: Session, game: Game) -> bool:
    """Whether every seat ``game`` owes has an order on file for its open step (or added, not yet written)."""
    have = set(session.exec(
        select(Order.seat).where(Order.game_id == game.id, Order.step_no == game.step_no).distinct()
    ).all())
    have |= {o.seat for o in session.new if isinstance(o, Order) and o.game_id == game.id
             and o.step_no == game.step_no}
    return bool(game.owed) and all(s in have for s in game.owed)


def update_all_in(session: Session, game: Game) -> None:
    """Set ``game.all_in``: every owed seat has an order on file for the open step."""
    game.all_in = all_in(session, game)
    session.add(game)


def closed_early(step_no: int) -> str:
    """The log detail of a step the GM resolved before its deadline (``resolve_now``): its seats that had not
    ordered did not miss a deadline (``resolve`` counts no miss for them)."""
    return f"step {step_no}"
