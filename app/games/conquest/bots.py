"""Random legal orders for bots, fuzzing and the conformance test."""

from __future__ import annotations

from typing import Any

from app.games.conquest import data as D
from app.games.conquest.prompts import attack_pairs, move_pairs
from app.games.conquest.state import State, pool_total, territories_of, valid_sets


def _trade(state: State, seat: str, rng: Any) -> dict[str, Any]:
    cards = rng.choice(valid_sets(state["hands"][seat]))
    order: dict[str, Any] = {"type": "TRADE", "cards": list(cards)}
    owned = [D.CARD_TERRITORY[c] for c in cards if D.CARD_TERRITORY[c] and state["owner"][D.CARD_TERRITORY[c]] == seat]
    if owned and rng.random() < 0.5:
        order["bonus"] = rng.choice(owned)
    return order


def _place(state: State, seat: str, rng: Any) -> dict[str, Any]:
    mine = territories_of(state, seat)
    where: dict[str, int] = {}
    partial = rng.random() < 0.2
    for h, n in sorted(state["pools"].items()):
        if not n:
            continue
        spots = [t for t in mine if D.THEATRE[t] == h] if h != "G" else mine
        if partial:
            n = rng.randint(1, n)
        picks = [rng.choice(spots) for _ in range(rng.randint(1, 3))]
        for i in range(n):
            t = picks[i % len(picks)]
            where[t] = where.get(t, 0) + 1
        if partial:
            break
    return {"type": "PLACE", **where}


def _move(state: State, seat: str, rng: Any, pairs: list[list[str]]) -> dict[str, Any]:
    a, b = rng.choice(pairs)
    left = state["moves_left"][a] if state["moves_left"] is not None else state["armies"][a]
    top = min(left, state["armies"][a] - 1)
    return {"type": "MOVE", "pair": f"{a}-{b}", "count": rng.randint(1, top)}


def random_turn_order(state: State, seat: str, rng: Any) -> dict[str, Any]:
    """A random legal order; offensives end with some probability so games finish."""
    if state["status"][seat] == "FULL_AUTO":  # a state saved while such a seat owed its turn
        return {"type": "AUTO"}
    if rng.random() < 0.0005:
        return {"type": "ABANDON", "confirm": True}
    p = state["pending"]
    if p:
        return {"type": "ADVANCE", "count": rng.randint(1, p["d"])}
    phase = state["phase"]
    hand = state["hands"][seat]
    if phase == "MOBILISATION":
        if len(hand) >= 5:
            return _trade(state, seat, rng)
        if valid_sets(hand) and rng.random() < 0.4:
            return _trade(state, seat, rng)
        if pool_total(state) > 0:
            return _place(state, seat, rng)
    if phase != "REGROUP":
        pairs = attack_pairs(state, seat)
        r = rng.random()
        if pairs and r < 0.75:
            a, b = rng.choice(pairs)
            order: dict[str, Any] = {"type": "ATTACK", "pair": f"{a}-{b}"}
            if rng.random() < 0.15:
                order["repeat"] = "CONQUER"
                if rng.random() < 0.5:
                    order["stop"] = 2 + rng.randrange(2)
            if rng.random() < 0.15:
                order["advance"] = rng.choice(["MAX", 1, 2, 3])
            if state["armies"][a] < max(2, order.get("stop", 2)):
                order.pop("stop", None)
            return order
        if r < 0.9:
            return {"type": "END_OFFENSIVE"}
    mp = move_pairs(state, seat)
    if mp and rng.random() < 0.5:
        return _move(state, seat, rng, mp)
    return {"type": "END_TURN"}
