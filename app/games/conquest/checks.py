"""Validation of orders (spec 5.0-5.4, 7.3, 7.4): raise IllegalOrder in the player's terms."""

from __future__ import annotations

from typing import Any

from app.games.base import IllegalOrder
from app.games.conquest import data
from app.games.conquest.state import State, pool_total, tname, valid_set

TURN_ORDERS = {"TRADE", "PLACE", "END_MOBILISATION", "ATTACK", "ADVANCE", "END_OFFENSIVE", "MOVE", "END_TURN"}
SEAT_ORDERS = {"RESUME", "AUTO", "ABANDON", "TIMEOUT"}
PHASE_WORDS = {"MOBILISATION": "mobilisation", "OFFENSIVE": "offensive", "REGROUP": "regroup"}


def territory(value: Any) -> str:
    """A territory id from an id; E05 otherwise."""
    if not isinstance(value, str) or value not in data.NUMBER:
        raise IllegalOrder(f"Unknown territory or card '{value}'.")
    return value


def count(value: Any) -> int:
    """E08: a whole number of at least 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise IllegalOrder("Counts must be whole numbers of at least 1.")
    return value


def split_pair(value: Any) -> tuple[str, str]:
    """``"GER-POL"`` -> (GER, POL)."""
    if not isinstance(value, str) or value.count("-") != 1:
        raise IllegalOrder(f"Cannot read order: pair {value!r} should look like 'GER-POL'.")
    a, b = value.split("-")
    return territory(a), territory(b)


def mobilisation_exit(state: State, seat: str) -> None:
    """Leaving mobilisation needs a hand of 4 or fewer (E23) and empty pools (E27)."""
    if state["phase"] != "MOBILISATION":
        return
    k = len(state["hands"][seat])
    if k >= 5:
        raise IllegalOrder(f"You hold {k} cards; trade until you hold 4 or fewer.")
    if pool_total(state) > 0:
        g = state["pools"].get("G", 0)
        r = pool_total(state) - g
        raise IllegalOrder(f"Place your remaining {pool_total(state)} armies first ({g} general, {r} restricted).")


def _no_round1(state: State) -> None:
    if state["round"] == 1:
        raise IllegalOrder("Round 1 is placement only.")


def _no_pending(state: State) -> None:
    p = state["pending"]
    if p:
        raise IllegalOrder(f"First decide how many armies occupy {tname(p['to'])}: ADVANCE 1..{p['d']}.")


def _phase_is(state: State, kind: str, *phases: str) -> None:
    if state["phase"] not in phases or (state["pending"] and kind in ("TRADE", "PLACE", "END_MOBILISATION")):
        raise IllegalOrder(f"{kind} is not allowed in the {PHASE_WORDS[state['phase']]} phase.")


def placement(order: dict[str, Any]) -> dict[str, int]:
    """The territory -> count entries of a PLACE order (zeros dropped)."""
    out: dict[str, int] = {}
    for key, value in order.items():
        if key == "type":
            continue
        t = territory(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise IllegalOrder("Counts must be whole numbers of at least 1.")
        if value:
            out[t] = value
    if not out:
        raise IllegalOrder("Counts must be whole numbers of at least 1.")
    return out


def check_place(state: State, seat: str, order: dict[str, Any]) -> dict[str, int]:
    _phase_is(state, "PLACE", "MOBILISATION")
    where = placement(order)
    for t in where:
        if state["owner"][t] != seat:
            raise IllegalOrder(f"You do not control {tname(t)}.")
    k = len(state["hands"][seat])
    if k >= 5:
        raise IllegalOrder(f"You hold {k} cards; trade until you hold 4 or fewer.")
    pools = state["pools"]
    g = pools.get("G", 0)
    for t, n in where.items():
        h = data.THEATRE[t]
        r = pools.get(h, 0)
        if n > g + r:
            extra = f" + {r} {data.THEATRE_NAMES[h]}" if r else ""
            raise IllegalOrder(f"You can place at most {g + r} armies on {tname(t)} ({g} general{extra}).")
    per_theatre: dict[str, int] = {}
    for t, n in where.items():
        per_theatre[data.THEATRE[t]] = per_theatre.get(data.THEATRE[t], 0) + n
    need = sum(max(0, n - pools.get(h, 0)) for h, n in per_theatre.items())
    if need > g:
        raise IllegalOrder(
            f"These placements need {need} general armies but only {g} remain "
            "(theatre bonuses may only be placed in their own theatre)."
        )
    return where


def check_trade(state: State, seat: str, order: dict[str, Any]) -> None:
    _phase_is(state, "TRADE", "MOBILISATION")
    cards = order.get("cards")
    if not isinstance(cards, list) or len(cards) != 3:
        raise IllegalOrder("A trade needs three cards, e.g. TRADE c12 c30 c41.")
    for c in cards:
        if not isinstance(c, str) or c not in data.CARD_SYMBOL:
            raise IllegalOrder(f"Unknown territory or card '{c}'.")
    for c in cards:
        if c not in state["hands"][seat]:
            raise IllegalOrder(f"Card {c} is not in your hand.")
    if len(set(cards)) != 3:
        raise IllegalOrder("A trade needs three different cards.")
    if not valid_set(cards):
        raise IllegalOrder(f"{' '.join(cards)} is not a valid set: three alike, three different, or a joker.")
    if "bonus" in order:
        b = order["bonus"]
        pictured = [data.CARD_TERRITORY[c] for c in cards]
        if not isinstance(b, str) or b not in pictured or state["owner"].get(b) != seat:
            raise IllegalOrder("BONUS must be a territory you control shown on one of the traded cards.")
    extra = set(order) - {"type", "cards", "bonus"}
    if extra:
        raise IllegalOrder(f"Cannot read order: unexpected {sorted(extra)[0]}.")


def check_attack(state: State, seat: str, order: dict[str, Any]) -> None:
    _no_round1(state)
    if state["phase"] == "REGROUP":
        raise IllegalOrder("ATTACK is not allowed in the regroup phase.")
    _no_pending(state)
    mobilisation_exit(state, seat)
    a, b = split_pair(order.get("pair"))
    if state["owner"][a] != seat:
        raise IllegalOrder(f"You do not control {tname(a)}.")
    if state["owner"][b] == seat:
        raise IllegalOrder(f"{tname(b)} is yours; attack an enemy territory.")
    if b not in data.NEIGHBOURS[a]:
        raise IllegalOrder(f"{tname(a)} and {tname(b)} are not neighbours.")
    repeat, stop, adv = order.get("repeat", 1), order.get("stop", 2), order.get("advance", "ASK")
    bad = None
    if not (repeat == "CONQUER" or (type(repeat) is int and 1 <= repeat <= 99)):
        bad = f"REPEAT={repeat}"
    elif type(stop) is not int or stop < 2:
        bad = f"STOP={stop}"
    elif not (adv in ("ASK", "MAX") or (type(adv) is int and 1 <= adv <= 3)):
        bad = f"ADVANCE={adv}"
    extra = set(order) - {"type", "pair", "repeat", "stop", "advance"}
    if extra:
        bad = sorted(extra)[0]
    need = max(2, stop) if type(stop) is int else 2
    if state["armies"][a] < need:
        raise IllegalOrder(f"{tname(a)} needs at least {need} armies to attack (it has {state['armies'][a]}).")
    if bad:
        raise IllegalOrder(f"Bad option {bad}: REPEAT 1-99 or CONQUER, STOP >= 2, ADVANCE ASK, 1-3 or MAX.")


def check_move(state: State, seat: str, order: dict[str, Any]) -> None:
    _no_round1(state)
    _no_pending(state)
    mobilisation_exit(state, seat)
    n = count(order.get("count"))
    a, b = split_pair(order.get("pair"))
    if a == b:
        raise IllegalOrder("Origin and destination are the same.")
    if state["owner"][a] != seat or state["owner"][b] != seat:
        raise IllegalOrder(f"You must control both {tname(a)} and {tname(b)}.")
    if b not in data.NEIGHBOURS[a]:
        raise IllegalOrder(f"{tname(a)} and {tname(b)} are not neighbours.")
    if n > state["armies"][a] - 1:
        raise IllegalOrder(f"{tname(a)} must keep at least 1 army (you may move {state['armies'][a] - 1}).")
    left = state["moves_left"][a] if state["moves_left"] is not None else state["armies"][a]
    if n > left:
        raise IllegalOrder(
            f"Only {left} armies in {tname(a)} can still move this turn; "
            "armies that arrived by regrouping cannot move again."
        )


def check_turn_order(state: State, seat: str, order: dict[str, Any]) -> None:
    kind = order["type"]
    if kind == "TRADE":
        check_trade(state, seat, order)
    elif kind == "PLACE":
        check_place(state, seat, order)
    elif kind == "END_MOBILISATION":
        _phase_is(state, kind, "MOBILISATION")
        mobilisation_exit(state, seat)
    elif kind == "ATTACK":
        check_attack(state, seat, order)
    elif kind == "ADVANCE":
        _no_round1(state)
        p = state["pending"]
        if not p:
            raise IllegalOrder("There is no conquest waiting for an advance.")
        n = count(order.get("count"))
        if n > p["d"]:
            raise IllegalOrder(f"ADVANCE must be between 1 and {p['d']}.")
    elif kind == "END_OFFENSIVE":
        _no_round1(state)
        if state["phase"] == "REGROUP":
            raise IllegalOrder("END_OFFENSIVE is not allowed in the regroup phase.")
        _no_pending(state)
        mobilisation_exit(state, seat)
    elif kind == "MOVE":
        check_move(state, seat, order)
    elif kind == "END_TURN":
        _no_round1(state)
        _no_pending(state)
        mobilisation_exit(state, seat)


def _check_seat_status(state: State, seat: Any, kind: str) -> str:
    """E54, E52, E11 (spec 5.0, 7.3, 7.4); the seat's status otherwise."""
    if not isinstance(seat, str) or seat not in state["status"]:
        raise IllegalOrder(f"Unknown seat {seat!r}.")
    status = state["status"][seat]
    if status == "ELIMINATED":
        raise IllegalOrder("You are no longer in the game.")
    if status == "ABANDONED":
        if kind == "RESUME":
            raise IllegalOrder("You abandoned this game; command cannot be resumed.")
        raise IllegalOrder("You have abandoned this game.")
    return str(status)


def _check_resume_or_abandon(state: State, seat: str, order: dict[str, Any]) -> None:
    """RESUME_COMMAND (7.3: E51) and ABANDON CONFIRM (7.4: E53) of a seat still in the game."""
    if order["type"] == "ABANDON":
        if order.get("confirm") is not True:
            raise IllegalOrder("Send ABANDON CONFIRM to leave the game for good.")
        return
    if state["status"][seat] != "FULL_AUTO":
        raise IllegalOrder("Your seat is not under auto-command.")
    if seat in state.get("resuming", []):
        raise IllegalOrder("You have already resumed command; you take over at your next turn.")


def check_anytime(state: State, seat: Any, order: Any) -> None:
    """Seat orders sent at any time, on turn or not (spec 5.0): RESUME_COMMAND, ABANDON CONFIRM."""
    if state.get("result") is not None:
        raise IllegalOrder("The game is not in progress.")
    if not isinstance(order, dict) or order.get("type") not in ("RESUME", "ABANDON"):
        raise IllegalOrder("Only RESUME_COMMAND and ABANDON CONFIRM can be sent at any time.")
    _check_seat_status(state, seat, order["type"])
    if state["kind"][seat] != "human":
        raise IllegalOrder("The AI commands this seat.")
    _check_resume_or_abandon(state, seat, order)


def check(state: State, seat: Any, order: Any) -> None:
    """Raise IllegalOrder unless ``seat`` may give ``order`` now as the seat on turn."""
    if state.get("result") is not None:
        raise IllegalOrder("The game is not in progress.")
    if not isinstance(order, dict) or not isinstance(order.get("type"), str):
        raise IllegalOrder("Cannot read order: an order needs a type such as PLACE, ATTACK or END_TURN.")
    kind = order["type"]
    if kind not in TURN_ORDERS | SEAT_ORDERS:
        raise IllegalOrder(f"Cannot read order: unknown order {kind!r}.")
    status = _check_seat_status(state, seat, kind)
    if seat != state["current"] or state["kind"][seat] != "human":
        who = state["current"]
        raise IllegalOrder(f"It is not your turn; {who} ({state['colour'][who]}) is on turn.")
    if kind == "TIMEOUT":
        return
    if kind in ("RESUME", "ABANDON"):
        _check_resume_or_abandon(state, seat, order)
        return
    if kind == "AUTO":  # only owed by a full auto-command seat in states saved before D23 was followed
        if status != "FULL_AUTO":
            raise IllegalOrder("Your seat is not under auto-command.")
        return
    if status == "FULL_AUTO":
        raise IllegalOrder("Your seat is under auto-command; send RESUME_COMMAND.")
    check_turn_order(state, seat, order)
