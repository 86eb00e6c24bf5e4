"""Rows every part of the turn processor reads or writes: players, orders on file, the locked game.

Every function here takes a session and at most flushes; the caller commits.
"""

from __future__ import annotations

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


def get_or_create_player(session: Session, email: str) -> Player:
    """The player with this address, created (with a preferences link) if new; flushes."""
    email = email.strip()
    player = session.exec(select(Player).where(Player.email == email)).first()
    if player is None:
        player = Player(email=email, name=email.split("@")[0], prefs_salt=new_salt())
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
    """Whether every seat ``game`` owes has an order on file for its open step."""
    have = set(session.exec(
        select(Order.seat).where(Order.game_id == game.id, Order.step_no == game.step_no).distinct()
    ).all())
    return bool(game.owed) and all(s in have for s in game.owed)


def update_all_in(session: Session, game: Game) -> None:
    """Set ``game.all_in``: every owed seat has an order on file for the open step."""
    game.all_in = all_in(session, game)
    session.add(game)
