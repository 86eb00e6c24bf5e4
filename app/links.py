"""Personal links: ``/p/<token>`` for a seat, ``/gm/<token>`` for a game's GM.

Links are always built from ``BASE_URL``, never from the request's Host header.
"""

from __future__ import annotations

from flask import current_app

from app.models import Game, Player, Seat
from app.tokens import derive_token, hash_token, new_salt


def _key() -> str:
    return str(current_app.config["SECRET_KEY"])


def base_url() -> str:
    return str(current_app.config["BASE_URL"]).rstrip("/")


def seat_token(seat: Seat) -> str:
    return derive_token(_key(), "seat", seat.id or 0, seat.token_salt, seat.token_version)


def issue_seat_token(seat: Seat) -> str:
    """Give a seat a fresh link (the previous one stops working); the raw token."""
    if seat.token_salt:
        seat.token_version += 1
    seat.token_salt = new_salt()
    token = seat_token(seat)
    seat.token_hash = hash_token(token)
    return token


def seat_link(seat: Seat) -> str:
    return f"{base_url()}/p/{seat_token(seat)}"


def gm_token(game: Game) -> str:
    return derive_token(_key(), "gm", game.id or 0, game.gm_salt)


def issue_gm_token(game: Game) -> str:
    game.gm_salt = new_salt()
    token = gm_token(game)
    game.gm_token_hash = hash_token(token)
    return token


def gm_link(game: Game) -> str:
    return f"{base_url()}/gm/{gm_token(game)}"


def prefs_token(player: Player) -> str:
    return derive_token(_key(), "prefs", player.id or 0, player.prefs_salt)


def issue_prefs_token(player: Player) -> str:
    """Give a player a fresh settings link (the previous one stops working at once); the raw token."""
    player.prefs_salt = new_salt()
    token = prefs_token(player)
    player.prefs_hash = hash_token(token)
    return token


def prefs_link(player: Player) -> str:
    """The player's own settings page: time zone, digest, unsubscribe, absences, calendar."""
    return f"{base_url()}/me/{prefs_token(player)}"
