"""A greedy bot: tries the legal orders of this step and keeps the one whose board looks best.

The board is judged by who has greater strength where VP are at stake this round
(the unrest region and the known objectives), plus the score and the Will of the
People.  It reasons on ``seen(view)``, the game rebuilt from its seat's view, so it
never counts a card it may not see.  Pure and deterministic given the view and the rng.
"""

from __future__ import annotations

import copy
from typing import Any

from app.games.base import IllegalOrder, State
from app.games.dual_powers import actions, choices, data, position
from app.games.dual_powers.seen import UNSEEN

Order = dict[str, Any]

MAX_PER_CARD = 40


def evaluate(state: State, side: str) -> float:
    """How good ``state`` looks for ``side`` (higher is better)."""
    other = position.opponent(state, side)
    stakes: dict[str, float] = {state["tiles"]["unrest"]: float(data.UNREST_VP[state["month"]])}
    for who in (side, other):
        card = state["objectives"].get(who)
        if who in state.get(UNSEEN, []):  # a stand-in: the bot does not know that card
            continue
        if card is not None and (who == side and not state["solo"] or state["revealed"].get(who)):
            region = data.CARDS[card]["region"]
            stakes[region] = stakes.get(region, 0.0) + data.CARDS[card]["vp"]
    score = 2.0 * position.sign(state, side) * state["s"]
    for region in data.REGIONS:
        mine = position.strength(state, side, region)[0]
        theirs = position.strength(state, other, region)[0]
        weight = stakes.get(region, 0.5)
        winner = position.greater(state, region)
        score += weight * (1 if winner == side else -1 if winner == other else 0)
        score += 0.05 * weight * (mine - theirs)
    if state["wotp"] == side:
        score += 0.5
    return float(score)


def _try(state: State, seat: str, order: Order) -> State | None:
    sim = copy.deepcopy(state)
    try:
        if order["type"] == "PLAY":
            actions.apply_play(sim, seat, order, None, [])
        elif order["type"] == "PLACE":
            actions.apply_place(sim, seat, order, None, [])
        else:
            actions.apply_unrest(sim, seat, order, None, [])
    except IllegalOrder:
        return None
    return sim


def _best(state: State, seat: str, candidates: list[Order], rng: Any) -> Order | None:
    best: tuple[float, float] | None = None
    chosen = None
    for order in candidates:
        sim = _try(state, seat, order)
        if sim is None:
            continue
        key = (evaluate(sim, seat), rng.random())
        if best is None or key > best:
            best, chosen = key, order
    return chosen


def _with_bonus(state: State, seat: str, order: Order, rng: Any) -> Order:
    sim = _try(state, seat, order)
    if sim is None or not sim["bonus"] or order.get("action") == "SPY_FIRST":
        return order
    options = [{**order, **b} for b in choices.bonuses(sim, seat) if b["bonus"] != "DRAW"]
    better = _best(state, seat, [order, *options], rng)
    return better or order


def best_order(state: State, seat: str, rng: Any) -> Order:
    """The greedy choice for ``seat`` in ``state``: a state rebuilt from its view (``seen``)."""
    phase = state["phase"]
    if phase == "objective":
        def appeal(card: str) -> tuple[float, float]:
            region = data.CARDS[card]["region"]
            mine = position.strength(state, seat, region)[0] + 1
            theirs = position.strength(state, position.opponent(state, seat), region)[0]
            return data.CARDS[card]["vp"] * (1 if mine > theirs else 0.5), rng.random()
        return {"type": "OBJECTIVE", "card": max(choices.command_cards(state["hands"][seat]), key=appeal)}
    if phase == "unrest":
        return {"type": "UNREST", "choice": "SCORE"}
    if phase == "part2":
        places = [{"type": "PLACE", **({"region": r} if r else {})} for r in [None, *data.REGIONS]]
        return _with_bonus(state, seat, _best(state, seat, places, rng) or places[0], rng)
    candidates: list[Order] = []
    for card in sorted(state["hands"][seat], key=data.CARD_ORDER.__getitem__):
        parts = [p for group in choices.action_options(state, seat, card) for p in group]
        if len(parts) > MAX_PER_CARD:
            parts = rng.sample(parts, MAX_PER_CARD)
        # Cheap cards keep the calendar slow; expensive ones are weighed by what they do.
        candidates += [{"type": "PLAY", "card": card, **p} for p in parts if p["action"] != "SPY_FIRST"]
    chosen = _best(state, seat, candidates, rng) or choices.default_play(state, seat)
    return _with_bonus(state, seat, chosen, rng)
