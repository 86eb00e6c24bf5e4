"""Gunicorn settings for the web workers: ``gunicorn -c gunicorn.conf.py 'app:create_app()'``.

Worker count: 2 x CPU cores (4 on a 2-core machine), sync workers.  A request
is short (a page or one order: a write transaction of a few milliseconds), so
requests do not need more workers than that; with SQLite all writers share one
write lock anyway, and more processes would only compete with the scheduler's
render pool for the same cores.  Override with ``WEB_CONCURRENCY`` (the usual
variable) when the database is PostgreSQL or the machine has more cores.

The scheduler (``flask --app app jobs run``) is a separate process; its render
pool (``RENDER_WORKERS``, default one per core) runs at a lower CPU priority
than these workers, so players' pages stay fast during a deadline storm.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
worker_class = "sync"
timeout = 30           # a request stuck longer than this is killed (PDF downloads included)
graceful_timeout = 20
keepalive = 2
max_requests = 2000    # recycle workers now and then: bounds slow leaks
max_requests_jitter = 200
backlog = 512
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "warning")


def post_worker_init(worker):  # noqa: ANN001, ANN201 (gunicorn's hook signature)
    """Load and build what the app's requests use, then freeze it out of the garbage collector's
    full passes (``app.web.worker.start_worker``).

    The app, its games and its templates are hundreds of thousands of long-lived
    objects; without this, a worker's first full collections (during its first
    requests) scan them all and stall that request by about 100 ms, and what the
    first requests load (the games, the pages' templates) kept each later full
    collection, one every few hundred requests, at about 5 ms.
    """
    import gc

    app = getattr(worker, "wsgi", None)
    if getattr(app, "import_name", None) == "app":  # this project's app (not another app run with this file)
        from app.web.worker import start_worker

        start_worker(app)
    else:
        gc.collect()
        gc.freeze()
