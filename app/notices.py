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
from app.games.options import OptionError
from app.games.text import IllegalOrder, name
from app.i18n.gametext import render
from app.models import Event


class Refusal(ValueError):
    """A request the platform refuses, with its reason as a platform message.

    ``str(exc)`` is the English (logs); ``exc.message`` is ``{"platform": template, "args": ...}``,
    which the ``game_text`` filter shows in the reader's language.  ``template`` is marked
    with ``N_`` where it is written, so that it is in the catalogues.
    """

    def __init__(self, template: str, /, **args: Any) -> None:
        self.template = template
        self.params = args
        super().__init__(render("", self.message, "en"))

    @property
    def message(self) -> dict[str, Any]:
        return {"platform": self.template, "args": self.params}


def reason(exc: Exception) -> Any:
    """What a page shows of a refusal: its message (rendered in the reader's language), else its text."""
    if isinstance(exc, Refusal | OptionError | IllegalOrder):
        return exc.message
    return str(exc)


def seat_name(seat_id: str) -> dict[str, Any]:
    """A seat as a parameter of a notice: the game's own name for it."""
    return name("seat", seat_id)


def notice(slug: str, game_id: int, step_no: int, now: datetime, template: str, **args: Any) -> Event:
    """An event everyone in the game sees; ``Event.text`` keeps its English for logs."""
    message = {"platform": template, "args": args}
    get_rules(slug)  # an unknown game fails here, not when a reader renders the notice
    return Event(game_id=game_id, step_no=step_no, seq=-1, to=None, created_at=now,
                 text=render(slug, message, "en"), data={"msg": message})
