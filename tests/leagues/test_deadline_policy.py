"""Deadline policies: lengths per step kind, clock times in a zone across DST, weekdays, bounds."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.deadlines import PolicyError, check_policy, compute

LISBON = ZoneInfo("Europe/Lisbon")
TURN = {"SOV": {"kind": "turn", "title": "t"}}
OBJECTIVE = {"SOV": {"kind": "objective", "title": "o"}, "GOV": {"kind": "objective", "title": "o"}}


def test_length_per_step_kind():
    policy = {"kinds": {"turn": 24, "objective": 12}}
    now = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    assert compute(policy, TURN, now, 48) == now + timedelta(hours=24)
    assert compute(policy, OBJECTIVE, now, 48) == now + timedelta(hours=12)
    assert compute({}, TURN, now, 48) == now + timedelta(hours=48)


def test_game_timer_used_when_policy_is_silent():
    now = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
    prompts = {"P1": {"kind": "attack", "title": "a", "seconds": 90}}
    assert compute({}, prompts, now, 24) == now + timedelta(seconds=90)


@pytest.mark.parametrize("day", [27, 28, 29, 30])
def test_clock_deadline_stays_at_20_lisbon_across_the_spring_change(day):
    """Portugal moves to summer time on 29 March 2026: 20:00 local stays 20:00 local."""
    policy = {"clock": "20:00", "timezone": "Europe/Lisbon", "hours": 24}
    opened = datetime(2026, 3, day, 12, 0, tzinfo=LISBON)
    deadline = compute(policy, TURN, opened, 24)
    local = deadline.astimezone(LISBON)
    assert (local.hour, local.minute) == (20, 0)
    assert local.date() == (opened + timedelta(days=1)).date()
    assert deadline.tzinfo is not None


def test_clock_deadline_across_the_autumn_change_in_utc_terms():
    policy = {"clock": "20:00", "timezone": "Europe/Lisbon", "hours": 24}
    before = compute(policy, TURN, datetime(2026, 10, 23, 12, 0, tzinfo=UTC), 24)
    after = compute(policy, TURN, datetime(2026, 10, 25, 12, 0, tzinfo=UTC), 24)
    assert before.astimezone(UTC).hour == 19  # summer time: UTC+1
    assert after.astimezone(UTC).hour == 20  # winter time: UTC+0


def test_weekday_mask_skips_weekends():
    policy = {"clock": "18:00", "timezone": "UTC", "weekdays": [1, 2, 3, 4, 5], "hours": 24}
    friday_noon = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)  # a Friday
    deadline = compute(policy, TURN, friday_noon, 24)
    assert deadline.isoweekday() == 1 and deadline.hour == 18  # Monday 18:00, not Saturday


def test_minimum_and_maximum():
    now = datetime(2026, 12, 2, 19, 30, tzinfo=UTC)
    short = compute({"clock": "20:00", "hours": 0.1, "min_hours": 12}, TURN, now, 24)
    assert short >= now + timedelta(hours=12) and short.hour == 20
    capped = compute({"hours": 100, "max_hours": 48}, TURN, now, 24)
    assert capped == now + timedelta(hours=48)


@pytest.mark.parametrize("bad", [{"timezone": "Mars/Olympus"}, {"clock": "25:99"}, {"weekdays": []},
                                 {"weekdays": [8]}, {"hours": -1}, {"kinds": {"turn": 0}}])
def test_bad_policies_are_refused_with_a_message(bad):
    with pytest.raises(PolicyError):
        check_policy(bad)


def test_cli_game_with_a_policy_gets_the_clock_deadline(app, runner):
    import json

    from tests.platform.helpers import game_row

    out = runner.invoke(args=["game", "create", "toy", "--player", "a@example.org", "--player", "b@example.org",
                              "--policy", json.dumps({"clock": "20:00", "timezone": "Europe/Lisbon"})])
    assert out.exit_code == 0, out.output
    game = game_row(app, json.loads(out.output)["game"])
    assert game.deadline.astimezone(LISBON).strftime("%H:%M") == "20:00"
    bad = runner.invoke(args=["game", "create", "toy", "--player", "a@example.org", "--player", "b@example.org",
                              "--policy", '{"timezone": "Nowhere/Here"}'])
    assert bad.exit_code != 0 and "unknown time zone" in bad.output


def test_explicit_hours_beat_the_games_suggested_length(app, runner):
    """Dual Powers suggests 72 h for its objective step; a GM's --hours wins, else the suggestion."""
    from tests.platform.helpers import game_row

    base = ["game", "create", "dual_powers", "--player", "a@example.org", "--player", "b@example.org"]
    chosen = json.loads(runner.invoke(args=[*base, "--hours", "1"]).output)
    game = game_row(app, chosen["game"])
    assert timedelta(minutes=59) < game.deadline - game.created_at < timedelta(minutes=61)
    suggested = json.loads(runner.invoke(args=base).output)
    game = game_row(app, suggested["game"])
    prompt_seconds = min(p.get("seconds", 0) for p in game.owed.values())
    assert abs((game.deadline - game.created_at).total_seconds() - prompt_seconds) < 60
