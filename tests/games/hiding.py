"""Per game: change what one seat may not see, leaving its view as it was.

``HIDE[slug](state, seat, rng)`` changes ``state`` in place: other seats' hands and
objectives, unseen tiles and the order of every face-down pile are redrawn at random,
keeping every count the seat may see.  The bot conformance test uses it to check that
a bot's order depends on nothing its seat cannot see.
"""

from __future__ import annotations

import random
from typing import Any

State = dict[str, Any]


def _redeal(hands: list[list[str]], rng: random.Random, extra: list[str] | None = None) -> None:
    """Shuffle the cards of ``hands`` (and ``extra``) back into lists of the same sizes."""
    pool = [c for h in hands for c in h] + (extra or [])
    rng.shuffle(pool)
    for h in hands:
        n = len(h)
        h[:], pool = pool[:n], pool[n:]
    if extra is not None:
        extra[:] = pool


def conquest(state: State, seat: str, rng: random.Random) -> None:
    others = [s for s in state["order"] if s != seat]
    _redeal([state["hands"][s] for s in others], rng, state["draw"])
    if state["options"].get("mode") == "secret_orders" and state["result"] is None:
        objs = [state["objective"][s] for s in others]
        rng.shuffle(objs)
        for s, o in zip(others, objs, strict=True):
            state["objective"][s] = o


def dual_powers(state: State, seat: str, rng: random.Random) -> None:
    from app.games.dual_powers import data

    if state["phase"] == "over":
        return
    rng.shuffle(state["deck"])
    rng.shuffle(state["tiles"]["stack"])
    rng.shuffle(state["opp_leaders"])
    hidden = [s for s in state["hands"] if s != seat]
    commands = [[c for c in state["hands"][s] if data.CARDS[c]["kind"] == "command"] for s in hidden]
    pool = list(state["deck"]) + list(state["opp_pile"])
    unseen = [s for s, c in state["objectives"].items()
              if c is not None and not state["revealed"].get(s) and (s != seat or state["solo"])]
    objs = [[state["objectives"][s]] for s in unseen]
    _redeal(commands + objs, rng, pool)
    for s, cmds in zip(hidden, commands, strict=True):
        state["hands"][s] = [c for c in state["hands"][s] if data.CARDS[c]["kind"] != "command"] + cmds
    for s, o in zip(unseen, objs, strict=True):
        state["objectives"][s] = o[0]
    n = len(state["deck"])
    state["deck"], state["opp_pile"] = pool[:n], pool[n:]


def duel(state: State, seat: str, rng: random.Random) -> None:
    if state.get("over"):
        return
    for pile in (state["land_stack"], state["task_stack"], state["box"], *state["piles"].values()):
        rng.shuffle(pile)


def empire(state: State, seat: str, rng: random.Random) -> None:
    if state["phase"] == "over":
        return
    rng.shuffle(state["deck"])
    others = [s for s in state["seats"] if s != seat and not state["players"][s]["completed"]]
    hands = [state["players"][s]["objectives"] for s in others]
    _redeal(hands, rng, state.setdefault("undealt", []))


def nothing(state: State, seat: str, rng: random.Random) -> None:
    """A game that hides nothing (the test suite's toy game)."""


HIDE = {"conquest": conquest, "dual_powers": dual_powers, "duel": duel, "empire": empire, "toy": nothing}
