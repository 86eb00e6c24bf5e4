"""Report cost: one full PDF per seat, against drawing the shared board once per step.

    python bench/report_cost.py [--quick]

For one step of each game (every seat a human), measured side by side on one core:

* before: every seat's report rendered whole (what the platform does now);
* after: the board section rendered once per step (from the public view),
  each seat's report rendered without it, and the two PDFs joined (pypdf).

The board section is the report's first ``<h2>`` section (``templates/reports/report.html``).
This is a measurement of the design, not the product: the platform would need
the report template split in two (see README, Performance).  A game whose
board differs per seat (hidden information drawn on the board) cannot share it.
The last line is the ratio after/before over all games.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

benchlib.ensure_env()

CONFIG = {"dual_powers": ({}, 2), "conquest": ({"players": 6}, 6), "duel": ({}, 2), "empire": ({"players": 4}, 4)}


def split(html: str) -> tuple[str, str]:
    """(page with the board section only, page without it)."""
    parts = re.split(r"(?=<h2)", html)
    if len(parts) < 3:
        return html, html
    head = parts[0]
    board = parts[1]
    rest = "".join(parts[2:])
    return head + board + "</body></html>", head + rest


def merge(first: bytes, second: bytes) -> bytes:
    from pypdf import PdfWriter

    out = PdfWriter()
    out.append(io.BytesIO(first))
    out.append(io.BytesIO(second))
    buf = io.BytesIO()
    out.write(buf)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.parse_args(argv)

    from sqlmodel import Session, select

    from app import turns
    from app.db import get_engine, write_session
    from app.games import all_games, get_rules
    from app.models import Report, utcnow

    rows, before_all, after_all = [], 0.0, 0.0
    link = benchlib.BASE_URL + "/p/" + "x" * 43
    with tempfile.TemporaryDirectory(prefix="pbem-reports-") as tmp:
        app = benchlib.make_app(f"{tmp}/r.sqlite", None, REPORT_ISOLATE=False)
        benchlib.render_static("<p>warm</p>")
        for slug in sorted(all_games()):
            if slug not in CONFIG:
                continue
            options, humans = CONFIG[slug]
            with app.app_context():
                with write_session(get_engine()) as session:
                    new = turns.create_game(session, slug, [f"{slug}{k}@p.example.org" for k in range(humans)],
                                            options=options, bots=True, now=utcnow())
                with Session(get_engine()) as session:
                    reports = session.exec(select(Report).where(Report.game_id == new.game.id)).all()
            htmls = [benchlib.static_html(app, r.context, link) for r in reports]
            public_ctx = dict(reports[0].context)
            public_ctx["view"] = get_rules(slug).view(new.game.state, None)
            board_page, _ = split(benchlib.static_html(app, public_ctx, link))
            t = time.perf_counter()
            for html in htmls:
                benchlib.render_static(html)
            before = time.perf_counter() - t
            t = time.perf_counter()
            board_pdf = benchlib.render_static(board_page)
            for html in htmls:
                merge(board_pdf, benchlib.render_static(split(html)[1]))
            after = time.perf_counter() - t
            before_all += before
            after_all += after
            rows.append([slug, len(htmls), before / len(htmls), after / len(htmls), f"{after / before:.2f}x"])
    print("report cost per step: whole report per seat (before) against the board once per step (after)")
    print()
    print(benchlib.table(rows, ["game", "seats", "before s/report", "after s/report", "after/before"]))
    print()
    print(f"report_cost: {after_all / before_all:.2f}x before (shared board once per step)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
