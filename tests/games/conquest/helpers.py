"""Scenario builders for the conquest tests: hand-made states and scripted dice."""

from __future__ import annotations

import random
from typing import Any

from app.games.conquest import RULES
from app.games.conquest import data as D
from app.games.conquest.state import setup_state

COLOURS = ["Red", "Blue", "Olive", "Ochre", "Grey", "Black"]


class Dice(random.Random):
    """An rng whose dice are scripted (as rolled: attacker first, then defender)."""

    def __init__(self, *dice: int) -> None:
        super().__init__(7)
        self.queue = list(dice)

    def randrange(self, n, *args, **kwargs):  # type: ignore[override]
        if n == 6 and not args and self.queue:
            return self.queue.pop(0) - 1
        return super().randrange(n, *args, **kwargs)


def scenario(
    players: int = 3,
    owners: dict[str, str] | None = None,
    armies: dict[str, int] | None = None,
    rest: list[str] | None = None,
    phase: str = "OFFENSIVE",
    round_: int = 2,
    current: str = "Red",
    **options: Any,
) -> dict[str, Any]:
    """A state where seat P1 is Red, P2 Blue, P3 Olive, ... in that turn order.

    ``owners``/``armies`` are keyed by territory id with colours as owners;
    other territories go in turn to the colours of ``rest`` (default: every
    colour but Red) with 1 army.  Objectives default to "destroy Black" kept
    unconverted, which nobody can fulfil unless a test says so.
    """
    opts = {"players": players, "round_limit": 0, **options}
    seats = [f"P{i}" for i in range(1, players + 1)]
    state = setup_state(opts, seats, random.Random(1))
    colours = COLOURS[:players]
    by_colour = dict(zip(colours, seats, strict=True))
    state["order"] = list(seats)
    state["colour"] = dict(zip(seats, colours, strict=True))
    fill = [by_colour[c] for c in (rest or colours[1:])]
    owners = owners or {}
    k = 0
    for t in D.TERRITORIES:
        if t in owners:
            state["owner"][t] = by_colour[owners[t]]
        else:
            state["owner"][t] = fill[k % len(fill)]
            k += 1
        state["armies"][t] = (armies or {}).get(t, 1)
    for s in seats:
        state["objective"][s] = {"card": "O14", "goal": "O14", "converted": False}
        state["hands"][s] = []
    state.update(round=round_, current=by_colour[current], phase=phase, pools={}, pending=None)
    return state


def seat(state: dict[str, Any], colour: str) -> str:
    return next(s for s, c in state["colour"].items() if c == colour)


def play(state: dict[str, Any], colour: str, order: Any, rng: random.Random | None = None):
    """Validate and resolve one order of ``colour`` (text or dict); return (state, events)."""
    s = seat(state, colour)
    if isinstance(order, str):
        order = RULES.parse(order)
    RULES.validate(state, s, order)
    return RULES.resolve(state, {s: order}, rng or Dice())


def en(text: Any) -> str:
    """A message of the game (event, prompt, label) in English."""
    return RULES.text.english(text)


def texts(events: list[dict[str, Any]]) -> str:
    return "\n".join(en(e["text"]) for e in events)


def anytime(state: dict[str, Any], colour: str, order: Any, rng: random.Random | None = None):
    """An order ``colour`` sends at any time (text or dict), on turn or not; return (state, events)."""
    if isinstance(order, str):
        order = RULES.parse(order)
    return RULES.apply_anytime(state, seat(state, colour), order, rng or Dice())
