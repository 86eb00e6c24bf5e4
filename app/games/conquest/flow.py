"""Dispatch of orders and the automatic play between human decisions."""

from __future__ import annotations

from typing import Any

from app.games.conquest import ai, checks
from app.games.conquest import engine as E
from app.games.conquest.state import State, is_robot, label, pool_total

#: Safety net: an AI turn never needs more orders than this.
MAX_AI_ORDERS = 2000


def apply_turn_order(
    state: State, seat: str, order: dict[str, Any], rng: Any, events: E.Events, by: str = "player"
) -> None:
    """Resolve one validated turn order (implicit phase closures of spec 5.0).

    ``by`` is "player" (the seat's own order), "ai" (auto-command or AI seat) or
    "timeout" (the light auto-command of a missed deadline).
    """
    kind = order["type"]
    if by == "player" and state["kind"][seat] == "human":
        state["human_acted"] = True
    own, timed_out = by == "player", by == "timeout"
    if kind == "TRADE":
        E.do_trade(state, seat, list(order["cards"]), order.get("bonus"), events)
    elif kind == "PLACE":
        E.do_place(state, seat, checks.placement(order), events)
        if state["round"] == 1 and state["result"] is None and pool_total(state) == 0:
            E.end_turn(state, rng, events, own=own, timed_out=timed_out)
    elif kind == "END_MOBILISATION":
        state["phase"] = "OFFENSIVE"
    elif kind == "ATTACK":
        state["phase"] = "OFFENSIVE"
        E.do_attack(state, seat, order, rng, events)
    elif kind == "ADVANCE":
        p = state["pending"]
        E.do_advance(state, seat, p["from"], p["to"], order["count"], events)
    elif kind == "END_OFFENSIVE":
        E.enter_regroup(state, seat)
    elif kind == "MOVE":
        if state["phase"] != "REGROUP":
            E.enter_regroup(state, seat)
        a, b = order["pair"].split("-")
        E.do_move(state, seat, a, b, order["count"], events)
    elif kind == "END_TURN":
        E.end_turn(state, rng, events, own=own, timed_out=timed_out)


def play_ai_turn(state: State, seat: str, rng: Any, events: E.Events, full: bool) -> None:
    """Let the AI finish ``seat``'s current turn; full mode attacks and regroups.

    The light mode (a missed deadline) trades, places, settles a pending advance
    at 1 and ends the turn, counting the miss.
    """
    serial = state["serial"]
    by = "ai" if full else "timeout"
    for _ in range(MAX_AI_ORDERS):
        if state["result"] is not None or state["serial"] != serial:
            return
        order = ai.next_order(state, seat, full=full)
        checks.check_turn_order(state, seat, order)
        apply_turn_order(state, seat, order, rng, events, by=by)
    raise RuntimeError("the AI did not finish its turn")


def timeout(state: State, seat: str, rng: Any, events: E.Events) -> None:
    """A missed deadline (spec 5.1-5.4 'Missed deadline', 7.2)."""
    if state["status"][seat] == "FULL_AUTO":
        E.say(events, f"Auto-command plays the turn of {label(state, seat)}.")
        play_ai_turn(state, seat, rng, events, full=True)
        return
    E.say(events, f"{label(state, seat)} missed the deadline; auto-command finishes the turn.")
    play_ai_turn(state, seat, rng, events, full=False)


def settle(state: State, rng: Any, events: E.Events) -> None:
    """Play AI and abandoned seats until a human owes a decision or the game is over."""
    while state["result"] is None and is_robot(state, state["current"]):
        play_ai_turn(state, state["current"], rng, events, full=True)


def apply(state: State, seat: str, order: dict[str, Any], rng: Any, events: E.Events) -> None:
    """Resolve one validated order of the seat on turn, then the automatic play that follows."""
    kind = order["type"]
    if kind == "TIMEOUT":
        timeout(state, seat, rng, events)
    elif kind == "AUTO":
        E.say(events, f"Auto-command plays the turn of {label(state, seat)}.")
        play_ai_turn(state, seat, rng, events, full=True)
    elif kind == "RESUME":
        state["status"][seat] = "ACTIVE"
        state["timeouts"][seat] = 0
        E.say(events, f"{label(state, seat)} resumes command.")
    elif kind == "ABANDON":
        state["status"][seat] = "ABANDONED"
        E.say(
            events,
            f"{label(state, seat)} abandons the game; the AI plays the seat from now on.",
            slot_released=seat,
        )
        E.check_absence(state, events)
        if state["result"] is None and state["current"] == seat:
            play_ai_turn(state, seat, rng, events, full=True)
    else:
        apply_turn_order(state, seat, order, rng, events)
    settle(state, rng, events)
