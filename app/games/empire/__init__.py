"""Empire: the Emperor's tribute game (spec ``empire.md``), 2-4 players (rules: ``rules.py``)."""

from __future__ import annotations

from app.games.empire.rules import RULES

__all__ = ["RULES"]
