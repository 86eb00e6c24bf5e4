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

In solo the greedy judgement only shortlists: the best few orders are played out to the
round's scoring over deals of the unseen cards (``bot_solo``), so the Opposition's turns
still to come, the month changes and its objective are counted as they fall.

It reasons on ``seen(view)``, the game rebuilt from its seat's view, so it never counts a
card it may not see.  Pure and deterministic given the view and the rng.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.base import IllegalOrder, State
from app.games.dual_powers import actions, bot_solo, choices, data, position, solo
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
            if who == side and state["solo"]:
                for region, vp in unseen_objective(state).items():
                    out[region] = out.get(region, 0.0) + vp
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


def unseen_objective(state: State) -> dict[str, float]:
    """Solo: one's own unseen objective is one of the cards one has not seen
    (*an unseen objective is anywhere*): its expected VP in each region."""
    pool = unseen_cards(state)
    out: dict[str, float] = {}
    for c in pool:
        out[data.CARDS[c]["region"]] = out.get(data.CARDS[c]["region"], 0.0) + data.CARDS[c]["vp"] / len(pool)
    return out


def unseen_cards(state: State) -> list[str]:
    """The command cards this seat has not seen: the deck, the Opposition's pile, its unseen objective."""
    pool = state["deck"] + state["opp_pile"] + [c for s in state.get(UNSEEN, []) if (c := state["objectives"].get(s))]
    return [c for c in pool if data.CARDS[c]["kind"] == "command"]


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
    if state["round"] < last_round(state):
        score += UNIT_COST * sum(1 for u in state["supply"].get(side, []) if data.TOKENS[u]["kind"] == "unit")
        score += CARD_VALUE * len(state["hands"].get(side, []))
    return float(score)


def _try(state: State, seat: str, order: Order) -> State | None:
    sim: State = choices.clone(state)
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


def _ranked(state: State, seat: str, candidates: list[Order], rng: Any) -> list[tuple[float, Order]]:
    """The legal ``candidates`` with their greedy value, best first (ties broken by the dice)."""
    keyed = []
    for order in candidates:
        sim = _try(state, seat, order)
        if sim is not None:
            keyed.append((value_of(sim, seat, order), rng.random(), order))
    keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
    return [(v, o) for v, _, o in keyed]


def _best(state: State, seat: str, candidates: list[Order], rng: Any) -> Order | None:
    ranked = _ranked(state, seat, candidates, rng)
    return ranked[0][1] if ranked else None


def _decide(state: State, seat: str, candidates: list[Order], rng: Any) -> Order | None:
    """The greedy choice with its best bonus; solo: the greedy shortlist, each with its best
    bonus and the bonuses that pay later (Draw, Organize), played out to the round's scoring."""
    ranked = _ranked(state, seat, candidates, rng)
    if not ranked:
        return None
    if not state["solo"]:
        return _with_bonus(state, seat, ranked[0][1], rng)
    shortlist: list[tuple[float, Order]] = []
    for value, order in ranked[:bot_solo.SHORTLIST]:
        shortlist.append((value, _with_bonus(state, seat, order, rng)))
        shortlist += [(value, {**order, **b}) for b in _later_bonuses(state, seat, order)]
    return bot_solo.look_ahead(state, seat, shortlist, rng, evaluate)


def _later_bonuses(state: State, seat: str, order: Order) -> list[Order]:
    """The bonuses whose worth a look at the board does not show: Draw and Organize."""
    sim = _try(state, seat, order)
    if sim is None or not sim["bonus"] or order.get("action") == "SPY_FIRST":
        return []
    return [b for b in choices.bonuses(sim, seat) if b["bonus"] in ("DRAW", "ORGANIZE")]


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
        return _decide(state, seat, _places(), rng) or _places()[0]
    candidates: list[Order] = []
    for card in sorted(state["hands"][seat], key=data.CARD_ORDER.__getitem__):
        parts = [p for group in choices.action_options(state, seat, card) for p in group]
        if len(parts) > MAX_PER_CARD:
            parts = rng.sample(parts, MAX_PER_CARD)
        # Cheap cards keep the calendar slow; expensive ones are weighed by what they do.
        candidates += [{"type": "PLAY", "card": card, **p} for p in parts]
    return _decide(state, seat, candidates, rng) or choices.default_play(state, seat)


def unrest_choice(state: State, seat: str, rng: Any) -> Order:
    """SCORE the unrest VP, unless a bonus is worth more (it may win a region scored next)."""
    options = [{"type": "UNREST", "choice": "SCORE"}]
    options += [{"type": "UNREST", "choice": "BONUS", **b} for b in choices.bonuses(state, seat)
                if b["bonus"] != "ORGANIZE"]
    if state["solo"]:
        ranked = _ranked(state, seat, options, rng)
        return bot_solo.look_ahead(state, seat, ranked[:bot_solo.SHORTLIST], rng, evaluate) if ranked else options[0]
    return _best(state, seat, options, rng) or options[0]
