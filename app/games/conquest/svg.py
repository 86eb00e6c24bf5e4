"""SVG board (placeholder)."""
from __future__ import annotations
from typing import Any


def render(view: dict[str, Any], seat: str | None) -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'
