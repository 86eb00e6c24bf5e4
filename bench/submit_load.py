"""Order submission under load, idle and during a deadline storm, against a bare Flask endpoint.

    python bench/submit_load.py [--quick] [--seconds S] [--rate R] [--storm-games N] [--render-workers N]
                                [--database-url postgresql+psycopg://pbem:pbem@127.0.0.1:5432/postgres]

Runs the real HTTP server (gunicorn with ``gunicorn.conf.py``, its documented
worker count) on loopback, twice at once: one serving the application (orders
POSTed to ``/p/<token>`` in the game's notation, each a real write: validation,
the order row, the seat, the all-in flag) and one serving a bare Flask "hello"
endpoint (``bench/hello_app.py``) with the same configuration.  The load
generator is an asyncio HTTP/1.1 client in this process:

* open loop: requests started at a fixed rate (``--rate``) for ``--seconds`` to
  each server, the two interleaved (an order, then a hello, ...), so that both
  are measured side by side, in the same seconds of the same machine; latency is
  measured from the planned start, so a stalled server counts in full;
* closed loop: ``--concurrency`` clients back to back, for throughput, one server
  after the other.

Both, first with the machine idle, then while a deadline storm (``storm.py``
in a separate process: resolution, render pool, SMTP) runs on the same
database; the storm is sized to last the whole open loop (``--storm-games``,
by default 4 games a second of it).  Goal: p99 of an order <= 3x the p99 of
bare Flask measured idle beside it, also during the storm.  A p99 needs
hundreds of requests to mean anything: the default phase is 30 s at 10/s, 300
of each (``--quick``: 3 s, a smoke test of the bench, not a measurement).  With
``--database-url`` the same is measured again on PostgreSQL (a database of its
own, created and dropped), and both tables are printed.  The disk's own wait
(``fdatasync``, which a PostgreSQL commit waits for and bare Flask never does)
is measured in the same run, idle and sampled during the storm (whose own writes
share the disk) while the closed loop runs (the probe's writes are not in the
open loop's latencies), and printed beside PostgreSQL's figures.  The last line
is the worst of the ratios; the exit status is 1 when the goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402
import storm  # noqa: E402
from disk_wait import DiskProbe, disk_wait  # noqa: E402
from http_load import Gunicorn, closed_loop, http_request, open_loop  # noqa: E402

benchlib.ensure_env()

GOAL = 3.0
HERE = Path(__file__).resolve().parent


# --------------------------------------------------------------------------- orders


def order_requests(app, games: list[dict]) -> list[tuple[str, bytes]]:
    """(path, form body) of legal orders, one seat per game, for games where another human also owes."""
    from sqlmodel import Session, select

    from app.db import get_engine
    from app.games import get_rules
    from app.games.base import step_rng
    from app.models import Game, Seat
    from app.web.play import csrf_token

    out = []
    with app.app_context(), Session(get_engine()) as session:
        for g in games:
            game = session.get(Game, g["game"])
            rules = get_rules(game.slug)
            human = [s for s in game.owed if s in g["links"]]
            if len(human) < 2:
                continue  # one order would complete the step
            seat_id = human[0]
            seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat_id)).one()
            bodies = []
            for k in range(5):
                order = rules.random_order(game.state, seat_id, step_rng("bench", k, seat_id))
                bodies.append(urlencode({"csrf_token": csrf_token(seat), "step_no": game.step_no,
                                         "notation": rules.format(order)}).encode())
            out += [(f"/p/{g['links'][seat_id]}", b) for b in bodies]
    random.Random(1).shuffle(out)
    return out


def warm(port: int, reqs: list[bytes], args) -> None:
    """Every worker loads its games and templates before anything is measured."""
    asyncio.run(closed_loop(port, reqs, args.concurrency, 0.5 if args.smoke else 1.5))


def phase(targets: dict[str, tuple[int, list[bytes]]], args, probe: DiskProbe | None = None) -> dict[str, dict]:
    """The open loop (the goal's p99), the targets side by side; then each target's closed loop
    (throughput); ``probe`` samples the disk during the orders' closed loop only, so that its writes and
    wakes are not in the open loop's latencies."""
    res = asyncio.run(open_loop(targets, args.rate, args.seconds))
    for name, (port, reqs) in targets.items():
        sampler = probe if name == "order" else None
        if sampler is not None:
            sampler.start()
        closed = asyncio.run(closed_loop(port, reqs, args.concurrency,
                                         1.0 if args.smoke else max(2.0, args.seconds / 4)))
        if sampler is not None:
            res[name]["disk"] = sampler.stop()
        res[name]["closed_rps"] = closed["rps"]
        res[name]["codes"] = {**res[name]["codes"], **{f"c{k}": v for k, v in closed["codes"].items()}}
    return res


def main(argv: list[str] | None = None) -> int:
    import shutil

    tmp = tempfile.mkdtemp(prefix="pbem-load-")
    try:
        return run(argv, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(args, db: str) -> tuple[dict[str, dict], dict, float, int]:
    """Orders and bare Flask side by side, idle and during a storm, on one database (a SQLite path or a
    URL).  (results by phase, the storm's summary, load seconds, web workers)."""
    from datetime import timedelta

    from app.models import utcnow

    app = benchlib.make_app(db, None, REPORT_ISOLATE=False)
    now = utcnow().replace(microsecond=0)
    benchlib.create_games(app, args.storm_games, now)
    tick = storm.due_instant(app)
    # the games players post to: opened later, so the storm does not resolve them
    load_games = benchlib.create_games(app, args.load_games * 2, now + timedelta(days=60))
    reqs = order_requests(app, load_games)[: args.load_games * 5]
    if not reqs:
        raise SystemExit("no game to post orders to")
    url = db if "://" in db else f"sqlite:///{db}"
    env = {"FLASK_DATABASE_URL": url, "FLASK_SECRET_KEY": benchlib.SECRET,
           "FLASK_BASE_URL": benchlib.BASE_URL, "FLASK_MAIL_SERVER": "", "FLASK_SCHEDULER_ENABLED": "false",
           "FLASK_ENV_NAME": "development"}
    order_req = [http_request(p, b) for p, b in reqs]
    hello_req = [http_request("/hello", b) for _p, b in reqs]  # the same bodies, read the same way
    results: dict[str, dict] = {}
    with Gunicorn("hello_app:app", env, chdir=HERE) as hello, Gunicorn("app:create_app()", env) as web:
        targets = {"order": (web.port, order_req), "hello": (hello.port, hello_req)}
        warm(hello.port, hello_req, args)
        warm(web.port, order_req, args)
        idle = phase(targets, args)
        results["hello idle"], results["order idle"] = idle["hello"], idle["order"]
        busy, storm_res, during_load = storm_phase(targets, args, db, tick)
        results["hello storm"], results["order storm"] = busy["hello"], busy["order"]
        web_workers = web.workers()
    return results, storm_res, during_load, web_workers


def storm_phase(targets: dict[str, tuple[int, list[bytes]]], args, db: str,
                tick) -> tuple[dict[str, dict], dict, float]:
    """``phase`` while ``storm.py`` storms ``db`` from ``tick`` (``storm.beside``).  (results by target, the
    storm's summary, seconds of load)."""
    with storm.beside(db, tick, idle_group=not args.no_idle_group, workers=args.render_workers) as storm_res:
        t_storm = time.perf_counter()
        probe = DiskProbe(os.path.dirname(db) if "://" not in db else tempfile.gettempdir())
        busy = phase(targets, args, probe)
        during_load = time.perf_counter() - t_storm
    return busy, storm_res, during_load


def report(title: str, results: dict[str, dict], storm_res: dict, during_load: float,
           args, disk: dict | None = None) -> tuple[float, list[str]]:
    """Print one database's table; (worse p99 ratio, phases with unexpected status codes).  The base of every
    ratio: bare Flask idle, measured beside this database's idle orders."""
    base = results["hello idle"]
    rows = []
    for name, r in results.items():
        rows.append([name, r["n"], f"{r['p50'] * 1000:.1f}", f"{r['p99'] * 1000:.1f}", f"{r['max'] * 1000:.1f}",
                     f"{r['p50'] / base['p50']:.2f}x", f"{r['p99'] / base['p99']:.2f}x",
                     f"{r['closed_rps']:.0f}", f"{r['closed_rps'] / base['closed_rps']:.2f}x",
                     " ".join(f"{k}:{v}" for k, v in sorted(r["codes"].items(), key=str))])
    print(title)
    print(benchlib.table(rows, ["phase", "requests", "p50 ms", "p99 ms", "max ms", "p50/hello",
                                "p99/hello", "req/s", "req/s/hello", "status codes"]))
    storm_total = storm_res.get("total", float("nan"))
    n = args.render_workers
    renders = "one render process per core" if not n else f"{n} render process{'' if n == 1 else 'es'}"
    print(f"storm beside it: {args.storm_games} games, {storm_res.get('steps', '?')} steps, "
          f"{storm_res.get('mails_received', '?')} mails in {storm_total:.1f} s "
          f"(load phase lasted {during_load:.1f} s, its open loop {args.seconds:g} s"
          f"{'' if storm_total >= args.seconds else ': the storm ended during the open loop'}), "
          f"{renders}, {storm_res.get('group', '')}")
    bad = [n for n, r in results.items() if any(str(k).lstrip("c") not in ("303", "200") for k in r["codes"])]
    if bad:
        print(f"unexpected status codes in: {', '.join(bad)}")
    idle_ratio = results["order idle"]["p99"] / base["p99"]
    storm_ratio = results["order storm"]["p99"] / base["p99"]
    print(f"p99 of an order / p99 of bare Flask: idle {idle_ratio:.2f}x, during the storm {storm_ratio:.2f}x "
          f"(goal <= {GOAL:g}x): {'ok' if max(idle_ratio, storm_ratio) <= GOAL and not bad else 'MISSED'}")
    if disk:
        floor = base["p99"] + disk["p99"]
        busy = results["order storm"].get("disk") or disk
        print(f"a commit that waits for the disk (fdatasync of 8 KiB, as this database's commit does): "
              f"p50 {disk['p50'] * 1000:.1f} ms, p99 {disk['p99'] * 1000:.1f} ms idle; during the storm p50 "
              f"{busy['p50'] * 1000:.1f} ms, p99 {busy['p99'] * 1000:.1f} ms; an order's p99 against bare "
              f"Flask's p99 plus that wait: idle {results['order idle']['p99'] / floor:.2f}x, during the storm "
              f"{results['order storm']['p99'] / (base['p99'] + busy['p99']):.2f}x")
    print()
    return max(idle_ratio, storm_ratio), bad


def run(argv: list[str] | None, tmp: str) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short phases, small storm")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="open-loop phase length (30: 300 requests to each server, enough for a p99)")
    parser.add_argument("--rate", type=float, default=10.0,
                        help="open-loop requests per second (10: a deadline-minute peak, 10x the daily average)")
    parser.add_argument("--concurrency", type=int, default=8, help="closed-loop clients")
    parser.add_argument("--storm-games", type=int, help="the storm's games (default: 4 a second of the phase, "
                        "so that it lasts the open loop)")
    parser.add_argument("--load-games", type=int, default=24)
    parser.add_argument("--database-url",
                        help="also run on PostgreSQL: a server URL (bin/start-postgres prints one); "
                             "the bench creates a database of its own there and drops it after")
    parser.add_argument("--no-idle-group", action="store_true",
                        help="run the storm in no idle CPU group (as a scheduler started from a shell)")
    parser.add_argument("--render-workers", type=int, default=0,
                        help="the storm's render processes (0: RENDER_WORKERS's default, one per core); fewer "
                             "leave a core to the web workers and make the storm longer")
    parser.add_argument("--smoke", action="store_true", help="one-second phases, a tiny storm (tests)")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.storm_games, args.load_games = 3.0, 12, 8
    if args.smoke:
        args.seconds, args.storm_games, args.load_games, args.rate = 1.0, 1, 4, 20.0
        os.environ["PBEM_BENCH_SMOKE"] = "1"
    if args.storm_games is None:
        args.storm_games = max(1, round(4 * args.seconds))
    cores = benchlib.cores()
    runs = {}
    results, storm_res, during, web_workers = measure(args, os.path.join(tmp, "load.sqlite"))
    runs["SQLite"] = (results, storm_res, during)
    if args.database_url:
        with benchlib.scratch_pg_database(args.database_url, f"pbem_load_{os.getpid()}") as url:
            runs["PostgreSQL"] = measure(args, url)[:3]
    print(f"order submission: gunicorn ({web_workers} sync workers, gunicorn.conf.py) on loopback, "
          f"{cores} cores, beside bare Flask (the same); open loop {args.rate:g}/s to each for {args.seconds:g} s, "
          f"orders and bare Flask interleaved, then {args.concurrency} clients back to back to each")
    print()
    disk = disk_wait(tmp, 50 if args.smoke else 200)
    print(f"the disk here: a write that waits for it (fdatasync of 8 KiB) takes p50 {disk['p50'] * 1000:.1f} ms, "
          f"p99 {disk['p99'] * 1000:.1f} ms")
    print()
    worst, bad = 0.0, []
    for db_name, (results, storm_res, during) in runs.items():
        ratio, wrong = report(f"{db_name}:", results, storm_res, during, args,
                              disk if db_name == "PostgreSQL" else None)
        worst, bad = max(worst, ratio), bad + wrong
    ok = worst <= GOAL and not bad
    print(f"worst p99 ratio over {' and '.join(runs)}, idle and during the storm:")
    print(f"submit_load: {worst:.2f}x bare Flask p99 (goal <= {GOAL:g}x)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
