"""Where a PostgreSQL order's time goes, idle and during a deadline storm: its read and its write, each timed.

    python bench/order_parts.py --database-url postgresql+psycopg://pbem:pbem@127.0.0.1:5432/postgres
                                [--quick] [--orders N] [--gap S] [--storm-games N] [--render-workers N]

In this process, without HTTP: a web worker's application (built and frozen as
gunicorn's hook builds it) on a PostgreSQL database of its own (created and
dropped), and orders POSTed to ``/p/<token>`` through Flask's test client, one
every ``--gap`` seconds (0.1 by default; at 10 orders a second over four web
workers, a worker sees one every 0.4 s).  First with the machine idle, then
while ``storm.py`` storms the same database in a separate process, in an idle
CPU group as the scheduler's unit runs it (as ``submit_load.py`` does).

Each order's whole post is timed, and inside it the link's read (one statement,
``pg_driver.fetch_one``) and the order's write (one statement, the schema's
function ``pbem_store_order``, whose commit waits for the disk:
``pg_write.store_order``).  And for each order, the time this process (the web
worker) and the database server's process that answered it spent runnable but
waiting for a core (``cpuwait`` and ``dbcpuwait``: the kernel's run-queue wait,
``/proc/PID/schedstat``; the server's only when it runs on this machine and its
processes can be read).  ``submit_load.py`` says whether orders meet their goal
over HTTP; this says which part of an order a storm slows, and how much of the
slowest orders' time was spent waiting for a core rather than working.  No goal:
the last line is the write's p90 during the storm against its p90 idle.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib  # noqa: E402
import storm  # noqa: E402

benchlib.ensure_env()

PARTS = ("post", "read", "write", "cpuwait", "dbcpuwait")
#: the sizes ``--quick`` and ``--smoke`` set
MODES = {"quick": {"orders": 60, "storm_games": 30, "load_games": 8},
         "smoke": {"orders": 10, "storm_games": 1, "load_games": 4, "gap": 0.02}}


class Timed:
    """Wraps a module's function so that each call's time is kept under ``name``."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {part: [] for part in PARTS}

    def wrap(self, module, attr: str, name: str) -> None:
        inner = getattr(module, attr)

        def timed(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.times[name].append(time.perf_counter() - t0)

        setattr(module, attr, timed)

    def backend(self, module) -> None:
        """Keep the server process's id of the connection each read uses (``pg_driver._first``)."""
        inner = module._first

        def first(conn, *args, **kwargs):
            self.backend_pid = conn.info.backend_pid
            return inner(conn, *args, **kwargs)

        self.backend_pid = 0
        module._first = first

    def clear(self) -> None:
        for values in self.times.values():
            values.clear()


def quantiles(values: list[float]) -> list[str]:
    """p50, p90, p99 and max in milliseconds."""
    v = sorted(values)
    n = len(v)
    return [f"{v[min(n - 1, int(n * q))] * 1000:.2f}" for q in (0.5, 0.9, 0.99)] + [f"{v[-1] * 1000:.2f}"]


def cpu_wait(pid: int | str) -> float | None:
    """Seconds the process (its main thread) has so far spent runnable but waiting for a core, or None
    when the kernel does not say (no such process, not ours to read, no scheduler statistics)."""
    try:
        with open(f"/proc/{pid}/schedstat") as fh:
            return int(fh.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def post_orders(client, reqs: list[tuple[str, bytes]], n: int, gap: float, timed: Timed) -> dict[str, list[float]]:
    """``n`` orders, ``gap`` seconds apart; the times of each part."""
    timed.clear()
    for i in range(n):
        path, body = reqs[i % len(reqs)]
        time.sleep(gap)
        backend = timed.backend_pid
        w0, b0 = cpu_wait("self"), cpu_wait(backend) if backend else None
        t0 = time.perf_counter()
        res = client.post(path, data=body, content_type="application/x-www-form-urlencoded")
        timed.times["post"].append(time.perf_counter() - t0)
        w1, b1 = cpu_wait("self"), cpu_wait(backend) if backend else None
        if w0 is not None and w1 is not None:
            timed.times["cpuwait"].append(w1 - w0)
        if b0 is not None and b1 is not None and timed.backend_pid == backend:  # the same server process
            timed.times["dbcpuwait"].append(b1 - b0)
        if res.status_code not in (200, 303):
            raise SystemExit(f"an order was answered {res.status_code}: {res.get_data(as_text=True)[:300]}")
    return {part: list(values) for part, values in timed.times.items()}


def storm_phase(client, reqs, args, url: str, tick, timed: Timed) -> tuple[dict[str, list[float]], str]:
    """``post_orders`` while ``storm.py`` storms ``url`` (``storm.beside``); (the times, the storm's summary line)."""
    with storm.beside(url, tick, idle_group=not args.no_idle_group, workers=args.render_workers) as res:
        times = post_orders(client, reqs, args.orders, args.gap, timed)
    games = f"{args.storm_games} game{'' if args.storm_games == 1 else 's'}"
    return times, (f"{games}, {res.get('steps', '?')} steps resolved, {res.get('mails_received', '?')} mails "
                   f"in {res.get('total', float('nan')):.1f} s, {res['group']}")


def measure(args, url: str) -> tuple[dict[str, dict[str, list[float]]], str]:
    """(the parts' times by phase, idle and storm; the storm's summary)."""
    # deferred, as in the other benches: the application and the bench modules after ``ensure_env``
    from submit_load import order_requests

    from app import pg_driver
    from app.models import utcnow
    from app.turns import pg_write
    from app.web import language
    from app.web.worker import start_worker

    app = benchlib.make_app(url, None, REPORT_ISOLATE=False)
    now = utcnow().replace(microsecond=0)
    benchlib.create_games(app, args.storm_games, now)
    tick = storm.due_instant(app)
    load_games = benchlib.create_games(app, args.load_games, now + timedelta(days=60))  # not the storm's
    reqs = order_requests(app, load_games)
    if not reqs:
        raise SystemExit("no game to post orders to")
    start_worker(app)
    timed = Timed()
    timed.wrap(language, "_link_row", "read")
    timed.wrap(pg_write, "store_order", "write")
    timed.backend(pg_driver)
    client = app.test_client()
    post_orders(client, reqs, min(len(reqs) * 2, 100), 0.0, timed)  # warm, as a worker's first requests
    results = {"idle": post_orders(client, reqs, args.orders, args.gap, timed)}
    results["storm"], summary = storm_phase(client, reqs, args, url, tick, timed)
    return results, summary


def slowest(phase: str, times: dict[str, list[float]]) -> str:
    """A line on the phase's slowest 1% of orders (at least one): their time, and how much of it this
    process waited for a core."""
    posts = times["post"]
    k = max(1, len(posts) // 100)
    worst = sorted(range(len(posts)), key=posts.__getitem__, reverse=True)[:k]
    mean = sum(posts[i] for i in worst) / k
    line = f"{phase}: the slowest {k} order{'' if k == 1 else 's'} took {mean * 1000:.2f} ms"
    line += "" if k == 1 else " on average"
    waits = times["cpuwait"]
    if len(waits) == len(posts):
        line += (f", {sum(waits[i] for i in worst) / k * 1000:.2f} ms of it waiting for a core "
                 f"(the median order {sorted(posts)[len(posts) // 2] * 1000:.2f} ms, "
                 f"{sorted(waits)[len(waits) // 2] * 1000:.2f} ms waiting)")
    else:
        line += " (this machine does not say how long a process waited for a core)"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", required=True,
                        help="a PostgreSQL server's URL (bin/start-postgres prints one); the bench creates a "
                             "database of its own there and drops it after")
    parser.add_argument("--orders", type=int, default=250, help="orders a phase (250: a p99 of the 3rd slowest)")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between orders")
    parser.add_argument("--storm-games", type=int, default=120, help="the storm's games (it outlasts the orders)")
    parser.add_argument("--load-games", type=int, default=24)
    parser.add_argument("--render-workers", type=int, default=0, help="the storm's render processes (0: cores)")
    parser.add_argument("--no-idle-group", action="store_true", help="run the storm in no idle CPU group")
    parser.add_argument("--quick", action="store_true", help="60 orders a phase, a 30-game storm")
    parser.add_argument("--smoke", action="store_true", help="a few orders, a one-game storm (tests)")
    args = parser.parse_args(argv)
    for mode, sizes in MODES.items():
        if getattr(args, mode):
            vars(args).update(sizes)
    if args.smoke:
        os.environ["PBEM_BENCH_SMOKE"] = "1"  # the storm's process warms no render pool
    if "postgresql" not in args.database_url:
        raise SystemExit("order_parts measures PostgreSQL's round trips: --database-url postgresql+psycopg://...")
    with benchlib.scratch_pg_database(args.database_url, f"pbem_parts_{os.getpid()}") as url:
        results, summary = measure(args, url)
    print(f"orders in this process on PostgreSQL, {args.orders} a phase, one every {args.gap:g} s; "
          f"the storm beside the second phase: {summary}")
    print()
    rows = [[f"{phase} {part}", len(times[part]), *quantiles(times[part])]
            for phase, times in results.items() for part in PARTS if times[part]]
    print(benchlib.table(rows, ["part", "n", "p50 ms", "p90 ms", "p99 ms", "max ms"]))
    print()
    for phase, times in results.items():
        print(slowest(phase, times))
    p90 = {phase: float(quantiles(times["write"])[1]) for phase, times in results.items()}
    read90 = {phase: float(quantiles(times["read"])[1]) for phase, times in results.items()}
    print(f"order_parts: the write's p90 during the storm {p90['storm'] / p90['idle']:.2f}x idle "
          f"(the read's {read90['storm'] / read90['idle']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
