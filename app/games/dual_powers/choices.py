"""Legal choices: what a seat may do now (random and default orders draw from these)."""

from __future__ import annotations

import copy
from itertools import combinations
from typing import Any

from app.games.base import State
from app.games.dual_powers import actions, data, position

Order = dict[str, Any]


def would_bonus(state: State, days: int) -> bool:
    n = state["day"] + days
    day = n - 31 if n > 31 else n
    return (31 if day in (29, 30) else day) in (15, 31)


def command_cards(hand: list[str]) -> list[str]:
    return [c for c in hand if data.CARDS[c]["kind"] == "command"]


def moves(state: State, seat: str) -> list[tuple[str, str]]:
    out = []
    for t in sorted(state["board"], key=data.TOKEN_ORDER.__getitem__):
        if position.controls(state, seat, t):
            out += [(t, r) for r in position.neighbours(state, state["board"][t]["region"])]
    return out


def doubles(state: State, seat: str) -> list[tuple[str, str | None, str]]:
    out: list[tuple[str, str | None, str]] = []
    for t, first in moves(state, seat):
        start = state["board"][t]["region"]
        out.append((t, None, first))
        out += [(t, first, second) for second in position.neighbours(state, first) if second != start]
    return out


def refreshable(state: State, seat: str) -> list[str]:
    return [t for t in sorted(state["board"], key=data.TOKEN_ORDER.__getitem__)
            if not state["board"][t]["fresh"] and position.controls(state, seat, t)]


def recruits(state: State, seat: str, value: int) -> list[list[str]]:
    units = [u for u in state["supply"][seat] if data.TOKENS[u]["kind"] == "unit"]
    out = []
    for size in range(1, value + 1):
        for combo in combinations(units, size):
            if sum(data.TOKENS[u]["recruit"] for u in combo) <= value:
                out.append(list(combo))
    return out


def bonuses(state: State, seat: str) -> list[Order]:
    """Every legal bonus action now, as order fields."""
    out: list[Order] = []
    for u in state["supply"][seat]:
        if data.TOKENS[u]["kind"] == "unit" and data.TOKENS[u]["recruit"] == 1:
            out += [{"bonus": "RECRUIT", "bonus_token": u, "bonus_to": r} for r in data.REGIONS]
    out += [{"bonus": "MOVE", "bonus_token": t, "bonus_to": r} for t, r in moves(state, seat)]
    out += [{"bonus": "REFRESH", "bonus_token": t} for t in refreshable(state, seat)]
    if position.can_draw(state):
        out.append({"bonus": "DRAW"})
    if state["solo"] and not state["revealed"].get(seat) and state["objectives"].get(seat):
        out.append({"bonus": "ORGANIZE"})
    return out


def clone(value: Any) -> Any:
    """A copy of a state (dicts, lists and plain values), faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def after_card(state: State, seat: str, card: str) -> State:
    """A scratch copy of ``state`` after ``card`` is played and the date advanced."""
    sim: State = clone(state)
    sim["hands"][seat].remove(card)
    sim["played"][seat].append(card)
    sim["bonus"] = position.advance_date(sim, data.CARDS[card]["days"], seat, [])
    return sim


def action_options(state: State, seat: str, card: str) -> list[list[Order]]:
    """Groups of order parts (one group per kind of action) for ``card`` after it is played."""
    sim = after_card(state, seat, card)
    info = data.CARDS[card]
    groups: list[list[Order]] = []
    if info["kind"] == "command":
        groups.append([{"action": "PASS"}])
        rec = recruits(sim, seat, info["recruit"])
        if rec:
            groups.append([{"action": "RECRUIT", "units": u} for u in rec])
        if info["action"] == "MOVE":
            opts = [{"action": "MOVE", "token": t, "to": r} for t, r in moves(sim, seat)]
        elif info["action"] == "DOUBLE":
            opts = [{"action": "DOUBLE", "token": t, "to": r, **({"via": v} if v else {})}
                    for t, v, r in doubles(sim, seat)]
        else:
            opts = [{"action": "REFRESH", "token": t} for t in refreshable(sim, seat)]
        if opts:
            groups.append(opts)
        return groups
    special = info["special"]
    leader: list[Order] = []
    for region in [None, *data.REGIONS]:
        base: Order = {"action": "LEADER", **({"region": region} if region else {})}
        leader.append({**base, "special": False, "special_first": False})
        for first in (False, True):
            if special == "MOBILIZE":
                blockade = state["blockade"]
                leader += [{**base, "special": True, "special_first": first, "connection": c}
                           for c in data.CONNECTIONS if c != blockade]
            else:
                leader.append({**base, "special": True, "special_first": first})
    groups.append(leader)
    if special == "ESPIONAGE":
        groups.append([{"action": "SPY_FIRST"}])
    return groups


def sim_play(state: State, seat: str, order: Order) -> State:
    sim: State = clone(state)
    no_bonus = {k: v for k, v in order.items() if not k.startswith("bonus")}
    actions.apply_play(sim, seat, no_bonus, None, [])
    return sim


def random_play(state: State, seat: str, rng: Any) -> Order:
    hand = state["hands"][seat]
    card = rng.choice(sorted(hand, key=data.CARD_ORDER.__getitem__))
    groups = action_options(state, seat, card)
    part = rng.choice(rng.choice(groups))
    order: Order = {"type": "PLAY", "card": card, **part}
    if order["action"] == "SPY_FIRST":
        return order
    sim = sim_play(state, seat, order)
    if sim["bonus"]:
        choice = rng.choice([None, *bonuses(sim, seat)])
        if choice:
            order.update(choice)
    return order


def random_place(state: State, seat: str, rng: Any) -> Order:
    region = rng.choice([None, *data.REGIONS])
    order: Order = {"type": "PLACE", **({"region": region} if region else {})}
    if state["bonus"]:
        sim = copy.deepcopy(state)
        actions.apply_place(sim, seat, order, None, [])
        choice = rng.choice([None, *bonuses(sim, seat)])
        if choice:
            order.update(choice)
    return order


def random_unrest(state: State, seat: str, rng: Any) -> Order:
    options: list[Order] = [{"type": "UNREST", "choice": "SCORE"}]
    options += [{"type": "UNREST", "choice": "BONUS", **b} for b in bonuses(state, seat)]
    return dict(rng.choice(options))


def default_objective(state: State, seat: str) -> Order:
    cards = command_cards(state["hands"][seat])
    best = min(cards, key=lambda c: (-data.CARDS[c]["vp"], data.CARDS[c]["days"], data.CARD_ORDER[c]))
    return {"type": "OBJECTIVE", "card": best}


def default_play(state: State, seat: str) -> Order:
    hand = state["hands"][seat]
    cards = command_cards(hand)
    if cards:
        card = min(cards, key=lambda c: (data.CARDS[c]["days"], data.CARDS[c]["vp"], data.CARD_ORDER[c]))
        return {"type": "PLAY", "card": card, "action": "PASS"}
    card = min(hand, key=lambda c: (data.CARDS[c]["days"], data.CARD_ORDER[c]))
    return {"type": "PLAY", "card": card, "action": "LEADER", "special": False, "special_first": False}
