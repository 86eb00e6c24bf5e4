"""Game state, setup, the reveal step and turn resolution (rules spec §4, §5).

State (plain JSON)::

    {"seats": ["RED", "BLUE"], "options": {...}, "turn": 7,
     "land_stack": [...], "box": [3 ids], "task_stack": [...],
     "piles": {"FOR": ["FOR-5", ...], ..., "DBL": ["DBL-6", ...]},
     "current": {"tile": "T05", "marker": "GRA-4"} | {"tile": "L17", "marker": None} | None,
     "passing": [seats with no legal placement this turn],
     "areas": {seat: {"cells": {"q,r": {"tile", "rot", "turn"}},
                      "active": [{"marker", "cell"}], "completed": [...],
                      "cancelled": [...], "passed": [tile ids],
                      "boxed_markers": [...], "auto_run": 0}},
     "last": {seat: {...last placement...}}, "over": False, "forfeited": []}

Stack order and the boxed tiles are in the state but never in a view until
the game is over (§8).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from app.games.base import Event, IllegalOrder
from app.games.duel import data
from app.games.duel.geometry import cell_key
from app.games.duel.notation import read_order
from app.games.duel.placement import (
    PlacementError,
    any_legal,
    automatic_placement,
    check_placement,
    evaluate,
    grid_of,
    score,
)
from app.games.duel.text import TEXT, marker, seat_name, tile_name
from app.games.text import listing, msg

SEATS = ["RED", "BLUE"]


def new_area() -> dict[str, Any]:
    """An empty player area (§4.7)."""
    return {
        "cells": {},
        "active": [],
        "completed": [],
        "cancelled": [],
        "passed": [],
        "boxed_markers": [],
        "finished": [],
        "auto_run": 0,
    }


def setup(options: dict[str, Any], seats: list[str], rng: random.Random) -> tuple[dict[str, Any], list[Event]]:
    """Shuffle the stacks and piles and reveal turn 1 (§4)."""
    land = sorted(data.LANDSCAPE)
    rng.shuffle(land)
    tasks = sorted(data.TASKS)
    rng.shuffle(tasks)
    piles: dict[str, list[str]] = {}
    for code in data.TASK_TYPES:
        pile = data.marker_ids(code)
        if code != "DBL":
            rng.shuffle(pile)
        piles[code] = pile
    state: dict[str, Any] = {
        "seats": list(seats),
        "options": dict(options),
        "turn": 1,
        "box": land[: data.BOXED],
        "land_stack": land[data.BOXED :],
        "task_stack": tasks,
        "piles": piles,
        "current": None,
        "passing": [],
        "areas": {s: new_area() for s in seats},
        "last": {},
        "over": False,
        "forfeited": [],
    }
    events: list[Event] = []
    start_turn(state, events)
    return state, events


def active_counts(state: dict[str, Any]) -> dict[str, int]:
    return {s: len(state["areas"][s]["active"]) for s in state["seats"]}


def reveal(state: dict[str, Any]) -> dict[str, Any] | None:
    """The reveal step of §5.1: set ``current`` and return it, or None (game ends).

    Mutates ``state``.
    """
    counts = active_counts(state)
    if min(counts.values()) < data.ACTIVE_TARGET and state["task_stack"]:
        tile = state["task_stack"].pop(0)
        kind = data.TASKS[tile][2]
        marker_id = state["piles"][kind].pop(0)
        state["current"] = {"tile": tile, "marker": marker_id}
    elif state["land_stack"]:
        state["current"] = {"tile": state["land_stack"].pop(0), "marker": None}
    else:
        state["current"] = None
    current: dict[str, Any] | None = state["current"]
    return current


def _apply_pass(state: dict[str, Any], seat: str, events: list[Event]) -> None:
    area = state["areas"][seat]
    cur = state["current"]
    area["passed"].append(cur["tile"])
    args: dict[str, Any] = {"turn": state["turn"], "seat": seat_name(seat), "tile": tile_name(cur["tile"])}
    if cur["marker"]:
        area["boxed_markers"].append(cur["marker"])
        text = msg("event.pass_marker", **args, marker=marker(cur["marker"]))
    else:
        text = msg("event.pass", **args)
    state["last"][seat] = {"pass": True, "tile": cur["tile"], "turn": state["turn"]}
    events.append({"text": text, "to": None})


def start_turn(state: dict[str, Any], events: list[Event]) -> None:
    """Reveal tiles until a seat owes a placement or the game ends (mutates ``state``).

    Seats without a legal placement pass at once (§5.7); if every seat must
    pass, the turn resolves by itself and the next tile is revealed.
    """
    while True:
        cur = reveal(state)
        if cur is None:
            finish(state, events)
            return
        if cur["marker"]:
            text = msg("event.reveal_marker", turn=state["turn"], tile=tile_name(cur["tile"]),
                       marker=marker(cur["marker"]))
        else:
            text = msg("event.reveal", turn=state["turn"], tile=tile_name(cur["tile"]))
        events.append({"text": text, "to": None})
        state["passing"] = [
            s for s in state["seats"] if any_legal(grid_of(state["areas"][s]), cur["tile"], cur["marker"]) is None
        ]
        if len(state["passing"]) < len(state["seats"]):
            return
        for seat in state["seats"]:
            _apply_pass(state, seat, events)
        state["passing"] = []
        state["turn"] += 1


def finish(state: dict[str, Any], events: list[Event]) -> None:
    """End the game: nobody owes anything any more (mutates ``state``)."""
    state["over"] = True
    state["current"] = None
    state["passing"] = []
    state["final"] = {s: score(state["areas"][s]) for s in state["seats"]}
    scores = listing(msg("seat_number", seat=seat_name(s), n=state["final"][s]["total"]) for s in state["seats"])
    events.append({"text": msg("event.over", scores=scores), "to": None})


def check_order(state: dict[str, Any], seat: str, order: Any) -> dict[str, Any]:
    """Validate an order for ``seat`` (checks 1-14 of §5.3 that the engine owns).

    Check 3 (an order already accepted this turn) belongs to the platform,
    which keeps sealed orders outside the state.

    :returns: the order read as ``{"type", "tile", "q", "r", "rotation"}``.
    :raises IllegalOrder: with a message in the player's terms.
    """
    if state.get("over"):
        raise TEXT.refuse("refuse.over")
    if seat not in state["seats"]:
        raise TEXT.refuse("refuse.not_a_seat", seat=repr(seat))
    cur = state["current"]
    if seat in state["passing"]:
        raise TEXT.refuse("refuse.passing", tile=tile_name(cur["tile"]))
    read = read_order(order)
    turn = read.get("turn")
    if turn is not None and turn != state["turn"]:
        raise PlacementError("E_TURN_CLOSED", "refuse.turn_closed", turn=turn, open=state["turn"])
    area = state["areas"][seat]
    if read["type"] == "PASS":
        found = any_legal(grid_of(area), cur["tile"], cur["marker"])
        if found is None:
            raise PlacementError("E_PASS_NOT_ALLOWED", "refuse.pass_not_allowed")
        (q, r), k = found
        raise PlacementError(
            "E_PASS_NOT_ALLOWED", "refuse.pass_not_allowed_example", tile=tile_name(cur["tile"]), q=q, r=r, rot=k
        )
    if read["tile"] != cur["tile"]:
        raise PlacementError("E_WRONG_TILE", "refuse.wrong_tile", given=read["tile"][:12],
                             tile=tile_name(cur["tile"]), code=cur["tile"])
    rot = read["rotation"]
    if rot is None or not 0 <= rot <= 5:
        raise PlacementError("E_BAD_ROTATION", "refuse.bad_rotation")
    q, r = read["q"], read["r"]
    if q is None or r is None or not (-99 <= q <= 99 and -99 <= r <= 99):
        raise PlacementError("E_BAD_COORD", "refuse.bad_coord")
    check_placement(grid_of(area), cur["tile"], cur["marker"], (q, r), rot)
    return read


def place(state: dict[str, Any], seat: str, q: int, r: int, rot: int, auto: bool, events: list[Event]) -> None:
    """Put this turn's tile (and its marker) into ``seat``'s area (mutates)."""
    cur = state["current"]
    area = state["areas"][seat]
    key = cell_key((q, r))
    area["cells"][key] = {"tile": cur["tile"], "rot": rot, "turn": state["turn"]}
    if cur["marker"]:
        area["active"].append({"marker": cur["marker"], "cell": key})
    state["last"][seat] = {"tile": cur["tile"], "cell": key, "rot": rot, "auto": auto, "turn": state["turn"]}
    text = msg(
        "event.place_auto" if auto else "event.place",
        turn=state["turn"], seat=seat_name(seat), tile=tile_name(cur["tile"]), q=q, r=r, rot=rot,
    )
    events.append({"text": text, "to": None})


def resolve(state: dict[str, Any], orders: dict[str, Any], forfeit_after: int) -> tuple[dict[str, Any], list[Event]]:
    """Apply both placements, evaluate every task, then reveal the next tile (§5.4)."""
    state = copy.deepcopy(state)
    events: list[Event] = []
    if state.get("over"):
        return state, events
    cur = state["current"]
    for seat in state["seats"]:
        area = state["areas"][seat]
        if seat in state["passing"]:
            _apply_pass(state, seat, events)
            continue
        order = orders.get(seat)
        auto = bool(isinstance(order, dict) and order.get("auto"))
        try:
            read = check_order(state, seat, order)
            cell, rot = (read["q"], read["r"]), read["rotation"]
        except IllegalOrder:
            # A missing or unusable order is replaced by the automatic placement.
            found = automatic_placement(area, cur["tile"], cur["marker"])
            assert found is not None  # seats without a legal placement are in "passing"
            cell, rot = found
            auto = True
        place(state, seat, cell[0], cell[1], rot, auto, events)
        area["auto_run"] = area["auto_run"] + 1 if auto else 0
    state["passing"] = []
    for seat in state["seats"]:
        area = state["areas"][seat]
        done, cancelled = evaluate(area, grid_of(area))
        for e in done:
            text = msg("event.completed", seat=seat_name(seat), marker=marker(e["marker"]), cell=e["cell"])
            events.append({"text": text, "to": None})
        for e in cancelled:
            text = msg("event.cancelled", seat=seat_name(seat), marker=marker(e["marker"]), cell=e["cell"])
            events.append({"text": text, "to": None})
    counts = active_counts(state)
    text = msg(
        "event.status",
        counts=listing(msg("seat_number", seat=seat_name(s), n=counts[s]) for s in state["seats"]),
        land=msg("count.landscape", n=len(state["land_stack"])),
        task=msg("count.task", n=len(state["task_stack"])),
    )
    events.append({"text": text, "to": None})
    if forfeit_after > 0:
        out = [s for s in state["seats"] if state["areas"][s]["auto_run"] >= forfeit_after]
        if out:
            state["forfeited"] = out
            for s in out:
                text = msg("event.forfeit", seat=seat_name(s), n=forfeit_after)
                events.append({"text": text, "to": None})
            finish(state, events)
            return state, events
    state["turn"] += 1
    start_turn(state, events)
    return state, events
