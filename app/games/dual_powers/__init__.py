"""Dual Powers: Revolution 1917, for two players or solo against the Opposition (rules: ``rules.py``)."""

from __future__ import annotations

from app.games.dual_powers.rules import RULES

__all__ = ["RULES"]
