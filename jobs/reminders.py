"""Reminders before deadlines (filled in by the leagues feature)."""

from __future__ import annotations

from flask import Flask


def run(app: Flask) -> int:
    """Send the reminders that are due; how many were queued."""
    return 0
