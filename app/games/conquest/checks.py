"""Validation of orders (spec 5.0-5.4, 7.3, 7.4): refusals are messages of ``text.py``."""

from __future__ import annotations

from typing import Any

from app.games.conquest import data
from app.games.conquest.state import State, label, pool_total, tname, valid_set
from app.games.conquest.text import TEXT
from app.games.text import name

TURN_ORDERS = {"TRADE", "PLACE", "END_MOBILISATION", "ATTACK", "ADVANCE", "END_OFFENSIVE", "MOVE", "END_TURN"}
SEAT_ORDERS = {"RESUME", "AUTO", "ABANDON", "TIMEOUT"}


def territory(value: Any) -> str:
    """A territory id from an id; E05 otherwise."""
    if not isinstance(value, str) or value not in data.NUMBER:
        raise TEXT.refuse("refuse.unknown_code", value=str(value))
    return value


def count(value: Any) -> int:
    """E08: a whole number of at least 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TEXT.refuse("refuse.count")
    return value


def split_pair(value: Any) -> tuple[str, str]:
    """``"GER-POL"`` -> (GER, POL)."""
    if not isinstance(value, str) or value.count("-") != 1:
        raise TEXT.refuse("refuse.bad_pair", value=repr(value))
    a, b = value.split("-")
    return territory(a), territory(b)


def mobilisation_exit(state: State, seat: str) -> None:
    """Leaving mobilisation needs a hand of 4 or fewer (E23) and empty pools (E27)."""
    if state["phase"] != "MOBILISATION":
        return
    k = len(state["hands"][seat])
    if k >= 5:
        raise TEXT.refuse("refuse.too_many_cards", n=k)
    if pool_total(state) > 0:
        g = state["pools"].get("G", 0)
        r = pool_total(state) - g
        raise TEXT.refuse("refuse.place_first", n=pool_total(state), g=g, r=r)


def _no_round1(state: State) -> None:
    if state["round"] == 1:
        raise TEXT.refuse("refuse.round1")


def _no_pending(state: State) -> None:
    p = state["pending"]
    if p:
        raise TEXT.refuse("refuse.pending", territory=tname(p["to"], "the"), d=p["d"])


def _phase_is(state: State, kind: str, *phases: str) -> None:
    if state["phase"] not in phases or (state["pending"] and kind in ("TRADE", "PLACE", "END_MOBILISATION")):
        raise TEXT.refuse(f"refuse.phase.{state['phase']}", order=kind)


def placement(order: dict[str, Any]) -> dict[str, int]:
    """The territory -> count entries of a PLACE order (zeros dropped)."""
    out: dict[str, int] = {}
    for key, value in order.items():
        if key == "type":
            continue
        t = territory(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TEXT.refuse("refuse.count")
        if value:
            out[t] = value
    if not out:
        raise TEXT.refuse("refuse.count")
    return out


def check_place(state: State, seat: str, order: dict[str, Any]) -> dict[str, int]:
    _phase_is(state, "PLACE", "MOBILISATION")
    where = placement(order)
    for t in where:
        if state["owner"][t] != seat:
            raise TEXT.refuse("refuse.not_yours", territory=tname(t, "the"))
    k = len(state["hands"][seat])
    if k >= 5:
        raise TEXT.refuse("refuse.too_many_cards", n=k)
    pools = state["pools"]
    g = pools.get("G", 0)
    for t, n in where.items():
        h = data.THEATRE[t]
        r = pools.get(h, 0)
        if n > g + r:
            if r:
                raise TEXT.refuse("refuse.place_max_theatre", n=g + r, territory=tname(t, "in"), g=g, r=r,
                                  theatre=name("theatre", h))
            raise TEXT.refuse("refuse.place_max", n=g, territory=tname(t, "in"), g=g)
    per_theatre: dict[str, int] = {}
    for t, n in where.items():
        per_theatre[data.THEATRE[t]] = per_theatre.get(data.THEATRE[t], 0) + n
    need = sum(max(0, n - pools.get(h, 0)) for h, n in per_theatre.items())
    if need > g:
        raise TEXT.refuse("refuse.need_general", need=need, g=g)
    return where


def check_trade(state: State, seat: str, order: dict[str, Any]) -> None:
    _phase_is(state, "TRADE", "MOBILISATION")
    cards = order.get("cards")
    if not isinstance(cards, list) or len(cards) != 3:
        raise TEXT.refuse("refuse.trade_three")
    for c in cards:
        if not isinstance(c, str) or c not in data.CARD_SYMBOL:
            raise TEXT.refuse("refuse.unknown_code", value=str(c))
    for c in cards:
        if c not in state["hands"][seat]:
            raise TEXT.refuse("refuse.not_in_hand", card=c)
    if len(set(cards)) != 3:
        raise TEXT.refuse("refuse.trade_different")
    if not valid_set(cards):
        raise TEXT.refuse("refuse.bad_set", cards=" ".join(cards))
    if "bonus" in order:
        b = order["bonus"]
        pictured = [data.CARD_TERRITORY[c] for c in cards]
        if not isinstance(b, str) or b not in pictured or state["owner"].get(b) != seat:
            raise TEXT.refuse("refuse.bonus")
    extra = set(order) - {"type", "cards", "bonus"}
    if extra:
        raise TEXT.refuse("refuse.unexpected", key=sorted(extra)[0])


def check_attack(state: State, seat: str, order: dict[str, Any]) -> None:
    _no_round1(state)
    if state["phase"] == "REGROUP":
        raise TEXT.refuse("refuse.phase.REGROUP", order="ATTACK")
    _no_pending(state)
    mobilisation_exit(state, seat)
    a, b = split_pair(order.get("pair"))
    if state["owner"][a] != seat:
        raise TEXT.refuse("refuse.not_yours", territory=tname(a, "the"))
    if state["owner"][b] == seat:
        raise TEXT.refuse("refuse.attack_own", territory=tname(b, "the"))
    if b not in data.NEIGHBOURS[a]:
        raise TEXT.refuse("refuse.not_neighbours", a=tname(a, "the"), b=tname(b, "the"))
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
        raise TEXT.refuse("refuse.attack_armies", territory=tname(a, "in"), need=need, have=state["armies"][a])
    if bad:
        raise TEXT.refuse("refuse.bad_option", option=bad)


def check_move(state: State, seat: str, order: dict[str, Any]) -> None:
    _no_round1(state)
    _no_pending(state)
    mobilisation_exit(state, seat)
    n = count(order.get("count"))
    a, b = split_pair(order.get("pair"))
    if a == b:
        raise TEXT.refuse("refuse.same")
    if state["owner"][a] != seat or state["owner"][b] != seat:
        raise TEXT.refuse("refuse.both", a=tname(a, "the"), b=tname(b, "the"))
    if b not in data.NEIGHBOURS[a]:
        raise TEXT.refuse("refuse.not_neighbours", a=tname(a, "the"), b=tname(b, "the"))
    if n > state["armies"][a] - 1:
        raise TEXT.refuse("refuse.keep_one", territory=tname(a, "in"), n=state["armies"][a] - 1)
    left = state["moves_left"][a] if state["moves_left"] is not None else state["armies"][a]
    if n > left:
        raise TEXT.refuse("refuse.moved", n=left, territory=tname(a, "in"))


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
            raise TEXT.refuse("refuse.no_pending")
        n = count(order.get("count"))
        if n > p["d"]:
            raise TEXT.refuse("refuse.advance_range", d=p["d"])
    elif kind == "END_OFFENSIVE":
        _no_round1(state)
        if state["phase"] == "REGROUP":
            raise TEXT.refuse("refuse.phase.REGROUP", order="END_OFFENSIVE")
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
        raise TEXT.refuse("refuse.unknown_seat", seat=repr(seat))
    status = state["status"][seat]
    if status == "ELIMINATED":
        raise TEXT.refuse("refuse.eliminated")
    if status == "ABANDONED":
        if kind == "RESUME":
            raise TEXT.refuse("refuse.abandoned_resume")
        raise TEXT.refuse("refuse.abandoned")
    return str(status)


def _check_resume_or_abandon(state: State, seat: str, order: dict[str, Any]) -> None:
    """RESUME_COMMAND (7.3: E51) and ABANDON CONFIRM (7.4: E53) of a seat still in the game."""
    if order["type"] == "ABANDON":
        if order.get("confirm") is not True:
            raise TEXT.refuse("refuse.confirm")
        return
    if state["status"][seat] != "FULL_AUTO":
        raise TEXT.refuse("refuse.not_auto")
    if seat in state.get("resuming", []):
        raise TEXT.refuse("refuse.already_resumed")


def check_anytime(state: State, seat: Any, order: Any) -> None:
    """Seat orders sent at any time, on turn or not (spec 5.0): RESUME_COMMAND, ABANDON CONFIRM."""
    if state.get("result") is not None:
        raise TEXT.refuse("refuse.not_in_progress")
    if not isinstance(order, dict) or order.get("type") not in ("RESUME", "ABANDON"):
        raise TEXT.refuse("refuse.anytime_only")
    _check_seat_status(state, seat, order["type"])
    if state["kind"][seat] != "human":
        raise TEXT.refuse("refuse.ai_seat")
    _check_resume_or_abandon(state, seat, order)


def check(state: State, seat: Any, order: Any) -> None:
    """Raise IllegalOrder unless ``seat`` may give ``order`` now as the seat on turn."""
    if state.get("result") is not None:
        raise TEXT.refuse("refuse.not_in_progress")
    if not isinstance(order, dict) or not isinstance(order.get("type"), str):
        raise TEXT.refuse("refuse.no_type")
    kind = order["type"]
    if kind not in TURN_ORDERS | SEAT_ORDERS:
        raise TEXT.refuse("refuse.unknown_order", order=repr(kind))
    status = _check_seat_status(state, seat, kind)
    if seat != state["current"] or state["kind"][seat] != "human":
        raise TEXT.refuse("refuse.not_your_turn", seat=label(state, state["current"]))
    if kind == "TIMEOUT":
        return
    if kind in ("RESUME", "ABANDON"):
        _check_resume_or_abandon(state, seat, order)
        return
    if kind == "AUTO":  # owed by a full auto-command seat whose turn waits for a resume (flow.waits_for_resume)
        if status != "FULL_AUTO":
            raise TEXT.refuse("refuse.not_auto")
        return
    if status == "FULL_AUTO":
        raise TEXT.refuse("refuse.under_auto")
    check_turn_order(state, seat, order)
