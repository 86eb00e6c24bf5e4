"""HOUSE DATA for Dorfromantik: The Duel: every tile face and task marker.

All invented data lives here (rules spec §3): 42 landscape tiles, 27 task
tiles and 27 task markers per player.  Edges are written N NE SE S SW NW at
rotation 0; a segment such as ``F012`` is a forest segment over edges 0, 1, 2.
Tests in ``tests/games/duel/test_data.py`` check this against the spec tables.
"""

from __future__ import annotations

#: Terrain letters.
FOREST, GRAIN, VILLAGE, MEADOW, RAIL, RIVER = "F", "G", "V", "M", "R", "W"
LAND = "FGVM"
LINES = "RW"

#: Landscape tiles: id -> (edges, segments, flag segment or "").
#: Flag colour follows the flag segment's terrain (F green, G yellow, V red).
LANDSCAPE: dict[str, tuple[str, str, str]] = {
    "L01": ("FFFFMM", "F0123 M45", "F0123"),
    "L02": ("FFFGGM", "F012 G34 M5", "F012"),
    "L03": ("GGGGMM", "G0123 M45", "G0123"),
    "L04": ("GGGVVM", "G012 V34 M5", "G012"),
    "L05": ("VVVMMM", "V012 M345", "V012"),
    "L06": ("VVFFFM", "V01 F234 M5", "V01"),
    "L07": ("FFFFFF", "F012345", ""),
    "L08": ("GGGGGG", "G012345", ""),
    "L09": ("VVVVVM", "V01234 M5", ""),
    "L10": ("FFFGGG", "F012 G345", ""),
    "L11": ("GGGVVV", "G012 V345", ""),
    "L12": ("VVVFFF", "V012 F345", ""),
    "L13": ("FFMMGG", "F01 M23 G45", ""),
    "L14": ("GGMMVV", "G01 M23 V45", ""),
    "L15": ("VVMMFF", "V01 M23 F45", ""),
    "L16": ("FGFGFG", "F0 G1 F2 G3 F4 G5", ""),
    "L17": ("FFFFGM", "F0123 G4 M5", ""),
    "L18": ("GGGGFM", "G0123 F4 M5", ""),
    "L19": ("VVVVGM", "V0123 G4 M5", ""),
    "L20": ("FFMMMM", "F01 M2345", ""),
    "L21": ("GGMMMM", "G01 M2345", ""),
    "L22": ("VVMMMM", "V01 M2345", ""),
    "L23": ("MMMMMM", "M012345", ""),
    "L24": ("FFVVGG", "F01 V23 G45", ""),
    "L25": ("RMMRMM", "R03 M12 M45", ""),
    "L26": ("RFFRGG", "R03 F12 G45", ""),
    "L27": ("RRFFFF", "R01 F2345", ""),
    "L28": ("RMRGGG", "R02 M1 G345", ""),
    "L29": ("RVVRVV", "R03 V12 V45", ""),
    "L30": ("RMRMRM", "R024 M1 M3 M5", ""),
    "L31": ("RFFFFF", "R0 F12345", ""),
    "L32": ("RGGGMM", "R0 G123 M45", ""),
    "L33": ("WMMWMM", "W03 M12 M45", ""),
    "L34": ("WGGWFF", "W03 G12 F45", ""),
    "L35": ("WWMMMM", "W01 M2345", ""),
    "L36": ("WFWVVV", "W02 F1 V345", ""),
    "L37": ("WMWMWM", "W024 M1 M3 M5", ""),
    "L38": ("WGGGGG", "W0 G12345", ""),
    "L39": ("WVVWMM", "W03 V12 M45", ""),
    "L40": ("WFFFFM", "W0 F1234 M5", ""),
    "L41": ("RWMRWM", "R03 W14 M2 M5", ""),
    "L42": ("RWFRWF", "R03 W14 F2 F5", ""),
}

#: Task type codes, in scoring-pad order.
TASK_TYPES = ["FOR", "GRA", "VIL", "RAI", "RIV", "CON", "DBL"]
#: Which terrain a single-type task measures.
TASK_TERRAIN = {"FOR": "F", "GRA": "G", "VIL": "V", "RAI": "R", "RIV": "W"}

#: Task tiles: id -> (edges, segments, type code, task segments).
TASKS: dict[str, tuple[str, str, str, str]] = {
    "T01": ("FFFFFF", "F012345", "FOR", "F012345"),
    "T02": ("FFFFMM", "F0123 M45", "FOR", "F0123"),
    "T03": ("FFFGGM", "F012 G34 M5", "FOR", "F012"),
    "T04": ("FFFVMM", "F012 V3 M45", "FOR", "F012"),
    "T05": ("GGGGGG", "G012345", "GRA", "G012345"),
    "T06": ("GGGGMM", "G0123 M45", "GRA", "G0123"),
    "T07": ("GGGFFM", "G012 F34 M5", "GRA", "G012"),
    "T08": ("GGGMMV", "G012 M34 V5", "GRA", "G012"),
    "T09": ("VVVVVV", "V012345", "VIL", "V012345"),
    "T10": ("VVVVMM", "V0123 M45", "VIL", "V0123"),
    "T11": ("VVVGGM", "V012 G34 M5", "VIL", "V012"),
    "T12": ("VVVFMM", "V012 F3 M45", "VIL", "V012"),
    "T13": ("RMMRMM", "R03 M12 M45", "RAI", "R03"),
    "T14": ("RFFRFF", "R03 F12 F45", "RAI", "R03"),
    "T15": ("RRGGGG", "R01 G2345", "RAI", "R01"),
    "T16": ("RMRVVV", "R02 M1 V345", "RAI", "R02"),
    "T17": ("WMMWMM", "W03 M12 M45", "RIV", "W03"),
    "T18": ("WGGWGG", "W03 G12 G45", "RIV", "W03"),
    "T19": ("WWFFFF", "W01 F2345", "RIV", "W01"),
    "T20": ("WMWVVV", "W02 M1 V345", "RIV", "W02"),
    "T21": ("MMMMMM", "M012345", "CON", ""),
    "T22": ("FFGGVV", "F01 G23 V45", "CON", ""),
    "T23": ("VVVMMM", "V012 M345", "CON", ""),
    "T24": ("GGGMMM", "G012 M345", "CON", ""),
    "T25": ("FFFGGG", "F012 G345", "DBL", "F012 G345"),
    "T26": ("GGGVVV", "G012 V345", "DBL", "G012 V345"),
    "T27": ("VVVFFF", "V012 F345", "DBL", "V012 F345"),
}

#: Marker values per type: one of each value for the six single types, and
#: three identical Double markers worth 6 [HOUSE value].
MARKER_VALUES: dict[str, list[int]] = {
    "FOR": [3, 4, 5, 6],
    "GRA": [3, 4, 5, 6],
    "VIL": [3, 4, 5, 6],
    "RAI": [3, 4, 5, 6],
    "RIV": [3, 4, 5, 6],
    "CON": [3, 4, 5, 6],
    "DBL": [6, 6, 6],
}

#: Number of landscape tiles put back in the box unseen at setup.
BOXED = 3
#: Below this many active markers (in either area) a task tile is revealed.
ACTIVE_TARGET = 3
#: Default number of consecutive automatic placements that forfeit [HOUSE].
FORFEIT_AFTER = 3
#: Default turn deadline in hours (spec §5.6).
DEADLINE_HOURS = 48

FLAG_COLOURS = {"F": "green", "G": "yellow", "V": "red"}


def marker_ids(code: str) -> list[str]:
    """The marker ids of one type, e.g. ``["FOR-3", ..., "FOR-6"]``."""
    return [f"{code}-{v}" for v in MARKER_VALUES[code]]


def marker_value(marker: str) -> int:
    """The value printed on a marker id such as ``"VIL-5"``."""
    return int(marker.rsplit("-", 1)[1])


def marker_type(marker: str) -> str:
    """The type code of a marker id such as ``"VIL-5"``."""
    return marker.split("-", 1)[0]


def all_markers() -> list[str]:
    """All 27 marker ids of one player's set."""
    return [m for code in TASK_TYPES for m in marker_ids(code)]
