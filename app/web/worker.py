"""A web worker's start (``gunicorn.conf.py``): what its requests use, built before the first one.

Each full collection of the garbage collector scans every object not frozen.  What a worker's
first requests load (a game's rules, the pages' templates, the database driver) is long-lived;
loaded after the heap was frozen, it stayed in those scans, and a full collection every few
hundred requests then held an order about 5 ms.  So a worker builds it all first, then freezes.
"""

from __future__ import annotations

import logging

from flask import Flask
from sqlalchemy.orm import configure_mappers

from app.db import get_engine
from app.priority import settle_heap
from app.turns.orders import build_statements
from app.web.language import link_seat

log = logging.getLogger(__name__)


def warm(web: Flask) -> None:
    """What the first requests would build, built now: every template compiled, the ORM's mappers
    configured, the database's engine and driver loaded with a first pooled connection, the SQL of a
    link's read and of an order's write compiled (SQLAlchemy compiles a statement on its first use:
    several milliseconds of a worker's first order) and, on PostgreSQL, prepared on that connection
    (measured in-process, orders 0.4 s apart: a new worker's first ten orders took 5.5 ms on average
    when the server planned each one, 4.6 ms prepared), and the home page served once (the request
    machinery's first use).  Nothing here may keep a worker
    from starting: what fails now fails again, and is reported, when a request asks for it."""
    try:
        for template in web.jinja_env.list_templates():
            web.jinja_env.get_template(template)
        configure_mappers()
        with web.app_context():
            build_statements(get_engine())  # an order's write
        nobody = "x" * 22  # a token that finds nothing
        with web.test_request_context(f"/p/{nobody}"):
            link_seat(nobody)  # the read behind every link
        web.test_client().get("/")
    except Exception as exc:  # noqa: BLE001 (whatever it is, the worker still starts)
        log.warning("could not warm the web worker: %s", exc)


def start_worker(web: Flask) -> None:
    """Warm the worker, load every game, then freeze what is loaded (``priority.settle_heap``)."""
    warm(web)
    settle_heap()
