"""A simple greedy bot: better than random, cheap enough for benchmarks."""

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


def best_order(state: dict[str, Any], seat: str, rng: random.Random) -> dict[str, Any]:
    """The placement with the best greedy value (ties broken by ``rng``)."""
    cur = state["current"]
    area = state["areas"][seat]
    grid = grid_of(area)
    options = legal_placements(grid, cur["tile"], cur["marker"])
    if not options:
        return {"type": "PASS"}
    scored = [(_value(area, grid, c, cur["tile"], k, cur["marker"]), rng.random(), c, k) for c, k in options]
    _, _, cell, rot = max(scored)
    return {"type": "PLACE", "tile": cur["tile"], "position": cell_key(cell), "rotation": rot}
