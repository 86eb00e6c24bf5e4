"""Filling Empire's real prompt forms with legal values, as a player choosing from them would."""

from __future__ import annotations

from typing import Any


def legal_values(spec: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """Field values of one prompt form: the ``pick``-th legal choice of each field (wrapping),
    a dependent field's choice legal with its parent's value, numbers within the seat's total."""
    data: dict[str, Any] = {}
    budget = None
    for f in spec.get("fields") or []:
        name, kind = f["name"], f.get("type", "text")
        if kind == "choice":
            choices = f["choices"]
            if f.get("depends_on"):
                parent = data.get(f["depends_on"], "")
                choices = [c for c in choices if "when" not in c or parent in c["when"]]
            if choices:
                data[name] = choices[pick % len(choices)]["value"]
        elif kind == "multi":
            values = [c["value"] for c in f["choices"]]
            data[name] = values[:f.get("exactly", 1)]
        elif kind == "int":
            if f.get("total") is not None:
                budget = f["total"] if budget is None else budget
                n = min(1, budget, f.get("max", 1))
                budget -= n
                data[name] = n
            else:
                data[name] = f.get("default", f.get("min", 0))
    return data


#: the languages of the seats of ``greek_and_portuguese_game``, in seat order
GREEK_AND_PORTUGUESE = ("el", "pt", "el", "pt")


def greek_and_portuguese_game(live: Any, runner: Any) -> dict[str, Any]:
    """A 4-player Empire game whose players read Greek and Portuguese (``GREEK_AND_PORTUGUESE``)."""
    from app.db import get_engine, write_session
    from app.turns import get_or_create_player
    from tests.platform.helpers import create_game

    emails = tuple(f"{lang}{i}@example.org" for i, lang in enumerate(GREEK_AND_PORTUGUESE))
    with live.app_context(), write_session(get_engine()) as session:
        for email, lang in zip(emails, GREEK_AND_PORTUGUESE, strict=True):
            get_or_create_player(session, email).language = lang
    return create_game(runner, "empire", emails, "--option", "players=4")
