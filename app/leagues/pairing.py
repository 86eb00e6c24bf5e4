"""Pairing members into games: round robin for two seats, balanced tables for more.

Pure functions: the order of the input and the ``rng`` decide everything.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def round_robin(members: list[T]) -> list[list[list[T]]]:
    """All rounds of a round robin (circle method): each round a list of pairs.

    With an odd number of members one sits out each round (never twice before
    everyone has sat out once).
    """
    players: list[T | None] = list(members)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            if a is not None and b is not None:
                pairs.append([a, b] if r % 2 == 0 else [b, a])  # alternate who sits first
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def table_sizes(count: int, smallest: int, largest: int) -> list[int]:
    """Split ``count`` players into as few tables as possible, sizes differing by at most one."""
    if count < smallest:
        return []
    tables = -(-count // largest)
    while tables * smallest > count:
        tables -= 1
    if tables == 0:
        return []
    base, extra = divmod(count, tables)
    if base > largest or (base == largest and extra):
        return []
    sizes = [base + 1] * extra + [base] * (tables - extra)
    return [s for s in sizes if s >= smallest]


def tables(members: list[T], smallest: int, largest: int, rng: random.Random,
           history: dict[frozenset, int] | None = None, tries: int = 200) -> list[list[T]]:
    """One round of balanced tables, preferring players who have met least often."""
    seated = len(members)
    sizes = table_sizes(seated, smallest, largest)
    while not sizes and seated > smallest:  # some sit this round out
        seated -= 1
        sizes = table_sizes(seated, smallest, largest)
    if not sizes:
        return []
    history = history or {}
    best: list[list[T]] = []
    best_cost = None
    for _ in range(tries):
        pool = list(members)
        rng.shuffle(pool)
        out, at = [], 0
        for size in sizes:
            out.append(pool[at:at + size])
            at += size
        cost = sum(history.get(frozenset((a, b)), 0) for t in out for i, a in enumerate(t) for b in t[i + 1:])
        if best_cost is None or cost < best_cost:
            best, best_cost = out, cost
        if cost == 0:
            break
    return best
