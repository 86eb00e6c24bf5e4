"""What the platform itself tells every player of a game (missed deadlines, GM actions...).

A notice is an event row like the engine's, but its text is the platform's: an English
template marked with ``N_`` (so ``pybabel extract`` puts it in ``messages.pot``) and its
parameters, kept as ``{"platform": template, "args": {...}}`` in ``Event.data["msg"]`` and
rendered for each reader in their language (``app.i18n.gametext``).  A seat is passed as
``name("seat", seat_id)``, so it reads as the game names it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.games import get_rules
from app.games.text import name
from app.i18n.gametext import render
from app.models import Event


def seat_name(seat_id: str) -> dict[str, Any]:
    """A seat as a parameter of a notice: the game's own name for it."""
    return name("seat", seat_id)


def notice(slug: str, game_id: int, step_no: int, now: datetime, template: str, **args: Any) -> Event:
    """An event everyone in the game sees; ``Event.text`` keeps its English for logs."""
    message = {"platform": template, "args": args}
    get_rules(slug)  # an unknown game fails here, not when a reader renders the notice
    return Event(game_id=game_id, step_no=step_no, seq=-1, to=None, created_at=now,
                 text=render(slug, message, "en"), data={"msg": message})
