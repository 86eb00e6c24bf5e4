"""A greedy bot: tries the legal orders of this step and keeps the one whose board looks best.

The board is judged by who has greater strength where VP are at stake this round
(the unrest region, the known objectives and, in solo, the region the Opposition's row
of cards points at), plus the score and the Will of the People.  Its rules of thumb:

- *stake what is scored*: strength counts where VP are at stake (``stakes``);
- *read the Opposition's row* (solo): its objective follows from the cards it has played
  (``opposition_objective``), so that region is at stake too;
- *look before you place*: an unseen objective of its own is worth revealing (Espionage
  first, then the leader goes where the objective is; or the Organize bonus);
- *a card in hand is an action later*: Bonus Draw is worth a card while rounds remain;
- *the unrest bonus when it swings a region*: after unrest, a bonus that wins an objective
  region may be worth more than the unrest VP.

It reasons on ``seen(view)``, the game rebuilt from its seat's view, so it never counts a
card it may not see.  Pure and deterministic given the view and the rng.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from app.games.base import IllegalOrder, State
from app.games.dual_powers import actions, choices, data, position, solo
from app.games.dual_powers.seen import UNSEEN

Order = dict[str, Any]

MAX_PER_CARD = 40
#: Dice of a simulated step (a reshuffle of stand-in cards): fixed, so nothing hidden leaks in.
SIM_RNG = random.Random(0)


#: What seeing one's own objective is worth before the leader is placed (solo).
REVEAL_VALUE = 2.0
#: Weight of a region where nothing is at stake, and the share of next round's unrest VP
#: that counts now in the region where it will be (*prepare next round's unrest*).
IDLE_WEIGHT = 0.2
#: A lead is worth keeping: the Opposition still places tokens after the last own turn.
MARGIN = 0.25
NEXT_UNREST_SHARE = 0.5
#: Espionage first is worth more than Espionage with the leader placed blind (solo).
LOOK_FIRST = 1.0
#: A unit kept in supply can be recruited later where it counts (*keep units for where they
#: count*), so a card may be played for its days alone (Pass).
UNIT_COST = 0.3
#: What one more card in hand is worth while rounds remain.
CARD_VALUE = 1.0


def last_round(state: State) -> int:
    return 3 if state["solo"] else data.LAST_MONTH + 1


def opposition_objective(state: State) -> str | None:
    """Solo: the card the Opposition's row points at so far (its objective algorithm)."""
    if not state["solo"]:
        return None
    return solo.opp_objective(state["played"].get("OPP", []))


def stakes(state: State, side: str) -> dict[str, float]:
    """VP at stake this round, by region: unrest, the objectives this side may know of."""
    other = position.opponent(state, side)
    out: dict[str, float] = {state["tiles"]["unrest"]: float(data.UNREST_VP[state["month"]])}
    for who in (side, other):
        card = state["objectives"].get(who)
        if who in state.get(UNSEEN, []):  # a stand-in: the bot does not know that card
            continue
        if card is not None and (who == side and not state["solo"] or state["revealed"].get(who)):
            region = data.CARDS[card]["region"]
            out[region] = out.get(region, 0.0) + data.CARDS[card]["vp"]
    if state["round"] < last_round(state):  # next round's unrest region: the blockade tile moves there
        nxt = state["tiles"]["blockade"]
        out[nxt] = out.get(nxt, 0.0) + NEXT_UNREST_SHARE * data.UNREST_VP[min(state["month"] + 1, data.LAST_MONTH)]
    opp = opposition_objective(state)
    if opp and not state["objectives"].get("OPP"):
        region = data.CARDS[opp]["region"]
        out[region] = out.get(region, 0.0) + data.CARDS[opp]["vp"]
    return out


def expected_opposition(state: State) -> dict[str, float]:
    """Solo: the strength the Opposition's cards still to come this round are expected to add
    in each region (*expect its next cards*): each lands in the region of an unseen card, with
    that card's recruit value as its level."""
    if not state["solo"] or state["phase"] not in ("action", "part2"):
        return {}
    pool = [c for c in state["deck"] + state["opp_pile"] if data.CARDS[c]["kind"] == "command"]
    if not pool:
        return {}
    coming = len(state["opp_pile"])
    out: dict[str, float] = {}
    for c in pool:
        info = data.CARDS[c]
        out[info["region"]] = out.get(info["region"], 0.0) + coming * info["recruit"] / len(pool)
    return out


def evaluate(state: State, side: str) -> float:
    """How good ``state`` looks for ``side`` (higher is better)."""
    other = position.opponent(state, side)
    at_stake = stakes(state, side)
    coming = expected_opposition(state)
    score = 2.0 * position.sign(state, side) * state["s"]
    for region in data.REGIONS:
        mine = position.strength(state, side, region)[0]
        theirs = position.strength(state, other, region)[0] + coming.get(region, 0.0)
        weight = at_stake.get(region, IDLE_WEIGHT)
        winner = position.greater(state, region)
        if coming:
            winner = side if mine > theirs + 0.5 else other if theirs > mine + 0.5 else winner
        score += weight * (1 if winner == side else -1 if winner == other else 0)
        score += MARGIN * weight * max(-4, min(4, mine - theirs))
    if state["wotp"] == side:
        score += 0.5
    if state["solo"] and side in state.get(UNSEEN, []) and state["revealed"].get(side):
        score += REVEAL_VALUE  # look before you place
    score += UNIT_COST * sum(1 for u in state["supply"].get(side, []) if data.TOKENS[u]["kind"] == "unit")
    if state["round"] < last_round(state):
        score += CARD_VALUE * len(state["hands"].get(side, []))
    return float(score)


def _try(state: State, seat: str, order: Order) -> State | None:
    sim = copy.deepcopy(state)
    try:
        if order["type"] == "PLAY":
            actions.apply_play(sim, seat, order, SIM_RNG, [])
        elif order["type"] == "PLACE":
            actions.apply_place(sim, seat, order, SIM_RNG, [])
        else:
            actions.apply_unrest(sim, seat, order, SIM_RNG, [])
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
        key = (value_of(sim, seat, order), rng.random())
        if best is None or key > best:
            best, chosen = key, order
    return chosen


def value_of(sim: State, seat: str, order: Order) -> float:
    """The board after ``order``; after Espionage first, after the best placement that follows,
    which is made knowing the objective (worth ``LOOK_FIRST`` more when it was unseen)."""
    if order.get("action") != "SPY_FIRST":
        return evaluate(sim, seat)
    after = [_try(sim, seat, p) for p in _places()]
    look = LOOK_FIRST if sim["solo"] and seat in sim.get(UNSEEN, []) else 0.0
    return max(evaluate(a, seat) for a in after if a is not None) + look


def _places() -> list[Order]:
    return [{"type": "PLACE", **({"region": r} if r else {})} for r in [None, *data.REGIONS]]


def _with_bonus(state: State, seat: str, order: Order, rng: Any) -> Order:
    sim = _try(state, seat, order)
    if sim is None or not sim["bonus"] or order.get("action") == "SPY_FIRST":
        return order
    options = [{**order, **b} for b in choices.bonuses(sim, seat)]
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
        return unrest_choice(state, seat, rng)
    if phase == "part2":
        places = _places()
        return _with_bonus(state, seat, _best(state, seat, places, rng) or places[0], rng)
    candidates: list[Order] = []
    for card in sorted(state["hands"][seat], key=data.CARD_ORDER.__getitem__):
        parts = [p for group in choices.action_options(state, seat, card) for p in group]
        if len(parts) > MAX_PER_CARD:
            parts = rng.sample(parts, MAX_PER_CARD)
        # Cheap cards keep the calendar slow; expensive ones are weighed by what they do.
        candidates += [{"type": "PLAY", "card": card, **p} for p in parts]
    chosen = _best(state, seat, candidates, rng) or choices.default_play(state, seat)
    return _with_bonus(state, seat, chosen, rng)


def unrest_choice(state: State, seat: str, rng: Any) -> Order:
    """SCORE the unrest VP, unless a bonus is worth more (it may win a region scored next)."""
    options = [{"type": "UNREST", "choice": "SCORE"}]
    options += [{"type": "UNREST", "choice": "BONUS", **b} for b in choices.bonuses(state, seat)
                if b["bonus"] != "ORGANIZE"]
    return _best(state, seat, options, rng) or options[0]
