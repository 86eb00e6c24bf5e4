"""The registry of games: ``get_rules(slug)`` returns a game's ``RULES`` object.

Each game is a package ``app/games/<slug>/`` whose ``rules.py`` defines ``RULES``
(see ``docs/adding-a-game.md``).  The games named in ``GAME_MODULES`` are
registered on first use; ``register(rules)`` adds any other (tests do).
"""

from __future__ import annotations

import importlib
import os

from app.games.base import IllegalOrder, InvalidOrder, Rules

__all__ = ["GAMES", "IllegalOrder", "InvalidOrder", "Rules", "all_games", "get_rules", "register"]

#: Packages under ``app.games`` that hold a registered game (``RULES`` in their ``rules.py``).
GAME_MODULES = ("dual_powers", "conquest", "duel", "empire")

GAMES: dict[str, Rules] = {}
_loaded = False


def register(rules: Rules) -> Rules:
    """Add a game to the registry (tests register small games of their own)."""
    GAMES[rules.slug] = rules
    return rules


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    only = os.environ.get("PBEM_GAMES")  # e.g. "dual_powers,duel" to serve only those
    wanted = [n.strip() for n in only.split(",")] if only is not None else GAME_MODULES
    for name in GAME_MODULES:
        if name not in wanted:
            continue
        try:
            module = importlib.import_module(f"app.games.{name}.rules")
        except ModuleNotFoundError as exc:
            if exc.name not in (f"app.games.{name}", f"app.games.{name}.rules"):
                raise
            continue
        register(module.RULES)


def get_rules(slug: str) -> Rules:
    """The rules of the game ``slug``.

    :raises LookupError: no game of that name is registered.
    """
    _load()
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise LookupError(f"unknown game {slug!r} (known: {known})") from None


def all_games() -> dict[str, Rules]:
    """Every registered game, by slug."""
    _load()
    return dict(GAMES)
