"""Demo games: one of every registered game, bots in every seat but the visitor's."""

from __future__ import annotations

from flask import current_app

from app import turns
from app.db import get_engine
from app.games import all_games
from app.links import base_url

#: Options for the demo game of a slug (beside a plain game with defaults).
DEMO_OPTIONS: dict[str, list[dict]] = {
    "dual_powers": [{}, {"solo": True, "difficulty": 2, "faction": "SOV"}],
    "conquest": [{"players": 3, "round_limit": 30}],
}


def create_demo_games(email: str) -> list[str]:
    """Create the demo games (``turns.open_game``); lines to print (links, mailbox)."""
    lines = []
    hours = float(current_app.config.get("DEMO_HOURS", 24))
    for slug, rules in sorted(all_games().items()):
        for options in DEMO_OPTIONS.get(slug, [{}]):
            opened = turns.open_game(get_engine(), slug, [email], options=dict(options), hours=hours, bots=True,
                                     max_attempts=current_app.config["MAX_ATTEMPTS"])
            seat_id, token = next(iter(opened.links.items()))  # the visitor's seat: the only one with a player
            label = rules.title + (f" {options}" if options else "")
            lines.append(f"{label}: game #{opened.game_id}, you play {seat_id}: {base_url()}/p/{token}")
    return lines
