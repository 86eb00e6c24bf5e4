"""HOUSE DATA checked against the tables of rules spec §3."""

from __future__ import annotations

from collections import Counter

from app.games.duel import data
from app.games.duel.geometry import FACES, TILES, default_segments, parse_segments


def test_component_counts():
    assert len(data.LANDSCAPE) == 42 and sorted(data.LANDSCAPE) == [f"L{i:02d}" for i in range(1, 43)]
    assert len(data.TASKS) == 27 and sorted(data.TASKS) == [f"T{i:02d}" for i in range(1, 28)]
    assert len(data.all_markers()) == 27


def test_every_tile_follows_the_default_segment_rule():
    for tid, row in {**data.LANDSCAPE, **data.TASKS}.items():
        edges, segs = row[0], row[1]
        assert len(edges) == 6 and set(edges) <= set("FGVMRW"), tid
        assert sorted(parse_segments(segs), key=lambda s: s[1][0]) == default_segments(edges), tid
        covered = sorted(e for _, es in parse_segments(segs) for e in es)
        assert covered == list(range(6)), tid
        assert all(edges[e] == t for t, es in parse_segments(segs) for e in es), tid


def test_landscape_edge_totals():
    totals = Counter("".join(edges for edges, _, _ in data.LANDSCAPE.values()))
    assert totals == {"M": 64, "F": 58, "G": 53, "V": 39, "R": 19, "W": 19}


def test_landscape_kinds_stations_lakes_and_junctions():
    kinds = Counter()
    rail_ends, river_ends = Counter(), Counter()
    for edges, _, _ in data.LANDSCAPE.values():
        has_r, has_w = "R" in edges, "W" in edges
        kinds["bridge" if has_r and has_w else "rail" if has_r else "river" if has_w else "land"] += 1
        if has_r and not has_w:
            rail_ends[edges.count("R")] += 1
        if has_w and not has_r:
            river_ends[edges.count("W")] += 1
    assert kinds == {"land": 24, "rail": 8, "river": 8, "bridge": 2}
    assert rail_ends == {2: 5, 1: 2, 3: 1} and river_ends == {2: 5, 1: 2, 3: 1}


def test_six_flags_two_of_each_colour():
    flags = {tid: f for tid, (_, _, f) in data.LANDSCAPE.items() if f}
    assert sorted(flags) == ["L01", "L02", "L03", "L04", "L05", "L06"]
    colours = Counter(data.FLAG_COLOURS[f[0]] for f in flags.values())
    assert colours == {"green": 2, "yellow": 2, "red": 2}
    for tid, f in flags.items():
        assert f in data.LANDSCAPE[tid][1].split()
        assert TILES[tid].segments[TILES[tid].flag][0] == f[0]


def test_task_tiles_types_and_task_segments():
    types = Counter(kind for _, _, kind, _ in data.TASKS.values())
    assert types == {"FOR": 4, "GRA": 4, "VIL": 4, "RAI": 4, "RIV": 4, "CON": 4, "DBL": 3}
    for tid, (_, segs, kind, task) in data.TASKS.items():
        if kind in data.TASK_TERRAIN:
            terrain = data.TASK_TERRAIN[kind]
            own = [s for s in segs.split() if s[0] == terrain]
            assert own == [task], tid
        elif kind == "CON":
            assert task == ""
        else:
            assert len(task.split()) == 2 and all(s in segs.split() for s in task.split())
    doubles = {tid: "/".join(s[0] for s in data.TASKS[tid][3].split()) for tid in ("T25", "T26", "T27")}
    assert doubles == {"T25": "F/G", "T26": "G/V", "T27": "V/F"}


def test_markers_one_of_each_value_and_three_doubles():
    for code in ("FOR", "GRA", "VIL", "RAI", "RIV", "CON"):
        assert data.marker_ids(code) == [f"{code}-3", f"{code}-4", f"{code}-5", f"{code}-6"]
    assert data.marker_ids("DBL") == ["DBL-6"] * 3
    for code in data.TASK_TYPES:
        tiles = sum(1 for _, _, kind, _ in data.TASKS.values() if kind == code)
        assert len(data.MARKER_VALUES[code]) == tiles
    assert data.marker_value("DBL-6") == 6 and data.marker_type("VIL-5") == "VIL"


def test_rotation_turns_clockwise():
    assert FACES["L28"][1].facing == "GRMRGG"
    assert FACES["L20"][3].facing == "MMMFFM"
    assert FACES["L17"][2].facing == "GMFFFF"
    assert FACES["L12"][1].facing == "FVVVFF"
