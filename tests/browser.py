"""Driving the player's pages in a real browser (Debian's Chromium through Playwright).

Fixtures ``live`` (the app served on a free port) and ``chromium`` (a headless
browser) live in ``tests/conftest.py``; the helpers here open a page at a
phone's or a desk's size, measure sideways overflow and write screenshots
under ``SCREENSHOTS`` (``tests/screenshots/`` unless the environment names
another folder) so that a person can look at them.  Nothing here is timed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "tests" / "screenshots"))
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desk": DESK}
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]


def open_page(browser: Any, url: str, size: str = "phone", *, javascript: bool = True) -> Any:
    """A new page at ``size`` ("phone": 390 x 844, "desk": 1280 x 900) showing ``url``."""
    context = browser.new_context(viewport=SIZES[size], java_script_enabled=javascript)
    page = context.new_page()
    page.goto(url)
    return page


def overflow(page: Any) -> int:
    """How many CSS pixels the page scrolls sideways (0: it fits the width)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def shot(page: Any, name: str) -> Path:
    """Write a full-page screenshot ``<SCREENSHOTS>/<name>.png``; its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
