"""The deadline storm: N games all due at the same instant, measured against the render floor.

    python bench/storm.py [--games N] [--quick]
    python bench/storm.py --database-url URL [--workers N] [--games N] [--quick]   (bench/storm_workers.py)

Creates N games (a mix of every registered game, 2-6 seats, bots in some seats
but humans in all, so reports are made) on a fresh SQLite file, warms the
render pool, then at "the deadline" resolves everything due (``process_due``,
as ``flask tick --now`` does) while the outbox is delivered (``deliver_pending``,
as the scheduler's mail job does) to a local aiosmtpd server.  It measures the
time until every step is resolved, every report rendered and every mail
handed over; the time of the first mail; and the peak RSS of all processes
(this one, the render pool's server and workers).

The floor, measured in the same run afterwards on a sample of the storm's own
reports: WeasyPrint alone rendering the report's HTML frozen as a static page
(same size, same SVG board and QR code; no templates, no database, no app).
Ideal storm time = sum over reports of the floor / cores.

The headline: the storm's time against its own real report renders (the
platform's renders of the storm's steps, timed one by one on a sample, the map
page once per step) divided by the render workers: what is left above 1.0x is
platform overhead (resolution, contexts, mail bodies, database, SMTP).  The
static-page floor is the second line.

Goals: total <= 1.15 x the real renders / workers; total <= 1.25 x the static
floor; first mail <= 3 s after the deadline; peak RSS <= 1 GiB.  The last line
is the headline ratio; the exit status is 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402

benchlib.ensure_env()

GOAL_RATIO = 1.25
GOAL_REAL = 1.15
GOAL_FIRST_MAIL = 3.0
GOAL_RSS_MIB = 1024


def warm_pool(app, per_worker: int = 2) -> None:
    """Start the render workers before the deadline (a running scheduler has them already)."""
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Report
    from app.render_pool import render_batch

    with Session(get_engine(app)) as session:
        report = session.exec(select(Report).limit(1)).first()
    if report is None:
        return
    jobs = [(report.context, benchlib.BASE_URL + "/p/" + "x" * 43)] * max(1, benchlib.cores() * per_worker)
    list(render_batch(app, jobs))


def run_storm(app, tick_at: datetime, sink: benchlib.Sink, progress: bool = False) -> dict:
    """Resolve all that is due at ``tick_at`` while delivering the outbox; timings from the deadline."""
    from app import turns
    from app.db import get_engine
    from app.mail import deliver_pending

    engine = get_engine(app)
    result: dict = {}
    resolved = threading.Event()

    def resolver() -> None:
        with app.app_context():
            summary = turns.process_due(engine, tick_at, max_attempts=app.config["MAX_ATTEMPTS"])
        result["steps"] = summary["steps"]
        result["games"] = summary["games"]
        result["resolved_at"] = time.perf_counter() - t0
        resolved.set()

    counts: Counter = Counter()
    t0 = time.perf_counter()
    thread = threading.Thread(target=resolver, daemon=True)
    thread.start()
    last_print = t0
    while True:
        finished_before = resolved.is_set()
        with app.app_context():
            got = deliver_pending(app, now=tick_at + timedelta(seconds=1))
        counts.update(got)
        if progress and time.perf_counter() - last_print > 10:
            last_print = time.perf_counter()
            print(f"  ... {last_print - t0:6.1f} s: {dict(counts)} mails, "
                  f"resolved={resolved.is_set()}", file=sys.stderr, flush=True)
        if not any(got.values()):
            if finished_before:
                break
            time.sleep(0.05)
    thread.join()
    result["total"] = time.perf_counter() - t0
    result["first_mail"] = (sink.first - t0) if sink.first else float("nan")
    result["last_mail"] = (sink.last - t0) if sink.last else float("nan")
    result["mail"] = dict(counts)
    return result


def storm_counts(app, tick_at: datetime) -> tuple[Counter, list]:
    """Reports made in the storm, by game slug, and a sample of them per slug."""
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Report

    by_slug: Counter = Counter()
    samples: dict[str, list] = defaultdict(list)
    with Session(get_engine(app)) as session:
        for report in session.exec(select(Report).where(Report.created_at >= tick_at).order_by(Report.id)):
            slug = report.context["game"]["slug"]
            by_slug[slug] += 1
            samples[slug].append(report.context)
    return by_slug, samples


def measure_floor(app, samples: dict[str, list], per_slug: int, repeat: int) -> dict[str, dict[str, float]]:
    """Per game: floor (static page) and real (the platform's renders of whole steps, as the pool
    makes them: a shared map page once per step) seconds per report, on one core, side by side."""
    link = benchlib.BASE_URL + "/p/" + "x" * 43
    out = {}
    first = True
    for slug, contexts in sorted(samples.items()):
        steps: dict[tuple, list] = defaultdict(list)
        for ctx in contexts:
            steps[(ctx["game"]["id"], ctx["game"]["step_no"])].append(ctx)
        groups = list(steps.values())
        per_step = max(1, sum(map(len, groups)) // len(groups))  # reports per step, on average
        every = max(1, len(groups) * per_step // max(1, per_slug))  # spread the sample over the storm
        picked_groups, n = [], 0
        for group in groups[::every]:
            if n >= per_slug:
                break
            picked_groups.append(group)
            n += len(group)
        floor, real, size = [], 0.0, []
        for group in picked_groups:
            for ctx in group:
                html = benchlib.static_html(app, ctx, link)
                size.append(len(html))
                if first:  # load fonts and caches once
                    benchlib.render_static(html)
                    first = False
                floor.append(benchlib.timed(benchlib.render_static, html, repeat=repeat))
            with app.app_context():
                real += benchlib.timed(benchlib.render_step, group, link, repeat=repeat)
        out[slug] = {"floor": sum(floor) / len(floor), "real": real / len(floor),
                     "html_kb": sum(size) / len(size) / 1024, "sampled": len(floor)}
    return out


def floor_pages(app, contexts_by_slug: dict[str, list], counts: Counter, m: int) -> list[str]:
    """About ``m`` static report pages, in the proportions of ``counts`` (per game)."""
    link = benchlib.BASE_URL + "/p/" + "x" * 43
    total = sum(counts.values()) or 1
    pages = []
    for slug, n in sorted(counts.items()):
        k = max(1, round(m * n / total))
        contexts = contexts_by_slug.get(slug, [])
        step = max(1, len(contexts) // k)
        pages += [benchlib.static_html(app, c, link) for c in contexts[::step][:k]]
    return pages


def parallel_ideal(app, contexts_by_slug: dict[str, list], counts: Counter, m: int, procs: int) -> float:
    """Ideal storm seconds: the parallel floor per page x reports."""
    pages = floor_pages(app, contexts_by_slug, counts, m)
    from app.render_pool import settings

    nice = settings(app.config)["nice"]
    return benchlib.parallel_floor(pages, procs, nice, warm=m > procs) / len(pages) * sum(counts.values())


def start_contexts(app) -> dict[str, list]:
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Report

    out: dict[str, list] = defaultdict(list)
    with Session(get_engine(app)) as session:
        for report in session.exec(select(Report).order_by(Report.id)):
            out[report.context["game"]["slug"]].append(report.context)
    return out


def setup(tmp: str, games: int, smtp_port: int, workers: int):
    from app.models import utcnow

    app = benchlib.make_app(os.path.join(tmp, "storm.sqlite"), smtp_port, RENDER_WORKERS=workers,
                           REPORT_ISOLATE=False)
    created_at = utcnow().replace(microsecond=0)
    t = time.perf_counter()
    benchlib.create_games(app, games, created_at)
    return app, time.perf_counter() - t


def due_instant(app) -> datetime:
    from sqlalchemy import func
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Game

    with Session(get_engine(app)) as session:
        latest = session.exec(select(func.max(Game.deadline)).where(Game.status == "running")).one()
    return latest + timedelta(seconds=1)


@contextlib.contextmanager
def beside(db: str, tick: datetime, *, idle_group: bool = True, workers: int = 0) -> Iterator[dict]:
    """This script storming ``db`` from ``tick`` in a process of its own (``external``), in an idle CPU group
    as the scheduler's unit runs it, from its first resolution to the end of the block.  The dict yielded
    gets the storm's summary and ``group`` (where it ran) once the block is over and the storm finished."""
    from cpu_group import IdleGroup  # deferred: only the benches that storm beside their load need it

    summary: dict = {}
    group = IdleGroup("pbem-storm", enabled=idle_group)
    proc = None
    try:
        proc = subprocess.Popen([sys.executable, __file__, "--external-db", db, "--tick", tick.isoformat(),
                                 "--workers", str(workers)], stdout=subprocess.PIPE, text=True,
                                preexec_fn=group.preexec)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("STORM START"):
                break
        yield summary
        out = proc.stdout.read()
        proc.wait()
        summary["group"] = group.describe()
    finally:
        if proc is not None and proc.poll() is None:  # the block failed: no storm is left behind
            proc.kill()
            proc.wait()
        group.close()
    for line in out.splitlines():
        if line.startswith("STORM DONE "):
            summary.update(json.loads(line[len("STORM DONE "):]))


def external(db: str, tick: str, workers: int) -> int:
    """Storm an existing database (``beside``: ``submit_load.py`` and ``order_parts.py`` run it beside their
    load)."""
    with benchlib.SmtpServer() as smtp:
        app = benchlib.make_app(db, smtp.port, create=False, RENDER_WORKERS=workers, REPORT_ISOLATE=False)
        from app.priority import background, settle_heap

        background(app.config)  # as the scheduler's jobs do: players' orders first
        warm_pool(app, 0 if os.environ.get("PBEM_BENCH_SMOKE") else 2)
        settle_heap()  # as the scheduler does when it starts
        print("STORM START", flush=True)
        res = run_storm(app, datetime.fromisoformat(tick), smtp.sink)
        res["mails_received"] = smtp.sink.count
    print("STORM DONE " + json.dumps(res), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="about 50 games")
    parser.add_argument("--smoke", action="store_true", help="2 games, the smallest floor sample (tests)")
    parser.add_argument("--workers", type=int, default=0,
                        help="render workers (default: cores); with --database-url: delivery worker "
                             "processes, the storm is run once with each number from 1 to N (default 2)")
    parser.add_argument("--database-url",
                        help="a PostgreSQL server URL (bin/start-postgres prints one): the storm with "
                             "delivery workers (bench/storm_workers.py); a database of its own is made and dropped")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--external-db", help=argparse.SUPPRESS)
    parser.add_argument("--tick", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.external_db:
        return external(args.external_db, args.tick, args.workers or benchlib.cores())
    games = 50 if args.quick and args.games == 1000 else args.games
    if args.smoke:
        games = 1
    if args.database_url:
        import storm_workers

        return storm_workers.main(args.database_url, games, args.workers or 2)
    cores = benchlib.cores()
    workers = args.workers or cores

    with tempfile.TemporaryDirectory(prefix="pbem-storm-") as tmp, benchlib.SmtpServer() as smtp:
        app, create_s = setup(tmp, games, smtp.port, workers)
        tick_at = due_instant(app)
        small = games <= 20
        m = cores if args.smoke else 2 * cores if small else 12 * cores
        # the floor before the storm, on the games' first reports (same games, same sizes)
        before = start_contexts(app)
        ideal_before_per_report = None
        if not args.smoke:  # --smoke: the floor after the storm only
            ideal_before = parallel_ideal(app, before, Counter({s: len(c) for s, c in before.items()}), m, cores)
            ideal_before_per_report = ideal_before / sum(len(c) for c in before.values())
        warm_pool(app, 0 if args.smoke else 2)
        from app.priority import settle_heap

        settle_heap()  # as the scheduler does when it starts
        sampler = benchlib.RssSampler(exclude=smtp.pids())
        sampler.start()
        res = run_storm(app, tick_at, smtp.sink, progress=games >= 200)
        sampler.stop()
        by_slug, samples = storm_counts(app, tick_at)
        ideal_after = parallel_ideal(app, samples, by_slug, m, cores)
        floor = measure_floor(app, samples, per_slug=1 if small else 3, repeat=1 if small else 2)

    reports = sum(by_slug.values())
    serial_ideal = sum(n * floor[s]["floor"] for s, n in by_slug.items()) / cores
    if ideal_before_per_report is None:
        ideal_before_per_report = ideal_after / reports
    ideal = (ideal_before_per_report * reports + ideal_after) / 2
    real_ideal = sum(n * floor[s]["real"] for s, n in by_slug.items()) / workers
    real_ratio = res["total"] / real_ideal if real_ideal else float("inf")
    ratio = res["total"] / ideal if ideal else float("inf")
    rss_mib = sampler.peak_kib / 1024
    print(f"(the RSS sampler used {sampler.own_cpu:.1f} s of CPU, not counted)", file=sys.stderr)
    cpu_main, cpu_children = sampler.cpu()
    mail = res["mail"]

    rows = [[s, by_slug[s], f["html_kb"], f["floor"], f["real"], f["real"] / f["floor"]]
            for s, f in floor.items()]
    print(f"deadline storm: {games} games, {res.get('steps', 0)} steps, {reports} reports, "
          f"{cores} cores, {workers} render workers (games created in {create_s:.1f} s, not counted)")
    print()
    print(benchlib.table(rows, ["game", "reports", "html KiB", "floor s", "report s (map once per step)",
                                "report/floor"]))
    print()
    first_ok = res["first_mail"] <= GOAL_FIRST_MAIL
    rss_ok = rss_mib <= GOAL_RSS_MIB
    ratio_ok = ratio <= GOAL_RATIO
    real_ok = real_ratio <= GOAL_REAL
    summary = [
        ["all steps resolved", f"{res.get('resolved_at', float('nan')):.1f} s", ""],
        ["mails handed to SMTP", f"{smtp.sink.count} ({smtp.sink.with_pdf} with PDF)", ""],
        ["outbox counts", json.dumps(mail), "deferred must be 0" if mail.get("deferred") else ""],
        ["storm total", f"{res['total']:.1f} s", ""],
        ["ideal (reports x floor / cores)", f"{ideal:.1f} s",
         f"{cores} plain WeasyPrint processes on static pages, before {ideal_before_per_report * reports:.1f} s"
         f" / after {ideal_after:.1f} s the storm"],
        ["same from the one-core floor", f"{serial_ideal:.1f} s", "one process, floor / cores"],
        ["ideal with real report renders", f"{real_ideal:.1f} s", f"real renders x reports / {workers} workers"],
        ["storm / real renders", f"{real_ratio:.2f}x", f"goal <= {GOAL_REAL}x: {'ok' if real_ok else 'MISSED'}"],
        ["storm / ideal (static floor)", f"{ratio:.2f}x", f"goal <= {GOAL_RATIO}x: {'ok' if ratio_ok else 'MISSED'}"],
        ["CPU: this process (resolve, build, send)", f"{cpu_main:.1f} s",
         f"{cpu_main / max(cpu_children, 1e-9):.0%} of the render processes' {cpu_children:.1f} s; "
         f"the storm's wall time x cores: {res['total'] * cores:.1f} s"],
        ["first mail after deadline", f"{res['first_mail']:.1f} s",
         f"goal <= {GOAL_FIRST_MAIL:.0f} s: {'ok' if first_ok else 'MISSED'}"],
        ["peak RSS, all processes", f"{rss_mib:.0f} MiB in {sampler.peak_procs} processes",
         f"goal <= {GOAL_RSS_MIB} MiB: {'ok' if rss_ok else 'MISSED'}"],
    ]
    print(benchlib.table(summary, ["measure", "value", "goal"]))
    complete = smtp.sink.count == sum(mail.values()) - mail.get("deferred", 0) and not mail.get("failed")
    if not complete:
        print("NOT COMPLETE: some mail was deferred or failed")
    if not ratio_ok:
        print(f"MISSED: storm took {ratio:.2f}x the floor; see README, Performance")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "games": games, "reports": reports, "cores": cores, "workers": workers, "result": res,
            "floor": floor, "ideal": ideal, "ratio": ratio, "real_ideal": real_ideal, "real_ratio": real_ratio,
            "peak_rss_mib": rss_mib,
            "cpu_main": cpu_main, "cpu_children": cpu_children}, indent=2))
    print(f"storm static floor: {ratio:.2f}x (goal <= {GOAL_RATIO}x)")
    print(f"storm: {real_ratio:.2f}x real renders / workers (goal <= {GOAL_REAL}x)")
    return 0 if real_ok and ratio_ok and first_ok and rss_ok and complete else 1


if __name__ == "__main__":
    sys.exit(main())
