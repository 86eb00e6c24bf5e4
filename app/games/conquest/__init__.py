"""WWII Conquest: territory conquest for 2-6 commanders, humans and AI (rules: ``rules.py``)."""

from __future__ import annotations

from app.games.conquest.rules import RULES

__all__ = ["RULES"]
