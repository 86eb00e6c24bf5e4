"""The arena's Empire section: each objective's holders' win rate against the average holder's."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import arena  # noqa: E402


def played(share: dict[str, float], objectives: dict[str, list[str]]) -> arena.Played:
    return arena.Played(share, {s: i for i, s in enumerate(share)}, {}, objectives=objectives)


def test_objective_win_rates_count_each_holder_and_its_share_of_the_win():
    games = [
        played({"P1": 1.0, "P2": 0.0}, {"P1": ["O1"], "P2": ["O4"]}),
        played({"P1": 0.5, "P2": 0.5}, {"P1": ["O4"], "P2": ["O1"]}),
        played({"P1": 0.0, "P2": 1.0}, {"P1": ["O1"], "P2": ["O2"]}),
    ]
    assert arena.objective_win_rates(games) == {"O1": (1.5, 3), "O2": (1.0, 1), "O4": (0.5, 2)}


def test_the_table_names_an_unbalanced_objective_and_misses_the_goal(capsys):
    games = [played({"P1": 1.0, "P2": 0.0}, {"P1": ["O1"], "P2": ["O4"]}) for _ in range(10)]
    games += [played({"P1": 0.0, "P2": 1.0}, {"P1": ["O2"], "P2": ["O3"]}) for _ in range(10)]
    report = arena.Report()
    arena.empire_objectives(arena.Table("empire", "Empire 2p", {}), games, report)
    out = capsys.readouterr().out
    assert "O1: 100.0%" in out and "2.00x" in out and "O4:   0.0%" in out
    assert report.goals == [("Empire 2p objectives win within 0.5x-1.5x the average", False)]
    assert "outside: O1 2.00x, O2 0.00x, O3 2.00x, O4 0.00x" in out


def test_balanced_objectives_meet_the_goal():
    games = [played({"P1": 1.0, "P2": 0.0}, {"P1": ["O1"], "P2": ["O2"]}),
             played({"P1": 1.0, "P2": 0.0}, {"P1": ["O2"], "P2": ["O1"]})]
    report = arena.Report()
    arena.empire_objectives(arena.Table("empire", "Empire 2p", {}), games, report)
    assert report.goals == [("Empire 2p objectives win within 0.5x-1.5x the average", True)]
