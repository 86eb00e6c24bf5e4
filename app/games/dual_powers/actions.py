"""Player orders applied to a state: PLAY, PLACE (Espionage second part), UNREST, OBJECTIVE.

Each ``apply_*`` mutates the state it is given and raises ``IllegalOrder`` at the
first step that is not allowed; ``validate`` runs them on a copy.  ``rng`` may be
None when only checking (then a draw from an empty deck is checked, not done).
"""

from __future__ import annotations

from typing import Any

from app.games.base import IllegalOrder, State
from app.games.dual_powers import data, position

Event = dict[str, Any]
Order = dict[str, Any]

ACTIONS = ("PASS", "RECRUIT", "MOVE", "DOUBLE", "REFRESH", "LEADER", "SPY_FIRST")
BONUSES = ("RECRUIT", "MOVE", "REFRESH", "DRAW", "ORGANIZE")


def _region(value: Any) -> str:
    if value not in data.REGIONS:
        raise IllegalOrder(f"There is no region {value!r} (regions: {', '.join(data.REGIONS)}).")
    return str(value)


def _card_in_hand(state: State, seat: str, card: Any) -> str:
    if not isinstance(card, str) or card not in data.CARDS:
        raise IllegalOrder(f"There is no card {card!r}.")
    if card not in state["hands"][seat]:
        raise IllegalOrder(f"{card} is not in your hand.")
    return card


def _only(order: Order, allowed: set[str]) -> None:
    extra = sorted(str(k) for k in order if k not in allowed)
    if extra:
        raise IllegalOrder(f"This order does not take {', '.join(extra)}.")


def apply_objective(state: State, seat: str, order: Order) -> None:
    _only(order, {"type", "card"})
    card = _card_in_hand(state, seat, order.get("card"))
    if data.CARDS[card]["kind"] != "command":
        raise IllegalOrder("Leader cards cannot be secret objectives.")
    state["hands"][seat].remove(card)
    state["objectives"][seat] = card
    state["revealed"][seat] = False


def _recruit(state: State, seat: str, units: Any, card: dict[str, Any], events: list[Event]) -> None:
    if not isinstance(units, list) or not units:
        raise IllegalOrder("Recruit needs at least one unit.")
    seen: set[str] = set()
    total = 0
    for u in units:
        if not isinstance(u, str) or u not in state["supply"][seat] or data.TOKENS[u]["kind"] != "unit":
            raise IllegalOrder(f"Unit {u!r} is not in your supply.")
        if u in seen:
            raise IllegalOrder(f"Unit {u} is listed twice.")
        seen.add(u)
        total += data.TOKENS[u]["recruit"]
    if total > card["recruit"]:
        raise IllegalOrder(f"Total recruit value {total} exceeds the card's {card['recruit']}.")
    for u in units:
        state["supply"][seat].remove(u)
        state["board"][u] = {"region": card["region"], "fresh": True}
    events.append({"text": f"{seat} recruits {', '.join(units)} in {position.rname(card['region'])}.",
                   "to": None})


def _move(state: State, seat: str, token: Any, path: list[Any], events: list[Event]) -> None:
    t = position.check_controlled(state, seat, token)
    start = here = state["board"][t]["region"]
    for step in path:
        position.check_step(state, here, step)
        here = step
    if here == start:
        raise IllegalOrder("A double move must end in a different region.")
    state["board"][t]["region"] = here
    events.append({"text": f"{seat} moves {position.tname(t)} from {position.rname(start)} to {position.rname(here)}.",
                   "to": None})


def _refresh(state: State, seat: str, token: Any, events: list[Event]) -> None:
    t = position.check_controlled(state, seat, token)
    if state["board"][t]["fresh"]:
        raise IllegalOrder(f"{position.tname(t)} is already fresh.")
    state["board"][t]["fresh"] = True
    events.append({"text": f"{seat} refreshes {position.tname(t)}.", "to": None})


def reveal_objective(state: State, side: str, events: list[Event], why: str) -> None:
    card = state["objectives"].get(side)
    if card is None or state["revealed"].get(side):
        return
    state["revealed"][side] = True
    events.append({"text": f"{side}'s secret objective is revealed ({why}): {data.card_label(card)}.",
                   "to": None})


def apply_bonus(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> None:
    kind = order.get("bonus")
    if kind is None:
        return
    if kind not in BONUSES:
        raise IllegalOrder(f"There is no bonus action {kind!r} (bonus actions: {', '.join(BONUSES)}).")
    token, to = order.get("bonus_token"), order.get("bonus_to")
    if kind == "RECRUIT":
        if not isinstance(token, str) or token not in state["supply"][seat] \
                or data.TOKENS[token]["kind"] != "unit":
            raise IllegalOrder(f"Unit {token!r} is not in your supply.")
        if data.TOKENS[token]["recruit"] != 1:
            raise IllegalOrder("Bonus Recruit takes a unit of recruit value 1.")
        region = _region(to)
        state["supply"][seat].remove(token)
        state["board"][token] = {"region": region, "fresh": True}
        events.append({"text": f"{seat} bonus-recruits {token} in {position.rname(region)}.", "to": None})
    elif kind == "MOVE":
        _move(state, seat, token, [_region(to)], events)
    elif kind == "REFRESH":
        _refresh(state, seat, token, events)
    elif kind == "DRAW":
        if not position.can_draw(state):
            raise IllegalOrder("Deck and discard pile are empty: there is nothing to draw.")
        card = position.draw(state, rng, events)
        if card is not None:
            state["hands"][seat].append(card)
            events.append({"text": f"You draw {data.card_label(card)}.", "to": [seat]})
        events.append({"text": f"{seat} draws a card as a bonus action.", "to": None})
    elif kind == "ORGANIZE":
        if not state["solo"]:
            raise IllegalOrder("Organize is a bonus action of the solo game only.")
        if state["revealed"].get(seat):
            raise IllegalOrder("Your objective is already revealed.")
        reveal_objective(state, seat, events, "Organize")


def _bonus_fields(order: Order) -> set[str]:
    return {"bonus", "bonus_token", "bonus_to"} if order.get("bonus") is not None else set()


def _check_bonus(state: State, order: Order) -> None:
    if order.get("bonus") is not None and not state["bonus"]:
        raise IllegalOrder("You are not entitled to a bonus action (the day marker must end on 15 or 31).")


def _leader_recruit(state: State, seat: str, card: str, region: Any, events: list[Event]) -> None:
    region = _region(region)
    if card not in state["supply"][seat]:
        raise IllegalOrder(f"{data.CARDS[card]['name']} is not in your supply.")
    state["supply"][seat].remove(card)
    state["board"][card] = {"region": region, "fresh": True}
    events.append({"text": f"{seat} recruits {data.CARDS[card]['name']} in {position.rname(region)}.", "to": None})
    if data.LEADER_RECRUIT_REFRESHES_NEUTRALS and state["wotp"] == seat:
        for t in position.tokens_in(state, region):
            if data.TOKENS[t]["kind"] == "neutral" and t != "T-NEU" and not state["board"][t]["fresh"]:
                state["board"][t]["fresh"] = True
                events.append({"text": f"{t} is refreshed by the leader's arrival.", "to": None})


def _special(state: State, seat: str, card: str, order: Order, events: list[Event]) -> None:
    special = data.CARDS[card]["special"]
    if special == "MOBILIZE":
        conn = order.get("connection")
        if not isinstance(conn, str) or conn not in data.CONNECTIONS:
            raise IllegalOrder(f"Mobilize Protest needs a connection ({', '.join(data.CONNECTIONS)}).")
        if conn == state["blockade"]:
            raise IllegalOrder("The blockade must move to a different connection.")
        state["blockade"] = conn
        events.append({"text": f"{seat} mobilizes a protest: the blockade moves to "
                               f"{data.CONNECTION_NAMES[conn]} ({conn}).", "to": None})
    elif special == "ESPIONAGE":
        target = seat if state["solo"] else position.opponent(state, seat)
        if state["objectives"].get(target) is None:
            events.append({"text": f"{seat} uses Espionage, but there is no objective to reveal.",
                           "to": None})
        reveal_objective(state, target, events, "Espionage")
    else:
        if state["wotp"] != seat:
            state["wotp"] = seat
        events.append({"text": f"{seat} inspires the people and takes the Will of the People.",
                       "to": None})


def apply_play(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> None:
    card = _card_in_hand(state, seat, order.get("card"))
    info = data.CARDS[card]
    action = order.get("action")
    if action not in ACTIONS:
        raise IllegalOrder(f"There is no action {action!r} (actions: {', '.join(ACTIONS)}).")
    if info["kind"] == "command":
        if action not in ("PASS", "RECRUIT", info["action"]):
            raise IllegalOrder(f"{card} allows Recruit or {data.ACTION_NAMES[info['action']]} only.")
    elif action not in ("PASS", "LEADER", "SPY_FIRST") or (
            action == "SPY_FIRST" and info["special"] != "ESPIONAGE"):
        raise IllegalOrder(f"{card} allows Leader Recruit and {data.SPECIAL_NAMES[info['special']]} only.")
    fields = {"PASS": set(), "RECRUIT": {"units"}, "MOVE": {"token", "to"},
              "DOUBLE": {"token", "to", "via"}, "REFRESH": {"token"},
              "LEADER": {"region", "special", "special_first", "connection"}, "SPY_FIRST": set()}[action]
    _only(order, {"type", "card", "action"} | fields | _bonus_fields(order))
    # 1 play the card, 2 advance the date
    state["hands"][seat].remove(card)
    state["played"][seat].append(card)
    events.append({"text": f"{seat} plays {data.card_label(card)}.", "to": None})
    state["bonus"] = position.advance_date(state, info["days"], seat, events)
    when = f"Day {state['day']} of {data.MONTHS[state['month']]}"
    events.append({"text": when + (": a bonus action is due." if state["bonus"] else "."), "to": None})
    # 3 action
    if action == "RECRUIT":
        _recruit(state, seat, order.get("units"), info, events)
    elif action == "MOVE":
        _move(state, seat, order.get("token"), [_region(order.get("to"))], events)
    elif action == "DOUBLE":
        path = [order["via"]] if order.get("via") is not None else []
        _move(state, seat, order.get("token"), [_region(p) for p in path + [order.get("to")]], events)
    elif action == "REFRESH":
        _refresh(state, seat, order.get("token"), events)
    elif action == "LEADER":
        special, first = order.get("special", False), order.get("special_first", False)
        if not isinstance(special, bool) or not isinstance(first, bool):
            raise IllegalOrder("'special' and 'special_first' are yes/no choices.")
        if order.get("connection") is not None and not (special and info["special"] == "MOBILIZE"):
            raise IllegalOrder("Only Mobilize Protest takes a connection.")
        if special and first:
            _special(state, seat, card, order, events)
        if order.get("region") is not None:
            _leader_recruit(state, seat, card, order.get("region"), events)
        if special and not first:
            _special(state, seat, card, order, events)
    elif action == "SPY_FIRST":
        if order.get("bonus") is not None:
            raise IllegalOrder("With Espionage first, the bonus action comes with the leader's placement.")
        _special(state, seat, card, order, events)
        state["phase"] = "part2"
        state["pending"] = card
        return
    # 4 bonus
    _check_bonus(state, order)
    apply_bonus(state, seat, order, rng, events)


def apply_place(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> None:
    _only(order, {"type", "region"} | _bonus_fields(order))
    if order.get("region") is not None:
        _leader_recruit(state, seat, state["pending"], order.get("region"), events)
    _check_bonus(state, order)
    apply_bonus(state, seat, order, rng, events)
    state["pending"] = None
    state["phase"] = "action"


def apply_unrest(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> bool:
    """Returns True if the SCORE choice ended the game."""
    choice = order.get("choice")
    if choice == "SCORE":
        _only(order, {"type", "choice"})
        vp = data.UNREST_VP[state["month"]]
        return position.move_gain(state, seat, vp, events, f"unrest in {position.rname(state['tiles']['unrest'])}")
    if choice != "BONUS":
        raise IllegalOrder("Choose SCORE or BONUS for the unrest region.")
    _only(order, {"type", "choice"} | _bonus_fields(order))
    if order.get("bonus") is None:
        raise IllegalOrder("Name the bonus action to take instead of scoring.")
    apply_bonus(state, seat, order, rng, events)
    return False
