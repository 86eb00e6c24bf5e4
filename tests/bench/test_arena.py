"""The arena's match against the bots' previous version: played from another revision's code."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.games import get_rules
from app.games.base import bot_order, step_rng
from app.games.driver import advance, random_orders, start

ROOT = Path(__file__).resolve().parents[2]
# loaded from its file, so that the bench directory's modules stay off the test run's path
_spec = importlib.util.spec_from_file_location("arena_previous", ROOT / "bench" / "arena_previous.py")
assert _spec and _spec.loader
arena_previous = sys.modules["arena_previous"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(arena_previous)


def _arena(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(cwd / "bench" / "arena.py"), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.mark.parametrize("slug", ["conquest", "dual_powers", "duel", "empire"])
def test_the_child_process_plays_exactly_as_the_bot_in_process(slug):
    """Views, prompts and orders cross as JSON lines and the rng is seeded alike, so the same
    code answers the same: a difference in the arena comes from the bots, not from the harness."""
    rules = get_rules(slug)
    game = start(rules, {}, "arena-harness")
    asked = 0
    try:
        for step in range(1, 6):
            for seat in sorted(rules.owed(game.state)):
                seed = f"arena-harness:{step}:bot:{seat}"
                here = bot_order(rules, game.state, seat, step_rng("arena-harness", step, f"bot:{seat}"))
                there = arena_previous.ask(str(ROOT), slug, rules.view(game.state, seat),
                                           rules.owed(game.state)[seat], seed)
                assert there == here
                asked += 1
            if rules.outcome(game.state) is not None:
                break
            advance(rules, game, random_orders(rules, game))
    finally:
        arena_previous.close_children()
    assert asked >= 5


def test_a_bot_that_cannot_play_is_reported_not_fatal(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("raise ImportError('broken on purpose')\n")
    rules = get_rules("duel")
    game = start(rules, {}, "x")
    seat = sorted(rules.owed(game.state))[0]
    try:
        with pytest.raises(arena_previous.PreviousFailed, match="broken on purpose"):
            arena_previous.ask(str(tmp_path), "duel", rules.view(game.state, seat), rules.owed(game.state)[seat], "s")
    finally:
        arena_previous.close_children()


def _fake_app(tmp_path: Path, ai_order: str) -> str:
    """An ``app`` whose every game's bot runs ``ai_order``'s body."""
    (tmp_path / "app" / "games").mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "games" / "__init__.py").write_text(
        "class Rules:\n    def ai_order(self, view, prompt, rng):\n" + f"        {ai_order}\n"
        "def get_rules(slug):\n    return Rules()\n")
    return str(tmp_path)


def test_an_illegal_order_of_the_previous_bot_is_replaced_and_counted(tmp_path):
    old = _fake_app(tmp_path, "return {'placement': 'nowhere'}")
    rules = get_rules("duel")
    game = start(rules, {}, "x")
    seat = sorted(rules.owed(game.state))[0]
    faults: Counter[str] = Counter()
    try:
        order = arena_previous.order_or_random(rules, game.state, seat, "x:1:bot:" + seat, old, faults)
    finally:
        arena_previous.close_children()
    rules.validate(game.state, seat, order)
    assert list(faults.values()) == [1], faults


def test_a_previous_bot_that_hangs_is_stopped(tmp_path, monkeypatch):
    old = _fake_app(tmp_path, "import time; time.sleep(60)")
    monkeypatch.setattr(arena_previous, "ANSWER_WITHIN", 1)
    try:
        with pytest.raises(arena_previous.PreviousFailed, match="no answer within 1 s"):
            arena_previous.ask(old, "duel", {}, {}, "s")
    finally:
        arena_previous.close_children()


@pytest.mark.slow
def test_against_head_it_plays_and_prints_the_table():
    out = _arena("--only", "Dual Powers", "--games", "1", "--vs-random", "0", "--vs-previous", "2",
                 "--previous", "HEAD")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert f"  previous version: {head[:8]} (HEAD)" in lines
    table = [line for line in lines if line.startswith("  current vs previous: wins ")]
    assert len(table) == 1, out.stdout
    assert re.match(r"  current vs previous: wins +\d+\.\d% \[ *\d+\.\d- *\d+\.\d\] of 2 \(a fair share is 50%\);"
                    r" by the current bot's seat position: 1: .*, 2: ", table[0]), table[0]
    assert "previous bot failed" not in out.stdout, "HEAD's bot writes legal orders"
    assert lines[-1] == "arena: 0 of 0 goals met"


@pytest.mark.slow
def test_outside_a_git_checkout_it_says_so_and_plays_the_rest(tmp_path):
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "app", tmp_path / "app", ignore=skip)
    shutil.copytree(ROOT / "bench", tmp_path / "bench", ignore=skip)
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path.parent), "PYTHONPATH": str(tmp_path)}
    out = _arena("--only", "Dual Powers", "--games", "1", "--vs-random", "0", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "previous version: not available (not a git checkout)"
    assert any(line.startswith("  bot vs bot, 1 games") for line in lines), out.stdout
    assert not any("current vs previous" in line for line in lines)
    assert lines[-1] == "arena: 0 of 0 goals met"


def test_other_seeds_play_other_games_and_the_same_seeds_the_same():
    """``--seeds NAME`` checks a figure on games no change was chosen on; a name replays its games."""
    args = ("--only", "Duel", "--games", "4", "--vs-random", "0", "--vs-previous", "0")
    played = {name: _arena(*args, "--seeds", name) for name in ("arena", "fresh")}
    again = _arena(*args)  # the default name is "arena"
    for out in (*played.values(), again):
        assert out.returncode in (0, 1), out.stderr[-3000:]
    assert "bot vs bot, 4 games" in played["arena"].stdout, played["arena"].stdout
    assert played["arena"].stdout != played["fresh"].stdout, "other seeds, other games"
    assert again.stdout == played["arena"].stdout


def test_with_no_bot_games_it_claims_no_goal_measured_on_them():
    """``--games 0`` plays no bot-vs-bot game: no seat positions and no goal measured over nothing."""
    out = _arena("--only", "Empire 2p", "--games", "0", "--vs-random", "2", "--vs-previous", "0")
    assert out.returncode in (0, 1), out.stderr[-3000:]
    assert "bot vs random" in out.stdout
    assert "bot vs bot" not in out.stdout and "upkeep" not in out.stdout and "of 0" not in out.stdout, out.stdout
