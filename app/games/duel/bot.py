"""A simple greedy bot: better than random, cheap enough for benchmarks.

It decides from the seat's view only (its own area and the tile drawn)."""

from __future__ import annotations

import random
from typing import Any

from app.games.duel.geometry import FACES, Grid, cell_key, key_cell, neighbour
from app.games.duel.placement import grid_of, legal_placements, measure


def _value(area: dict[str, Any], grid: Grid, cell: tuple[int, int], tile: str, rot: int, marker: str | None) -> float:
    after = dict(grid)
    after[cell] = (tile, rot)
    gain = 0.0
    tasks = [(key_cell(e["cell"]), e["marker"]) for e in area["active"]]
    if marker:
        tasks.append((cell, marker))
    for c, m in tasks:
        v = int(m.rsplit("-", 1)[1])
        status = measure(after, c, m)["status"]
        if status == "done":
            gain += 2 * v
        elif status == "cancelled":
            gain -= v
    facing = FACES[tile][rot].facing
    for d in range(6):
        other = after.get(neighbour(cell, d))
        if other is None:
            continue
        theirs = FACES[other[0]][other[1]].facing[(d + 3) % 6]
        if theirs == facing[d]:
            gain += 1.5 if theirs in "RW" else 1.0
        else:
            gain -= 0.5
    return gain


def area_of(view: dict[str, Any]) -> dict[str, Any]:
    """The viewing seat's area rebuilt from its view (cells and active tasks)."""
    mine = view["areas"][view["seat"]]
    return {
        "cells": {cell_key((c["q"], c["r"])): {"tile": c["tile"], "rot": c["rot"]} for c in mine["cells"]},
        "active": [{"cell": e["cell"], "marker": e["marker"]} for e in mine["active"]],
    }


def best_order(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The placement with the best greedy value (ties broken by ``rng``), seen from ``view``."""
    cur = view["current"]
    area = area_of(view)
    grid = grid_of(area)
    options = legal_placements(grid, cur["tile"], cur["marker"])
    if not options:
        return {"type": "PASS"}
    scored = [(_value(area, grid, c, cur["tile"], k, cur["marker"]), rng.random(), c, k) for c, k in options]
    _, _, cell, rot = max(scored)
    return {"type": "PLACE", "tile": cur["tile"], "position": cell_key(cell), "rotation": rot}
