"""Placement legality, task completion and scoring (rules spec §5.3, §6, §7)."""

from __future__ import annotations

from typing import Any

from app.games.base import IllegalOrder
from app.games.duel import data
from app.games.duel.geometry import (
    DIR_NAMES,
    FACES,
    TILES,
    Cell,
    Grid,
    component,
    dist,
    frontier,
    key_cell,
    largest_network,
    occupied_neighbours,
)
from app.games.duel.text import TEXT, tile_name
from app.games.text import listing, msg, name


class PlacementError(IllegalOrder):
    """An illegal placement; ``code`` is the spec's error code (E_...), the message is
    ``TEXT``'s ``msg_id`` with its parameters."""

    def __init__(self, code: str, msg_id: str, /, **args: Any) -> None:
        # The English is rendered only when read: the legality scan raises thousands of these.
        super().__init__(msg_id, msg(msg_id, **args))
        self.code = code

    def __str__(self) -> str:
        return TEXT.english(self.msg)


def grid_of(area: dict[str, Any]) -> Grid:
    """The grid ``{(q, r): (tile, rot)}`` of a player's area."""
    return {key_cell(k): (v["tile"], v["rot"]) for k, v in area["cells"].items()}


def measure(grid: Grid, cell: Cell, marker: str) -> dict[str, Any]:
    """Measure the task on ``cell`` carrying ``marker`` (§6).

    :returns: ``{"status": "done"|"cancelled"|"active", ...}`` with the sizes
        measured (``n``/``closed`` for single tasks, ``c`` for Connection,
        ``halves`` for Doubles).
    """
    tid, rot = grid[cell]
    tile = TILES[tid]
    v = data.marker_value(marker)
    kind = tile.task
    if kind == "CON":
        c = occupied_neighbours(grid, cell)
        return {"status": "done" if c == v else "active", "c": c, "v": v}
    if kind == "DBL":
        halves = []
        for seg in tile.task_segments:
            cells, closed = component(grid, cell, seg)
            n = len(cells)
            terrain = FACES[tid][rot].seg_terrain[seg]
            halves.append({"terrain": terrain, "n": n, "closed": closed, "dead": n > 6 or (closed and n < 6)})
        if any(h["n"] == 6 for h in halves):
            status = "done"
        elif all(h["dead"] for h in halves):
            status = "cancelled"
        else:
            status = "active"
        return {"status": status, "halves": halves, "v": 6}
    seg = tile.task_segments[0]
    cells, closed = component(grid, cell, seg)
    n = len(cells)
    if n == v:
        status = "done"
    elif n > v or (closed and n < v):
        status = "cancelled"
    else:
        status = "active"
    return {"status": status, "n": n, "closed": closed, "v": v}


def check_placement(grid: Grid, tile_id: str, marker: str | None, cell: Cell, rot: int) -> None:
    """Run checks 6-13 of §5.3 for placing ``tile_id`` on ``cell`` at ``rot``.

    :raises PlacementError: the first failing check, in the spec's order.
    """
    q, r = cell
    if not grid:
        if cell != (0, 0):
            raise PlacementError("E_FIRST_NOT_ORIGIN", "refuse.first_not_origin")
    else:
        if cell in grid:
            raise PlacementError("E_OCCUPIED", "refuse.occupied", q=q, r=r, tile=tile_name(grid[cell][0]))
    facing = FACES[tile_id][rot].facing
    touching = False
    for d in range(6):
        n = (q + (0, 1, 1, 0, -1, -1)[d], r + (-1, -1, 0, 1, 1, 0)[d])
        other = grid.get(n)
        if other is None:
            continue
        touching = True
        theirs = FACES[other[0]][other[1]].facing[(d + 3) % 6]
        mine = facing[d]
        for line, code, msg_id in (("R", "E_RAIL_MISMATCH", "refuse.rail_mismatch"),
                                   ("W", "E_RIVER_MISMATCH", "refuse.river_mismatch")):
            if (mine == line) != (theirs == line):
                raise PlacementError(
                    code, msg_id,
                    mine_dir=name("dir", DIR_NAMES[d]), mine=name("terrain", mine),
                    their_dir=name("dir", DIR_NAMES[(d + 3) % 6]), tile=tile_name(other[0]), q=n[0], r=n[1],
                    theirs=name("terrain", theirs),
                )
    if grid and not touching:
        raise PlacementError("E_NOT_ADJACENT", "refuse.not_adjacent", q=q, r=r)
    tile = TILES[tile_id]
    if not tile.is_task or marker is None:
        return
    after = dict(grid)
    after[cell] = (tile_id, rot)
    m = measure(after, cell, marker)
    task = name("task", tile.task or "")
    v = data.marker_value(marker)
    if tile.task == "CON":
        if m["c"] > v:
            raise PlacementError("E_TASK_OVERSIZE", "refuse.connection_oversize", task=task, n=m["c"], v=v)
    elif tile.task == "DBL":
        if all(h["dead"] for h in m["halves"]):
            parts = listing(
                msg("half_closed" if h["closed"] else "half", terrain=name("terrain", h["terrain"]), n=h["n"])
                for h in m["halves"]
            )
            raise PlacementError("E_DOUBLE_DEAD", "refuse.double_dead", parts=parts)
    else:
        terrain = data.TASK_TERRAIN[tile.task or ""]
        if m["n"] > v:
            raise PlacementError("E_TASK_OVERSIZE", "refuse.task_oversize", task=task, n=m["n"], v=v)
        if m["closed"] and m["n"] < v:
            raise PlacementError(
                "E_TASK_CLOSED_SMALL", "refuse.task_closed_small",
                what=name("network", terrain), task=task, n=m["n"], v=v,
            )


def is_legal(grid: Grid, tile_id: str, marker: str | None, cell: Cell, rot: int) -> bool:
    """Whether the placement passes every check of §5.3."""
    try:
        check_placement(grid, tile_id, marker, cell, rot)
    except PlacementError:
        return False
    return True


def legal_placements(grid: Grid, tile_id: str, marker: str | None) -> list[tuple[Cell, int]]:
    """Every legal (cell, rotation), cells in §5.6 order, rotations 0..5."""
    return [(c, k) for c in frontier(grid) for k in range(6) if is_legal(grid, tile_id, marker, c, k)]


def any_legal(grid: Grid, tile_id: str, marker: str | None) -> tuple[Cell, int] | None:
    """The first legal placement in §5.6 order, or None."""
    for c in frontier(grid):
        for k in range(6):
            if is_legal(grid, tile_id, marker, c, k):
                return c, k
    return None


def evaluate(area: dict[str, Any], grid: Grid) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Measure every active marker of an area (§5.4 step 2) and move finished ones.

    Mutates ``area`` (the caller owns a copy).

    :returns: (completed, cancelled) as lists of ``{"marker", "cell"}``.
    """
    done, cancelled, still = [], [], []
    for entry in area["active"]:
        m = measure(grid, key_cell(entry["cell"]), entry["marker"])
        if m["status"] == "done":
            done.append(entry)
            area["completed"].append(entry["marker"])
            area.setdefault("finished", []).append({**entry, "status": "done"})
        elif m["status"] == "cancelled":
            cancelled.append(entry)
            area["cancelled"].append(entry["marker"])
            area.setdefault("finished", []).append({**entry, "status": "cancelled"})
        else:
            still.append(entry)
    area["active"] = still
    return done, cancelled


def cancels_any(area: dict[str, Any], grid: Grid, cell: Cell, tile_id: str, rot: int) -> bool:
    """Whether placing the tile would cancel one of the area's active tasks."""
    after = dict(grid)
    after[cell] = (tile_id, rot)
    return any(measure(after, key_cell(e["cell"]), e["marker"])["status"] == "cancelled" for e in area["active"])


def automatic_placement(area: dict[str, Any], tile_id: str, marker: str | None) -> tuple[Cell, int] | None:
    """The deterministic automatic placement of §5.6, or None (no legal placement)."""
    grid = grid_of(area)
    first = None
    for c in frontier(grid):
        for k in range(6):
            if not is_legal(grid, tile_id, marker, c, k):
                continue
            if first is None:
                first = (c, k)
            if not cancels_any(area, grid, c, tile_id, k):
                return c, k
    return first


def score(area: dict[str, Any]) -> dict[str, Any]:
    """The scoring pad of §7 for one area (also usable as a provisional score)."""
    grid = grid_of(area)
    tasks = {code: 0 for code in data.TASK_TYPES}
    for marker in area["completed"]:
        tasks[data.marker_type(marker)] += data.marker_value(marker)
    subtotal = sum(tasks.values())
    flags = {"A": 0, "B": 0, "C": 0}
    field = {"F": "A", "G": "B", "V": "C"}
    for cell, (tid, rot) in grid.items():
        tile = TILES[tid]
        if tile.flag is None:
            continue
        cells, closed = component(grid, cell, tile.flag)
        if closed:
            flags[field[FACES[tid][rot].seg_terrain[tile.flag]]] += len(cells)
    rail = largest_network(grid, "R")
    river = largest_network(grid, "W")
    f = flags["A"] + flags["B"] + flags["C"] + rail + river
    return {
        "tasks": tasks,
        "subtotal": subtotal,
        **flags,
        "D": rail,
        "E": river,
        "F": f,
        "modules": 0,
        "total": subtotal + f,
    }


__all__ = [
    "PlacementError",
    "any_legal",
    "automatic_placement",
    "check_placement",
    "dist",
    "evaluate",
    "grid_of",
    "is_legal",
    "legal_placements",
    "measure",
    "score",
]
