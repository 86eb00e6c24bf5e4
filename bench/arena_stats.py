"""The arena's statistics and report: Wilson intervals, and lines printed as they come."""

from __future__ import annotations

import math
from dataclasses import dataclass, field


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (shared wins count as fractions)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{100 * wins / max(n, 1):5.1f}% [{100 * lo:4.1f}-{100 * hi:5.1f}]"


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    goals: list[tuple[str, bool]] = field(default_factory=list)

    def say(self, text: str = "") -> None:
        self.lines.append(text)
        print(text, flush=True)

    def goal(self, name: str, ok: bool, figure: str) -> None:
        self.goals.append((name, ok))
        self.say(f"  goal {name}: {figure} {'met' if ok else 'MISSED'}")
