"""Ratings with openskill (Plackett-Luce: any number of seats, ties allowed)."""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


def update(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player of one game, given their ranks (1 = best)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    """A conservative skill estimate (mu - 3 sigma) for sorting tables."""
    return mu - 3 * sigma


def points(rank: int, seats: int, tied: int = 1) -> float:
    """League points of one game: 1 for a win, 0 for last, shared on ties."""
    if seats <= 1:
        return 1.0
    return round((seats - rank - (tied - 1) / 2) / (seats - 1), 3)
