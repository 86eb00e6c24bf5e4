"""Engine cost: for each game, resolving a step against rendering that step's reports.

    python bench/engines.py [--quick] [--steps N]

Plays each registered game on the platform (a fresh SQLite file, every seat a
human, random legal orders), and for each step measures, side by side:

* engine: the rules' own work for the step (``resolve``, then ``owed`` and the
  ``view`` of every seat), replayed from the stored step (median of 3);
* platform: ``process_game`` for the step (claim, resolve, store, report
  contexts, outbox mails: one write transaction on SQLite);
* render: every report that step produced, rendered to PDF (one core, the way
  the render pool does: a map page shared by the step's reports rendered once).

Goal: engine <= 5% of render for every game.  The platform column is printed
for reference.  The last line is the worst game's ratio; the exit status is 1
when a game misses the goal.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

benchlib.ensure_env()

GOAL = 0.05

#: Options per game for this bench: every seat a human (more seats: more reports per step).
CONFIG = {
    "dual_powers": ({}, 2),
    "conquest": ({"players": 4}, 4),
    "duel": ({}, 2),
    "empire": ({"players": 3}, 3),
}


def engine_time(rules, state, orders, seed, step_no, seats) -> float:
    from app.games.base import step_rng

    def work():
        new_state, _events = rules.resolve(state, orders, step_rng(seed, step_no))
        rules.owed(new_state)
        for seat in seats:
            rules.view(new_state, seat)

    return benchlib.timed(work, repeat=3)


def bench_game(app, slug: str, steps: int, render_at_most: int = 0) -> dict:
    from sqlmodel import Session, select

    from app import turns
    from app.db import get_engine, write_session
    from app.games import get_rules
    from app.games.base import step_rng
    from app.models import Game, Report, Seat, Step, utcnow

    rules = get_rules(slug)
    options, humans = CONFIG.get(slug, ({}, len(rules.seats(rules.default_options()))))
    engine = get_engine(app)
    now = utcnow()
    link = benchlib.BASE_URL + "/p/" + "x" * 43
    with app.app_context():
        with write_session(engine) as session:
            new = turns.create_game(session, slug, [f"{slug}{k}@players.example.org" for k in range(humans)],
                                    options=options, bots=True, now=now)
            game_id = new.game.id
        totals = {"engine": 0.0, "platform": 0.0, "render": 0.0, "steps": 0, "reports": 0}
        for _ in range(steps):
            with Session(engine) as session:
                game = session.get(Game, game_id)
                if game.status != "running":
                    break
                step_no = game.step_no
                seats = {s.seat: s for s in session.exec(select(Seat).where(Seat.game_id == game_id))}
                state, owed, seed = game.state, dict(game.owed), game.seed
            with write_session(engine) as session:
                game = session.get(Game, game_id)
                have = turns.current_orders(session, game_id, step_no)
                for seat_id in owed:
                    if seat_id in have:
                        continue  # a bot's order is already on file
                    order = rules.random_order(state, seat_id, step_rng(seed, step_no, f"bench:{seat_id}"))
                    turns.submit_order(session, game, seats[seat_id], order, step_no=step_no, source="web",
                                       now=now)
            t = time.perf_counter()
            done = turns.process_game(engine, game_id, now + timedelta(seconds=1))
            platform = time.perf_counter() - t
            if not done:
                break
            with Session(engine) as session:
                steps_done = session.exec(
                    select(Step).where(Step.game_id == game_id, Step.step_no >= step_no,
                                       Step.resolved_at.is_not(None))  # type: ignore[union-attr]
                    .order_by(Step.step_no)).all()
                reports = session.exec(select(Report).where(Report.game_id == game_id,
                                                            Report.step_no > step_no)).all()
                game_with_all = session.get(Game, game_id)
            eng = sum(engine_time(rules, s.state, s.orders, seed, s.step_no, list(seats)) for s in steps_done)
            sample = reports[:render_at_most] if render_at_most else reports
            t = time.perf_counter()
            benchlib.render_step([r.context for r in sample], link)  # a shared map page once, as the pool does
            render = time.perf_counter() - t
            if sample:
                render *= len(reports) / len(sample)  # --smoke renders a sample only
            totals["engine"] += eng
            totals["platform"] += platform
            totals["render"] += render
            totals["steps"] += len(steps_done)
            totals["reports"] += len(reports)
            now = game_with_all.deadline or now  # type: ignore[union-attr]
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one step per game")
    parser.add_argument("--steps", type=int, default=4, help="steps played per game (default 4)")
    parser.add_argument("--smoke", action="store_true", help="one step, one report rendered per game")
    args = parser.parse_args(argv)
    steps = 1 if args.quick or args.smoke else args.steps
    from app.games import all_games

    rows, worst, worst_slug = [], 0.0, ""
    with tempfile.TemporaryDirectory(prefix="pbem-engines-") as tmp:
        app = benchlib.make_app(f"{tmp}/engines.sqlite", None, REPORT_ISOLATE=False)
        benchlib.render_static("<p>warm</p>")  # load fonts once, outside the figures
        for slug in sorted(all_games()):
            if slug not in CONFIG and slug.startswith("toy"):
                continue
            t = bench_game(app, slug, steps, render_at_most=1 if args.smoke else 0)
            if not t["reports"]:
                rows.append([slug, t["steps"], 0, "-", "-", "-", "-", "-", "no report made"])
                continue
            ratio = t["engine"] / t["render"]
            platform_ratio = t["platform"] / t["render"]
            if ratio > worst:
                worst, worst_slug = ratio, slug
            rows.append([slug, t["steps"], t["reports"], f"{t['engine'] / t['steps'] * 1000:.2f}",
                         f"{t['platform'] / t['steps'] * 1000:.1f}", f"{t['render'] / t['steps'] * 1000:.0f}",
                         f"{ratio * 100:.2f}%", f"{platform_ratio * 100:.1f}%",
                         "ok" if ratio <= GOAL else "MISSED"])
    print(f"engine cost per step against rendering the step's reports ({steps} step(s) per game, one core)")
    print()
    print(benchlib.table(rows, ["game", "steps", "reports", "engine ms/step", "platform ms/step",
                                "render ms/step", "engine/render", "platform/render", "goal <= 5%"]))
    print()
    missed = [r[0] for r in rows if r[-1] == "MISSED"]
    if missed:
        print(f"MISSED for: {', '.join(missed)}")
    print(f"engines: {worst * 100:.2f}% of render, worst {worst_slug or '-'} (goal <= {GOAL * 100:.0f}%)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
