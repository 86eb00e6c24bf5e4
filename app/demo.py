"""Demo games: one of every registered game, bots in every seat but the visitor's."""

from __future__ import annotations

from flask import current_app

from app.games import all_games

#: Options for the demo game of a slug (beside a plain game with defaults).
DEMO_OPTIONS: dict[str, list[dict]] = {
    "dual_powers": [{}, {"solo": True, "difficulty": 2, "faction": "SOV"}],
    "conquest": [{"players": 3, "round_limit": 30}],
}


def create_demo_games(email: str) -> list[str]:
    """Create the demo games; lines to print (links, mailbox)."""
    from app.cli import create

    lines = []
    hours = float(current_app.config.get("DEMO_HOURS", 24))
    for slug, rules in sorted(all_games().items()):
        for options in DEMO_OPTIONS.get(slug, [{}]):
            result = create(slug, [email], True, dict(options), hours)
            mine = next(s for s in result["seats"] if s["email"] == email)
            label = rules.title + (f" {options}" if options else "")
            lines.append(f"{label}: game #{result['game']}, you play {mine['seat']}: {mine['link']}")
    return lines
