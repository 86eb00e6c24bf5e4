"""A report's HTML, drawn from its context, and the one decision about a shared map page.

The HTML is drawn only from a report context (``notify.report_context``),
which holds the seat's view, never the raw state.  When a game draws a board
that is the same for every seat, a report's first page is the map drawn from
what a spectator sees (``map_view``), rendered once per step, language and time zone
(``map_key``); the seat's own pages follow.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from flask import render_template

from app.games.base import Rules
from app.i18n import player_locale
from app.render_env import game_svg


def map_view(rules: Rules, state: Any) -> dict[str, Any] | None:
    """What the step's shared map page is drawn from (the spectator's view), or None.

    The one place that decides whether reports share a map page: a game that
    draws a board shares it unless the board drawn for a seat shows that seat's
    own choices (``board_per_seat = True``).  The report context stores the
    answer (``public_view``); everything after reads it through ``map_key``.
    """
    if not rules.draws_board or rules.board_per_seat:
        return None
    return rules.view(state, None)


def map_context(context: dict[str, Any]) -> dict[str, Any]:
    """Everything the shared map page is drawn from (nothing of any one seat)."""
    game = context["game"]
    return {
        "game": {k: game.get(k) for k in ("id", "slug", "title", "step_no", "turn_key", "seed_hash")},
        "view": context["public_view"],
        "language": (context.get("player") or {}).get("language"),
        "timezone": (context.get("player") or {}).get("timezone") or "UTC",
        "made_at": context.get("made_at"),
    }


def map_key(context: dict[str, Any]) -> str | None:
    """The shared map page of this report (reports with equal keys share one rendering), or None.

    None: the report is one document of its own (its context holds no ``map_view``).
    """
    if not context.get("public_view"):
        return None
    blob = json.dumps(map_context(context), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def shares_map(context: dict[str, Any]) -> bool:
    """Whether the report's map is a page of its own, shared by every seat of the step."""
    return map_key(context) is not None


def render_map_html(context: dict[str, Any]) -> str:
    """The shared map page of a report (see ``map_view``)."""
    mctx = map_context(context)
    with player_locale(mctx["language"]):
        svg = game_svg(mctx["game"]["slug"], mctx["view"], None)
        box = re.search(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)', svg[:2000])
        wide = box is not None and float(box.group(1)) > 1.2 * float(box.group(2))
        return render_template("reports/map.html", ctx=mctx, svg=svg, landscape=wide)


def render_html(context: dict[str, Any], link: str) -> str:
    """The seat's report; when its map is shared, a blank first page stands for the map page.

    (The blank page keeps the page numbers right and carries the map page's own number, "1 of N":
    ``reports.join_pdfs`` lays that number over the map page and drops the blank page.)
    """
    with player_locale((context.get("player") or {}).get("language")):
        return render_template("reports/report.html", ctx=context, link=link, map_page=shares_map(context))
