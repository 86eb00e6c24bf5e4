"""What the bot knows of its own area: territories and networks, and what one placement does to them.

The area is read once per decision (``Area``): every territory and network with its cells,
the empty cells its open edges face (its *frontier*), and the flags it holds.  A candidate
placement is then judged without redrawing the area (``Area.after``): the new tile's segments
join the components they touch, and the components it only borders lose that frontier cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.duel.geometry import COORD_LIMIT, FACES, TILES, Cell, Grid, component_segments, neighbour

TERRITORY_OR_NETWORK = "FGVRW"
#: A cell beyond the coordinates' limits: where "no tile" is placed.
NOWHERE: Cell = (COORD_LIMIT + 2, COORD_LIMIT + 2)


@dataclass
class Comp:
    """One territory (F, G, V) or network (R, W): its cells, frontier and flags."""

    terrain: str
    cells: set[Cell]
    frontier: set[Cell]
    flags: int = 0
    merged: tuple[int, ...] = field(default=())  # the components of the area it is made of

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def closed(self) -> bool:
        return not self.frontier


class Area:
    """The components of a grid, and the effect of placing one tile on them."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.comps: list[Comp] = []
        self.comp_of: dict[tuple[Cell, int], int] = {}
        for cell, (tid, rot) in grid.items():
            for seg, terrain in enumerate(FACES[tid][rot].seg_terrain):
                if terrain in TERRITORY_OR_NETWORK and (cell, seg) not in self.comp_of:
                    self._read(cell, seg, terrain)

    def _read(self, cell: Cell, seg: int, terrain: str) -> None:
        pairs, _closed = component_segments(self.grid, cell, seg)
        index = len(self.comps)
        comp = Comp(terrain, {c for c, _ in pairs}, set(), merged=(index,))
        for c, s in pairs:
            self.comp_of[(c, s)] = index
            tid, rot = self.grid[c]
            if TILES[tid].flag == s:
                comp.flags += 1
            for d in FACES[tid][rot].seg_dirs[s]:
                n = neighbour(c, d)
                if n not in self.grid:
                    comp.frontier.add(n)
        self.comps.append(comp)

    def networks(self, terrain: str) -> list[int]:
        """The sizes of the area's rail (R) or river (W) networks."""
        return [c.size for c in self.comps if c.terrain == terrain]

    def as_it_is(self) -> Placed:
        """The area seen through ``Placed`` with no tile placed: every component as it is."""
        return Placed(self, NOWHERE, "", 0, {}, {})

    def after(self, cell: Cell, tile: str, rot: int) -> Placed:
        """What placing ``tile`` on ``cell`` at ``rot`` makes of the components it touches."""
        f = FACES[tile][rot]
        new: dict[int, Comp] = {}
        bordered: dict[int, Comp] = {}
        joined: set[int] = set()
        for seg, terrain in enumerate(f.seg_terrain):
            if terrain not in TERRITORY_OR_NETWORK:
                continue
            comp = Comp(terrain, {cell}, set(), 1 if TILES[tile].flag == seg else 0)
            parts: list[int] = []
            for d in f.seg_dirs[seg]:
                n = neighbour(cell, d)
                other = self.grid.get(n)
                if other is None:
                    comp.frontier.add(n)
                    continue
                of = FACES[other[0]][other[1]]
                s2 = of.dir_seg[(d + 3) % 6]
                if of.seg_terrain[s2] == terrain:
                    index = self.comp_of[(n, s2)]
                    if index not in parts:
                        parts.append(index)
            for index in parts:
                old = self.comps[index]
                comp.cells |= old.cells
                comp.frontier |= old.frontier
                comp.flags += old.flags
            comp.frontier.discard(cell)
            comp.merged = tuple(parts)
            joined.update(parts)
            new[seg] = comp
        for d in range(6):
            n = neighbour(cell, d)
            other = self.grid.get(n)
            if other is None:
                continue
            of = FACES[other[0]][other[1]]
            s2 = of.dir_seg[(d + 3) % 6]
            near = self.comp_of.get((n, s2))
            if near is not None and near not in joined and near not in bordered:
                old = self.comps[near]
                bordered[near] = Comp(old.terrain, old.cells, old.frontier - {cell}, old.flags, (near,))
        return Placed(self, cell, tile, rot, new, bordered)


class Placed:
    """An area with one more tile, seen through the components that tile changed."""

    def __init__(self, area: Area, cell: Cell, tile: str, rot: int, new: dict[int, Comp],
                 bordered: dict[int, Comp]) -> None:
        self.area = area
        self.cell = cell
        self.tile = tile
        self.rot = rot
        self.new = new
        self.bordered = bordered
        self.replaced: dict[int, Comp] = dict(bordered)
        for comp in new.values():
            for index in comp.merged:
                self.replaced[index] = comp

    def comp_after(self, cell: Cell, seg: int) -> Comp:
        """The component holding segment ``seg`` of ``cell`` once the tile is placed."""
        if cell == self.cell:
            return self.new[seg]  # a segment of the tile placed
        index = self.area.comp_of[(cell, seg)]
        return self.replaced.get(index, self.area.comps[index])

    def neighbours_of(self, cell: Cell) -> int:
        """Occupied neighbour cells of ``cell`` once the tile is placed (a Connection task's count)."""
        grid = self.area.grid
        return sum(1 for d in range(6) if neighbour(cell, d) in grid or neighbour(cell, d) == self.cell)

    def largest(self, terrain: str) -> int:
        """The size of the largest rail (R) or river (W) network once the tile is placed."""
        sizes = [c.size for i, c in enumerate(self.area.comps) if c.terrain == terrain and i not in self.replaced]
        sizes += [c.size for c in self.replaced.values() if c.terrain == terrain]
        sizes += [c.size for c in self.new.values() if c.terrain == terrain]
        return max(sizes, default=0)
