"""Report cost: one whole PDF per seat, against the shared map page drawn once per step.

    python bench/report_cost.py [--quick]

For one step of each game (every seat a human), measured side by side on one core:

* before: every seat's report rendered whole, map included (what a report is
  when its context has no spectator's view: a game with ``board_per_seat``);
* after: what the platform does now (``app/reports.py``, ``app/render_pool.py``):
  the map page drawn once per step from the spectator's view, each seat's own
  pages rendered without it, and the two joined (pikepdf).

The last line is the ratio after/before over all games.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

benchlib.ensure_env()

CONFIG = {"dual_powers": ({}, 2), "conquest": ({"players": 6}, 6), "duel": ({}, 2), "empire": ({"players": 4}, 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.parse_args(argv)

    from sqlmodel import Session, select

    from app import turns
    from app.db import get_engine, write_session
    from app.games import all_games
    from app.models import Report, utcnow
    from app.report_html import render_html, render_map_html, shares_map
    from app.reports import join_pdfs, pdf_of

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
                contexts = [r.context for r in reports]
                if not shares_map(contexts[0]):
                    continue  # this game draws its board per seat: nothing shared
                whole = [{k: v for k, v in c.items() if k != "public_view"} for c in contexts]
                t = time.perf_counter()
                for ctx in whole:
                    pdf_of(render_html(ctx, link))
                before = time.perf_counter() - t
                t = time.perf_counter()
                map_pdf = pdf_of(render_map_html(contexts[0]))
                for ctx in contexts:
                    join_pdfs(map_pdf, pdf_of(render_html(ctx, link), skip_first=True))
                after = time.perf_counter() - t
            before_all += before
            after_all += after
            n = len(contexts)
            rows.append([slug, n, f"{before / n:.3f}", f"{after / n:.3f}", f"{after / before:.2f}x"])
    print("report cost per step: whole report per seat (before) against the map page once per step (after)")
    print()
    print(benchlib.table(rows, ["game", "seats", "before s/report", "after s/report", "after/before"]))
    print()
    print(f"report_cost: {after_all / before_all:.2f}x before (map page once per step)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
