"""Dispatch of orders and the automatic play between human decisions."""

from __future__ import annotations

from typing import Any

from app.games.conquest import bot, checks, engine, views
from app.games.conquest.state import State, is_robot, label, pool_total, under_auto_command
from app.games.text import msg

#: Safety net: an AI turn never needs more orders than this.
MAX_AI_ORDERS = 2000


def apply_turn_order(
    state: State, seat: str, order: dict[str, Any], rng: Any, events: engine.Events, by: str = "player"
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
        engine.do_trade(state, seat, list(order["cards"]), order.get("bonus"), events)
    elif kind == "PLACE":
        engine.do_place(state, seat, checks.placement(order), events)
        if state["round"] == 1 and state["result"] is None and pool_total(state) == 0:
            engine.end_turn(state, rng, events, own=own, timed_out=timed_out)
    elif kind == "END_MOBILISATION":
        state["phase"] = "OFFENSIVE"
    elif kind == "ATTACK":
        state["phase"] = "OFFENSIVE"
        engine.do_attack(state, seat, order, rng, events)
    elif kind == "ADVANCE":
        p = state["pending"]
        engine.do_advance(state, seat, p["from"], p["to"], order["count"], events)
    elif kind == "END_OFFENSIVE":
        engine.enter_regroup(state, seat)
    elif kind == "MOVE":
        if state["phase"] != "REGROUP":
            engine.enter_regroup(state, seat)
        a, b = order["pair"].split("-")
        engine.do_move(state, seat, a, b, order["count"], events)
    elif kind == "END_TURN":
        engine.end_turn(state, rng, events, own=own, timed_out=timed_out)


def play_ai_turn(state: State, seat: str, rng: Any, events: engine.Events, full: bool) -> None:
    """Let the AI finish ``seat``'s current turn; full mode attacks and regroups.

    The light mode (a missed deadline) trades, places, settles a pending advance
    at 1 and ends the turn, counting the miss.
    """
    serial = state["serial"]
    by = "ai" if full else "timeout"
    for _ in range(MAX_AI_ORDERS):
        if state["result"] is not None or state["serial"] != serial:
            return
        order = bot.view_order(views.view(state, seat), full=full)
        checks.check_turn_order(state, seat, order)
        apply_turn_order(state, seat, order, rng, events, by=by)
    raise RuntimeError("the AI did not finish its turn")


def full_auto_turn(state: State, seat: str, rng: Any, events: engine.Events) -> None:
    """Full auto-command plays the seat's whole turn, attacks included (spec 7.3, D23)."""
    engine.say(events, msg("event.auto_plays", seat=label(state, seat)))
    play_ai_turn(state, seat, rng, events, full=True)


def timeout(state: State, seat: str, rng: Any, events: engine.Events) -> None:
    """A missed deadline (spec 5.1-5.4 'Missed deadline', 7.2)."""
    if state["status"][seat] == "FULL_AUTO":  # its turn waited for a resume (waits_for_resume)
        full_auto_turn(state, seat, rng, events)
        return
    engine.say(events, msg("event.missed_deadline", seat=label(state, seat)))
    play_ai_turn(state, seat, rng, events, full=False)


def settle(state: State, rng: Any, events: engine.Events) -> None:
    """Play AI, abandoned and full auto-command seats until a human owes a decision or the game is over."""
    while state["result"] is None and is_robot(state, state["current"]):
        seat = state["current"]
        if waits_for_resume(state, seat):
            return
        if state["status"][seat] == "FULL_AUTO":
            full_auto_turn(state, seat, rng, events)
        else:
            play_ai_turn(state, seat, rng, events, full=True)


def waits_for_resume(state: State, seat: str) -> bool:
    """A full auto-command human's turn waits for its deadline when no human in field is in
    command: nobody else's turn would give him time to resume command (seed 11), so the turn
    is owed ("let auto-command play this turn") and its deadline lets auto-command play it."""
    return state["kind"][seat] == "human" and state["status"][seat] == "FULL_AUTO" and under_auto_command(state)


def apply_seat_order(state: State, seat: str, order: dict[str, Any], rng: Any, events: engine.Events) -> None:
    """RESUME_COMMAND or ABANDON CONFIRM, validated, from a seat on turn or not (spec 7.3, 7.4)."""
    if order["type"] == "RESUME":
        # status ACTIVE and counter 0 from the seat's next turn start (engine.start_turn)
        state.setdefault("resuming", []).append(seat)
        engine.say(events, msg("event.resumes", seat=label(state, seat)))
        if state["current"] == seat:  # a state saved while such a seat owed its turn: the AI plays it now
            full_auto_turn(state, seat, rng, events)
        return
    state["status"][seat] = "ABANDONED"
    if seat in state.get("resuming", []):
        state["resuming"].remove(seat)
    engine.say(
        events,
        msg("event.abandons", seat=label(state, seat)),
        slot_released=seat,
    )
    engine.check_absence(state, events)
    if state["result"] is None and state["current"] == seat:
        play_ai_turn(state, seat, rng, events, full=True)


def apply(state: State, seat: str, order: dict[str, Any], rng: Any, events: engine.Events) -> None:
    """Resolve one validated order of the seat on turn, then the automatic play that follows."""
    kind = order["type"]
    if kind == "TIMEOUT":
        timeout(state, seat, rng, events)
    elif kind == "AUTO":  # a full auto-command seat whose turn waited for a resume (waits_for_resume)
        full_auto_turn(state, seat, rng, events)
    elif kind in ("RESUME", "ABANDON"):
        apply_seat_order(state, seat, order, rng, events)
    else:
        apply_turn_order(state, seat, order, rng, events)
    settle(state, rng, events)
