"""Deadline policy: when the step that just opened is due.

A policy is a dict (on the game, copied from its league):

``hours``       length of a step, in hours, chosen by the GM (``game create --hours``)
``kinds``       length per prompt kind, e.g. ``{"turn": 24, "objective": 12}``
``clock``       "HH:MM": deadlines fall at this local clock time ...
``timezone``    ... in this IANA zone (DST-safe: computed in the zone, stored in UTC)
``weekdays``    allowed ISO weekdays (1 = Monday ... 7 = Sunday); others are skipped
``min_hours``   never sooner than this after the step opens
``max_hours``   never later than this after the step opens

A game's own timer or suggested length (a prompt's ``seconds``) is used when
the policy gives neither the kind nor ``hours``; then the game's ``hours``
(the configured default).  Declared absences of an owed player push the deadline past their
end (see ``app.leagues.absences``).
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session

from app.i18n.terms import N_
from app.leagues.absences import away_until
from app.models import Game, iso
from app.notices import notice


class PolicyError(ValueError):
    """A deadline policy that cannot work (bad zone, clock or weekdays)."""


def known_zone(name: object) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows (any other value: False, never an error)."""
    if not isinstance(name, str) or not name or len(name) > 64:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def check_policy(policy: dict[str, Any]) -> dict[str, Any]:
    """The policy, validated; raises ``PolicyError`` with a GM-readable message."""
    if not isinstance(policy, dict):
        raise PolicyError("the deadline policy must be a JSON object")
    tz = policy.get("timezone", "UTC")
    if not known_zone(tz):
        raise PolicyError(f"unknown time zone {tz!r} (use an IANA name like Europe/Lisbon)") from None
    if "clock" in policy and policy["clock"] is not None:
        _clock(policy["clock"])
    days = policy.get("weekdays")
    if days is not None and (not days or not all(isinstance(d, int) and 1 <= d <= 7 for d in days)):
        raise PolicyError("weekdays must list at least one of 1 (Monday) ... 7 (Sunday)")
    for key in ("hours", "min_hours", "max_hours"):
        if key in policy and not (isinstance(policy[key], int | float) and policy[key] >= 0):
            raise PolicyError(f"{key} must be a number of hours")
    for kind, hours in (policy.get("kinds") or {}).items():
        if not (isinstance(hours, int | float) and hours > 0):
            raise PolicyError(f"the length of {kind!r} steps must be a positive number of hours")
    return policy


def _clock(text: str) -> time:
    try:
        hh, mm = str(text).split(":")
        return time(int(hh), int(mm))
    except ValueError:
        raise PolicyError(f"clock {text!r} is not HH:MM") from None


def step_length(policy: dict[str, Any], owed: dict[str, dict[str, Any]], default_hours: float) -> timedelta:
    """The shortest length any owed prompt asks for."""
    kinds = policy.get("kinds") or {}
    lengths = []
    for prompt in owed.values():
        if prompt.get("kind") in kinds:
            lengths.append(float(kinds[prompt["kind"]]) * 3600)
        elif "hours" in policy:  # the GM chose a length: it beats the game's suggestion
            lengths.append(float(policy["hours"]) * 3600)
        elif isinstance(prompt.get("seconds"), int | float):
            lengths.append(float(prompt["seconds"]))
    if not lengths:
        lengths.append(float(policy.get("hours", default_hours)) * 3600)
    return timedelta(seconds=min(lengths))


def place(candidate: datetime, policy: dict[str, Any]) -> datetime:
    """Move an instant to the policy's clock time and allowed weekdays (never earlier)."""
    zone = ZoneInfo(policy.get("timezone") or "UTC")
    local = candidate.astimezone(zone)
    clock = _clock(policy["clock"]) if policy.get("clock") else None
    days = set(policy.get("weekdays") or range(1, 8))
    day = local.date()
    if clock is not None:
        at = datetime.combine(day, clock, tzinfo=zone)
        if at < local:
            day += timedelta(days=1)
    for _ in range(8):
        if day.isoweekday() in days:
            break
        day += timedelta(days=1)
    if clock is not None:
        # combine in the zone: 20:00 stays 20:00 local on both sides of a DST change
        return datetime.combine(day, clock, tzinfo=zone).astimezone(UTC)
    if day != local.date():
        return datetime.combine(day, local.timetz().replace(tzinfo=None), tzinfo=zone).astimezone(UTC)
    return candidate.astimezone(UTC)


def compute(policy: dict[str, Any], owed: dict[str, dict[str, Any]], now: datetime,
            default_hours: float) -> datetime:
    """The deadline of a step opening at ``now`` under ``policy`` (pure)."""
    now = now.astimezone(UTC)
    deadline = place(now + step_length(policy, owed, default_hours), policy)
    if policy.get("min_hours") is not None:
        floor = now + timedelta(hours=float(policy["min_hours"]))
        if deadline < floor:
            deadline = place(floor, policy)
    if policy.get("max_hours") is not None:
        deadline = min(deadline, now + timedelta(hours=float(policy["max_hours"])))
    return deadline.replace(microsecond=0)


def next_deadline(session: Session, game: Game, owed: dict[str, dict[str, Any]], now: datetime) -> datetime:
    """The deadline of a turn that opens at ``now`` with these prompts."""
    policy = game.policy or {}
    deadline = compute(policy, owed, now, game.hours)
    back = away_until(session, game, list(owed), deadline)
    if back is not None and back > deadline:
        deadline = place(back + step_length(policy, owed, game.hours) / 2, policy).replace(microsecond=0)
        session.add(notice(game.slug, game.id or 0, game.step_no, now,
                           N_("A player who owes this step is away (declared in advance): the deadline "
                              "waits until {deadline}."), deadline=iso(deadline)))
    return deadline
