"""Hex geometry, tile faces and territories (rules spec §2).

Hexes are flat-topped with axial coordinates (q, r), north up.  A tile placed
with rotation k (clockwise k x 60 degrees) shows ``edges[(d - k) % 6]`` in
direction d.  An area is handled here as a *grid*: ``{(q, r): (tile, rot)}``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.duel import data

Cell = tuple[int, int]
Grid = dict[Cell, tuple[str, int]]

#: Direction d -> (dq, dr): N, NE, SE, S, SW, NW.
DIRS: list[Cell] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
DIR_NAMES = ["N", "NE", "SE", "S", "SW", "NW"]
COORD_LIMIT = 99


def opposite(d: int) -> int:
    """The direction opposite d."""
    return (d + 3) % 6


def neighbour(cell: Cell, d: int) -> Cell:
    """The cell next to ``cell`` in direction d."""
    return (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])


def dist(cell: Cell) -> int:
    """Hex distance from the origin."""
    q, r = cell
    return (abs(q) + abs(r) + abs(q + r)) // 2


def cell_key(cell: Cell) -> str:
    """The JSON key of a cell, e.g. ``"2,-1"``."""
    return f"{cell[0]},{cell[1]}"


def key_cell(key: str) -> Cell:
    """The cell of a JSON key such as ``"2,-1"``."""
    q, r = key.split(",")
    return (int(q), int(r))


def parse_segments(text: str) -> list[tuple[str, list[int]]]:
    """``"F012 G345"`` -> ``[("F", [0, 1, 2]), ("G", [3, 4, 5])]``."""
    return [(part[0], [int(ch) for ch in part[1:]]) for part in text.split()]


def default_segments(edges: str) -> list[tuple[str, list[int]]]:
    """The segments the default rule of §2.4 gives a tile with these edges.

    All rail edges form one segment, all river edges another, and each maximal
    cyclic run of one land terrain forms a segment.  Segments are ordered by
    their first edge in the printed order used by the spec tables.
    """
    segs: list[tuple[str, list[int]]] = []
    for line in data.LINES:
        idx = [i for i, t in enumerate(edges) if t == line]
        if idx:
            segs.append((line, idx))
    if len(set(edges)) == 1 and edges[0] in data.LAND:
        return [(edges[0], list(range(6)))]
    start = next((i for i in range(6) if edges[i] != edges[i - 1]), 0)
    run: list[int] = []
    for j in range(6):
        i = (start + j) % 6
        if edges[i] in data.LINES:
            continue
        if run and edges[run[-1]] == edges[i] and run[-1] == (i - 1) % 6:
            run.append(i)
        else:
            if run:
                segs.append((edges[run[0]], sorted(run)))
            run = [i]
    if run:
        segs.append((edges[run[0]], sorted(run)))
    return sorted(segs, key=lambda s: s[1][0])


@dataclass(frozen=True)
class Tile:
    """One tile face: edges, segments (printed orientation), flag and task."""

    id: str
    edges: str
    segments: tuple[tuple[str, tuple[int, ...]], ...]
    flag: int | None  # index of the flag segment
    task: str | None  # task type code
    task_segments: tuple[int, ...]

    @property
    def is_task(self) -> bool:
        return self.task is not None


def _find(segs: list[tuple[str, list[int]]], text: str) -> int:
    terrain, edges = parse_segments(text)[0]
    return segs.index((terrain, edges))


def _build() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for tid, (edges, segtext, flag) in data.LANDSCAPE.items():
        segs = parse_segments(segtext)
        tiles[tid] = Tile(
            tid,
            edges,
            tuple((t, tuple(e)) for t, e in segs),
            _find(segs, flag) if flag else None,
            None,
            (),
        )
    for tid, (edges, segtext, kind, tasksegs) in data.TASKS.items():
        segs = parse_segments(segtext)
        idx = tuple(_find(segs, part) for part in tasksegs.split())
        tiles[tid] = Tile(tid, edges, tuple((t, tuple(e)) for t, e in segs), None, kind, idx)
    return tiles


TILES: dict[str, Tile] = _build()


@dataclass(frozen=True)
class Face:
    """A tile at one rotation: what each direction shows and which segment owns it."""

    facing: str  # terrain per direction 0..5
    seg_terrain: tuple[str, ...]
    seg_dirs: tuple[tuple[int, ...], ...]
    dir_seg: tuple[int, ...]  # direction -> segment index


def _faces(tile: Tile) -> list[Face]:
    out = []
    for k in range(6):
        facing = "".join(tile.edges[(d - k) % 6] for d in range(6))
        seg_dirs = tuple(tuple(sorted((e + k) % 6 for e in edges)) for _, edges in tile.segments)
        dir_seg = [0] * 6
        for i, dirs in enumerate(seg_dirs):
            for d in dirs:
                dir_seg[d] = i
        out.append(Face(facing, tuple(t for t, _ in tile.segments), seg_dirs, tuple(dir_seg)))
    return out


FACES: dict[str, list[Face]] = {tid: _faces(t) for tid, t in TILES.items()}


def face(grid: Grid, cell: Cell) -> Face:
    """The face of the tile on an occupied cell."""
    tid, rot = grid[cell]
    return FACES[tid][rot]


def component(grid: Grid, cell: Cell, seg: int) -> tuple[set[Cell], bool]:
    """The territory or network holding segment ``seg`` of ``cell``.

    :returns: the set of its cells and whether it is closed (no segment edge
        faces an empty cell).
    """
    segments, closed = component_segments(grid, cell, seg)
    return {c for c, _s in segments}, closed


def component_segments(grid: Grid, cell: Cell, seg: int) -> tuple[set[tuple[Cell, int]], bool]:
    """The (cell, segment) pairs of the territory or network holding ``seg`` of ``cell``, and whether
    it is closed (``component`` without forgetting which segments: a flag lies on one)."""
    terrain = face(grid, cell).seg_terrain[seg]
    seen = {(cell, seg)}
    stack = [(cell, seg)]
    closed = True
    while stack:
        c, s = stack.pop()
        f = face(grid, c)
        for d in f.seg_dirs[s]:
            n = (c[0] + DIRS[d][0], c[1] + DIRS[d][1])
            other = grid.get(n)
            if other is None:
                closed = False
                continue
            of = FACES[other[0]][other[1]]
            s2 = of.dir_seg[(d + 3) % 6]
            if of.seg_terrain[s2] == terrain and (n, s2) not in seen:
                seen.add((n, s2))
                stack.append((n, s2))
    return seen, closed


def occupied_neighbours(grid: Grid, cell: Cell) -> int:
    """How many of the six neighbour cells hold a tile (connection count)."""
    return sum(1 for d in range(6) if neighbour(cell, d) in grid)


def frontier(grid: Grid) -> list[Cell]:
    """Empty cells next to the area (or the origin when it is empty).

    Sorted by distance from the origin, then q, then r (the order of §5.6).
    """
    if not grid:
        return [(0, 0)]
    out = set()
    for c in grid:
        for d in range(6):
            n = neighbour(c, d)
            if n not in grid and max(abs(n[0]), abs(n[1])) <= COORD_LIMIT:
                out.add(n)
    return sorted(out, key=lambda c: (dist(c), c[0], c[1]))


def largest_network(grid: Grid, terrain: str) -> int:
    """Size of the largest rail (R) or river (W) network; 0 if none.

    Every tile holds at most one segment of each line terrain (§2.4), so a
    cell of a network never holds a second network of the same terrain.
    """
    best = 0
    done: set[Cell] = set()
    for c in grid:
        if c in done:
            continue
        f = face(grid, c)
        if terrain not in f.seg_terrain:
            continue
        cells, _ = component(grid, c, f.seg_terrain.index(terrain))
        done |= cells
        best = max(best, len(cells))
    return best
