"""A greedy bot: it tries every legal placement of the tile drawn and keeps the best.

It decides from the seat's view only (its own area and the tile drawn).  A placement is
worth what it does on the scoring pad, by these rules of thumb:

- *settle tasks*: a task completed is worth twice its value, one cancelled costs its value;
- *grow tasks toward their number*: an active task whose territory grows without passing
  its number gains a little;
- *close flagged territories*: a territory closed now scores each flag in it, its size;
  a flagged territory that grows while open is promising;
- *lengthen rails and rivers*: an edge of rail or river joined to one already placed;
- *match the edges*: matching terrain on touching edges keeps territories open for later.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.duel.geometry import FACES, TILES, Grid, cell_key, component_segments, key_cell, neighbour
from app.games.duel.placement import grid_of, legal_placements, measure

#: Weights of the rules of thumb (points a placement is expected to bring later).
PROGRESS = 0.5
FLAG_GROWTH = 0.2
NETWORK = 1.5


def _value(area: dict[str, Any], grid: Grid, cell: tuple[int, int], tile: str, rot: int, marker: str | None) -> float:
    after = dict(grid)
    after[cell] = (tile, rot)
    return (settle_tasks(area, grid, after, cell, marker) + close_flagged_territories(after, cell)
            + lengthen_networks(after, cell) + match_edges(after, cell))


def settle_tasks(area: dict[str, Any], grid: Grid, after: Grid, cell: tuple[int, int], marker: str | None) -> float:
    gain = 0.0
    tasks = [(key_cell(e["cell"]), e["marker"]) for e in area["active"]]
    if marker:
        tasks.append((cell, marker))
    for c, m in tasks:
        v = int(m.rsplit("-", 1)[1])
        now = measure(after, c, m)
        if now["status"] == "done":
            gain += 2 * v
        elif now["status"] == "cancelled":
            gain -= v
        elif "n" in now:  # grow tasks toward their number
            before = measure(grid, c, m)["n"] if c in grid else 0
            gain += PROGRESS * (now["n"] - before)
    return gain


def close_flagged_territories(after: Grid, cell: tuple[int, int]) -> float:
    gain = 0.0
    face = FACES[after[cell][0]][after[cell][1]]
    for seg, terrain in enumerate(face.seg_terrain):
        if terrain not in "FGV":
            continue
        pairs, closed = component_segments(after, cell, seg)
        flags = sum(1 for c, s in pairs if TILES[after[c][0]].flag == s)
        size = len({c for c, _ in pairs})
        gain += flags * (size if closed else FLAG_GROWTH * size)
    return gain


def lengthen_networks(after: Grid, cell: tuple[int, int]) -> float:
    gain = 0.0
    facing = FACES[after[cell][0]][after[cell][1]].facing
    for d in range(6):
        other = after.get(neighbour(cell, d))
        if facing[d] in "RW" and other is not None and FACES[other[0]][other[1]].facing[(d + 3) % 6] == facing[d]:
            gain += NETWORK
    return gain


def match_edges(after: Grid, cell: tuple[int, int]) -> float:
    gain = 0.0
    facing = FACES[after[cell][0]][after[cell][1]].facing
    for d in range(6):
        other = after.get(neighbour(cell, d))
        if other is None:
            continue
        theirs = FACES[other[0]][other[1]].facing[(d + 3) % 6]
        gain += 1.0 if theirs == facing[d] else -0.5
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
