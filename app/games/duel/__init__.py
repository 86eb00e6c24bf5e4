"""Dorfromantik: The Duel, for two players placing the same tile each turn (rules: ``rules.py``)."""

from __future__ import annotations

from app.games.duel.rules import RULES

__all__ = ["RULES"]
