"""The Duel's bot: it tries every legal placement of the tile drawn and keeps the one worth most.

It decides from the seat's view only: its own area, the tile drawn and how many tiles are
left.  A placement is worth what it is expected to bring to the scoring pad by the end:

- *tasks*: a task completed scores its number and frees a place for a new task; an active
  task is worth its number times its chance to end exactly on it, which falls with the
  tiles still missing and when few open edges or few tiles are left (``task_chance``);
- *flags*: a closed territory scores each flag in it, its size; an open flagged territory
  is worth its size times its chance to be closed, which falls with each empty cell that
  still has to be filled (``flag_chance``);
- *longest rail and river*: the largest network scores its size, and its open ends promise
  more (``network_worth``);
- *tidy edges*: land meeting the same land keeps territories whole; land meeting other land
  closes them (``tidy_edges``).
"""

from __future__ import annotations

import random
from typing import Any

from app.games.duel import data
from app.games.duel.bot_area import Area, Comp, Placed
from app.games.duel.geometry import FACES, TILES, Cell, Grid, cell_key, key_cell, neighbour
from app.games.duel.placement import legal_placements

#: A free place for a new task is worth about this (a new task tile is drawn sooner).
FREE_PLACE = 2.0
#: The chance of an active task falls by this factor for each tile still missing.
PER_MISSING_TILE = 0.8
#: ... and by this factor when its territory has only one empty cell to grow into.
ONE_WAY_OUT = 0.6
#: An open flagged territory's chance to be closed falls by this much per empty cell around it.
PER_CELL_TO_FILL = 0.12
#: An open end of the largest rail or river is worth this much.
OPEN_END = 0.5
#: Weights of the edge rules of thumb.
SAME_LAND = 0.5
OTHER_LAND = -0.3


def task_chance(missing: int, frontier: int, left: int) -> float:
    """The chance that a task still ``missing`` tiles, with ``frontier`` empty cells to grow into, ends exactly."""
    if missing > left:
        return 0.0
    chance = PER_MISSING_TILE ** missing
    return chance * (ONE_WAY_OUT if frontier == 1 else 1.0)


def task_worth(marker: str, placed: Placed, cell: Cell, left: int) -> float:
    """What one task is worth once the tile is placed (its number if completed, 0 if cancelled)."""
    v = data.marker_value(marker)
    tid, rot = (placed.tile, placed.rot) if cell == placed.cell else placed.area.grid[cell]
    tile = TILES[tid]
    if tile.task == "CON":
        c = placed.neighbours_of(cell)
        return v + FREE_PLACE if c == v else (v + FREE_PLACE) * task_chance(v - c, 6 - c, left)
    halves = [placed.comp_after(cell, seg) for seg in tile.task_segments]
    if any(h.size == v for h in halves):
        return v + FREE_PLACE
    alive = [h for h in halves if h.size < v and not h.closed]
    if not alive:
        return FREE_PLACE
    return (v + FREE_PLACE) * max(task_chance(v - h.size, len(h.frontier), left) for h in alive)


def touched(placed: Placed, cell: Cell) -> bool:
    """Whether the tile placed may change the task on ``cell`` (its components or its neighbours)."""
    tile = TILES[placed.area.grid[cell][0]]
    if tile.task == "CON":
        return any(neighbour(cell, d) == placed.cell for d in range(6))
    return any(placed.area.comp_of[(cell, seg)] in placed.replaced for seg in tile.task_segments)


def tasks_gained(active: list[tuple[Cell, str, float]], placed: Placed, left: int) -> float:
    """The active tasks' worth after the tile, minus before (only the tasks it touches change)."""
    return sum(task_worth(m, placed, c, left) - before for c, m, before in active if touched(placed, c))


def flag_chance(comp: Comp, left: int) -> float:
    """The chance that an open flagged territory gets closed before the end."""
    cells = len(comp.frontier)
    if cells > left:
        return 0.0
    return max(0.0, 1.0 - PER_CELL_TO_FILL * cells)


def flag_worth(comp: Comp, left: int) -> float:
    """Each flag of a territory scores its size once it is closed."""
    if not comp.flags:
        return 0.0
    return comp.flags * comp.size * (1.0 if comp.closed else flag_chance(comp, left))


def flags_gained(placed: Placed, left: int) -> float:
    """The flags' worth in the components the tile changed, after minus before."""
    before = sum(flag_worth(placed.area.comps[i], left) for i in placed.replaced)
    after = sum(flag_worth(c, left) for c in {id(c): c for c in placed.replaced.values()}.values())
    after += sum(flag_worth(c, left) for c in placed.new.values() if not c.merged)
    return after - before


def network_worth(sizes_and_ends: list[tuple[int, int]]) -> float:
    """The largest network's size, and a little for its open ends."""
    if not sizes_and_ends:
        return 0.0
    size, ends = max(sizes_and_ends)
    return size + OPEN_END * min(ends, 2)


def networks_gained(placed: Placed) -> float:
    gain = 0.0
    for terrain in data.LINES:
        if terrain not in FACES[placed.tile][placed.rot].facing:
            continue
        comps = placed.area.comps
        before = [(c.size, len(c.frontier)) for c in comps if c.terrain == terrain]
        after = [(c.size, len(c.frontier)) for i, c in enumerate(comps) if c.terrain == terrain
                 and i not in placed.replaced]
        after += [(c.size, len(c.frontier)) for c in placed.new.values() if c.terrain == terrain]
        gain += network_worth(after) - network_worth(before)
    return gain


def tidy_edges(placed: Placed) -> float:
    """Land meeting the same land keeps territories whole; meeting other land closes them."""
    gain = 0.0
    facing = FACES[placed.tile][placed.rot].facing
    grid = placed.area.grid
    for d in range(6):
        other = grid.get(neighbour(placed.cell, d))
        if other is None or facing[d] in data.LINES:
            continue
        theirs = FACES[other[0]][other[1]].facing[(d + 3) % 6]
        gain += SAME_LAND if theirs == facing[d] else OTHER_LAND
    return gain


def placement_worth(area: Area, active: list[tuple[Cell, str, float]], marker: str | None,
                    cell: Cell, tile: str, rot: int, left: int) -> float:
    placed = area.after(cell, tile, rot)
    new_task = task_worth(marker, placed, cell, left) if marker else 0.0
    return (new_task + tasks_gained(active, placed, left) + flags_gained(placed, left)
            + networks_gained(placed) + tidy_edges(placed))


def legal_options(view: dict[str, Any], grid: Grid) -> list[tuple[Cell, int]]:
    """The legal placements, as the view lists them for the seat (or worked out when it does not)."""
    if view.get("candidates"):
        return [((c["q"], c["r"]), k) for c in view["candidates"] for k in c["rotations"]]
    cur = view["current"]
    return legal_placements(grid, cur["tile"], cur["marker"])


def best_order(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The placement worth most (ties broken by ``rng``), seen from ``view``."""
    cur = view["current"]
    mine = view["areas"][view["seat"]]
    grid = {(c["q"], c["r"]): (c["tile"], c["rot"]) for c in mine["cells"]}
    options = legal_options(view, grid)
    if not options:
        return {"type": "PASS"}
    area = Area(grid)
    left = int(view.get("stacks", {}).get("landscape", 39))  # tiles still to come after this one
    now = area.as_it_is()
    active = [(key_cell(e["cell"]), e["marker"], task_worth(e["marker"], now, key_cell(e["cell"]), left))
              for e in mine["active"]]
    scored = [(placement_worth(area, active, cur["marker"], c, cur["tile"], k, left), rng.random(), c, k)
              for c, k in options]
    _, _, cell, rot = max(scored)
    return {"type": "PLACE", "tile": cur["tile"], "position": cell_key(cell), "rotation": rot}
