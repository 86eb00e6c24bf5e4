"""Shared pieces of the benchmarks: an app on a temp database, an SMTP sink, an RSS sampler,
the game mix and the render floor.

Absolute times on shared machines are noise; every bench measures its floor in
the same run and prints ratios.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from smtp_sink import Sink, SmtpServer, free_port  # noqa: F401 (the benches' SMTP server, a process of its own)

ROOT = Path(__file__).resolve().parent.parent


def ensure_env() -> None:
    """Run under the project's virtualenv with the project importable."""
    venv_python = ROOT / ".venv" / "bin" / "python"
    try:
        import flask  # noqa: F401
        import weasyprint  # noqa: F401
    except ImportError:
        if venv_python.exists() and Path(sys.executable).resolve() != venv_python.resolve():
            os.execv(str(venv_python), [str(venv_python), *sys.argv])
        raise
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    pp = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in pp.split(os.pathsep):  # child processes (forkserver, gunicorn) too
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), pp) if p)


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


SECRET = "bench-secret-key-0123456789abcdef"
BASE_URL = "https://pbem.example.org"


def app_config(db_path: str, smtp_port: int | None = None, **extra: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "SECRET_KEY": SECRET,
        "DATABASE_URL": db_path if "://" in db_path else f"sqlite:///{db_path}",  # a path or a database URL
        "BASE_URL": BASE_URL,
        "MAIL_SERVER": "127.0.0.1" if smtp_port else "",
        "MAIL_PORT": smtp_port or 25,
        "DEV_MAILBOX": False,
    }
    cfg.update(extra)
    return cfg


def make_app(db_path: str, smtp_port: int | None = None, create: bool = True, **extra: Any):
    from app import create_app
    from app.db import create_all, get_engine

    app = create_app(app_config(db_path, smtp_port, **extra))
    if create:
        with app.app_context():
            create_all(get_engine())
    return app


# --------------------------------------------------------------------------- memory


def _children(pid: int) -> list[int] | None:
    """A process's children from /proc/<pid>/task/*/children (None where the kernel lacks it)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    out: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out += [int(c) for c in fh.read().split()]
        except FileNotFoundError:
            return None
        except OSError:
            continue
    return out


def _tree(root: int) -> list[int]:
    """The process and its descendants (cheap: asks each of them for its children)."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        kids = _children(pid)
        if kids is None:
            return _tree_by_scan(root)
        out.append(pid)
        todo.extend(kids)
    return out


def _tree_by_scan(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                data = fh.read()
        except OSError:
            continue
        ppid = int(data[data.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            data = fh.read()
    except OSError:
        return 0.0
    fields = data[data.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class RssSampler(threading.Thread):
    """Peak of the summed RSS of a process tree (this process and all its descendants by default),
    and the CPU time each process of the tree used while it was sampled; the bench's own helpers
    (``exclude``: its SMTP server) are left out with their descendants."""

    def __init__(self, roots: list[int] | None = None, every: float = 0.25, exclude: list[int] | None = None) -> None:
        super().__init__(daemon=True)
        self.roots = roots or [os.getpid()]
        self.exclude = exclude or []
        self.every = every
        self.peak_kib = 0
        self.peak_procs = 0
        self.own_cpu = 0.0
        self._cpu_start: dict[int, float] = {}
        self._cpu_last: dict[int, float] = {}
        self._halt = threading.Event()

    def sample(self) -> int:
        pids = {p for r in self.roots for p in _tree(r)} - {p for r in self.exclude for p in _tree(r)}
        total = sum(rss_kib(p) for p in pids)
        for p in pids:
            used = cpu_seconds(p)
            self._cpu_start.setdefault(p, used)
            self._cpu_last[p] = max(used, self._cpu_last.get(p, 0.0))
        if total > self.peak_kib:
            self.peak_kib, self.peak_procs = total, len(pids)
        return total

    def run(self) -> None:
        started = time.thread_time()
        while not self._halt.is_set():
            self.sample()
            self.own_cpu = time.thread_time() - started  # the sampler's own reading of /proc
            self._halt.wait(self.every)

    def stop(self) -> None:
        self._halt.set()
        self.join()
        self.sample()

    def cpu(self) -> tuple[float, float]:
        """CPU seconds used while sampled: (the roots, their descendants); a process's last
        sample counts (a short-lived child between two samples is missed)."""
        used = {p: self._cpu_last[p] - self._cpu_start[p] for p in self._cpu_last}
        mine = sum(used.get(r, 0.0) for r in self.roots)
        return max(0.0, mine - self.own_cpu), sum(used.values()) - mine


# --------------------------------------------------------------------------- the game mix

#: (slug, options, human players); seats beyond the humans are bots.  2-6 seats each.
MIX: list[tuple[str, dict[str, Any], int]] = [
    ("dual_powers", {}, 2),
    ("conquest", {"players": 2}, 2),
    ("duel", {}, 2),
    ("empire", {"players": 3}, 3),
    ("conquest", {"players": 4}, 3),
    ("empire", {"players": 4}, 4),
    ("conquest", {"players": 6}, 4),
    ("duel", {}, 1),
    ("conquest", {"players": 3}, 3),
    ("empire", {"players": 2}, 2),
    ("dual_powers", {}, 1),
    ("conquest", {"players": 5}, 2),
]


def mix(n: int) -> list[tuple[str, dict[str, Any], int]]:
    from app.games import all_games

    known = all_games()
    entries = [m for m in MIX if m[0] in known]
    for slug in known:  # a game registered later still takes part
        if slug not in {m[0] for m in entries}:
            entries.append((slug, {}, 1))
    return [entries[i % len(entries)] for i in range(n)]


def create_games(app: Any, n: int, now: Any, hours: float = 1.0) -> list[dict[str, Any]]:
    """Create ``n`` games of the mix; the invitations are marked sent (they are not the storm's)."""
    from sqlalchemy import update

    from app import turns
    from app.db import get_engine, write_session
    from app.models import OutboxMail

    out = []
    with app.app_context():
        engine = get_engine()
        for i, (slug, options, humans) in enumerate(mix(n)):
            emails = [f"g{i}p{k}@players.example.org" for k in range(humans)]
            with write_session(engine) as session:
                new = turns.create_game(session, slug, emails, options=options, hours=hours, bots=True, now=now)
                out.append({"game": new.game.id, "slug": slug, "links": new.links})
        with write_session(engine) as session:
            session.execute(update(OutboxMail).where(OutboxMail.status == "pending").values(status="sent"))
    return out


# --------------------------------------------------------------------------- floor


def static_html(app: Any, context: dict[str, Any], link: str) -> str:
    """A report frozen as a static page: the HTML (size, SVG board, QR code) of that report whole.

    Whole: the board drawn in the page, as when every seat's report is one
    document (the platform now draws the map page once per step and joins it).
    """
    from app.report_html import render_html

    whole = {k: v for k, v in context.items() if k != "public_view"}
    with app.app_context():
        return render_html(whole, link)


def render_step(contexts: list[dict], link: str) -> None:
    """A step's reports as the platform renders them: each shared map page once, then each seat's pages."""
    from app.reports import render_pdf

    maps: dict[str, bytes] = {}
    for ctx in contexts:
        render_pdf(ctx, link, maps)


def render_static(html: str) -> bytes:
    """The floor: WeasyPrint alone on a static page (same fetcher as reports, no templates, no app)."""
    import weasyprint

    from app.render_env import ASSET_SCHEME, asset_fetcher

    doc = weasyprint.HTML(string=html, base_url=ASSET_SCHEME + "/", url_fetcher=asset_fetcher())
    return doc.write_pdf(attachments=[], pdf_identifier=None) or b""


def timed(fn: Any, *args: Any, repeat: int = 1) -> float:
    """Median wall time of ``fn(*args)`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))
    return values[k]


def table(rows: list[list[Any]], header: list[str]) -> str:
    cells = [[str(c) for c in header]] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in r]
                                          for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _render_static_timed(html: str) -> float:
    t = time.perf_counter()
    render_static(html)
    return time.perf_counter() - t


def _warm_static(html: str) -> None:
    render_static(html)


def _nice(n: int) -> None:
    if n > 0:
        os.nice(n)


def parallel_floor(pages: list[str], procs: int, nice: int = 0, warm: bool = True) -> float:
    """Wall seconds for ``procs`` plain processes (WeasyPrint alone) to render ``pages``.

    The side-by-side floor of a parallel job: on a machine that other work is
    also using, this is what ``cores`` renderers really get.
    """
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(procs, initializer=_nice, initargs=(nice,)) as pool:  # same priority as render workers
        if warm:
            pool.map(_warm_static, pages[:procs], chunksize=1)  # fonts and caches, in every process
        t = time.perf_counter()
        pool.map(_render_static_timed, pages, chunksize=1)
        return time.perf_counter() - t


# --------------------------------------------------------------------------- PostgreSQL


def fresh_pg_database(base: str, name: str) -> str:
    """A new, empty PostgreSQL database beside ``base`` (a URL such as ``bin/start-postgres`` prints)."""
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(base)
    dsn = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return admin.set(database=name).render_as_string(hide_password=False)


@contextlib.contextmanager
def scratch_pg_database(base: str, name: str) -> Iterator[str]:
    """A new PostgreSQL database for one run (``fresh_pg_database``), its URL; on leaving, this process's
    engine on it is disposed and the database dropped."""
    url = fresh_pg_database(base, name)
    try:
        yield url
    finally:
        from app.db import _engines  # deferred: the application is imported after ``ensure_env``

        engine = _engines.pop(url, None)
        if engine is not None:
            engine.dispose()
        drop_pg_database(base, name)


def drop_pg_database(base: str, name: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    dsn = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
