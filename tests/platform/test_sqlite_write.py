"""An order's write on SQLite, sent through sqlite3 alone (``app.sqlite_driver``): what it stores reads back
through the ORM as the ORM would have stored it, it sets the all-in flag and resets the seat's ladder as
the write every database has does, it writes nothing for a step that is not open, and a write that fails
stores nothing and leaves its pooled connection with no transaction open."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import sqlite_driver
from app.db import get_engine, is_sqlite
from app.kinds import OrderSource
from app.models import Game, Order, Seat
from app.turns.orders import accept_order
from tests.platform.helpers import create_game, post_notation


@pytest.fixture
def engine(app):
    engine = get_engine(app)
    if not is_sqlite(engine):
        pytest.skip("SQLite's write (PostgreSQL's: test_order_write)")
    return engine


def _read(engine, game_id):
    with Session(engine, expire_on_commit=False) as s:
        game = s.get(Game, game_id)
        seats = {x.seat: x for x in s.exec(select(Seat).where(Seat.game_id == game_id)).all()}
        s.expunge_all()
    return game, seats


def _orders(engine, game_id):
    with Session(engine) as s:
        return [(o.seat, o.step_no, o.order, o.text, o.source, o.submitted_at)
                for o in s.exec(select(Order).where(Order.game_id == game_id).order_by(Order.id)).all()]


def test_a_posted_order_reads_back_through_the_orm(app, runner, engine):
    made = create_game(runner, "toy")
    me = made["seats"][0]
    resp = post_notation(app.test_client(), me["link"], "PICK 2")
    assert resp.status_code == 303 and "done=saved" in resp.headers["Location"]
    [(seat, step_no, order, text, source, when)] = _orders(engine, made["game"])
    assert (seat, step_no, order, text) == (me["seat"], 1, {"type": "PICK", "n": 2}, "PICK 2")
    assert source == OrderSource.WEB
    game, _seats = _read(engine, made["game"])
    assert when.tzinfo is None or when.utcoffset() == timedelta(0)
    assert abs(when.replace(tzinfo=None) - game.created_at.replace(tzinfo=None)) < timedelta(minutes=1)
    assert game.all_in is False


def test_the_last_owed_order_sets_all_in_and_resolves(app, runner, engine):
    made = create_game(runner, "toy")
    game, seats = _read(engine, made["game"])
    first, resolved = accept_order(engine, game.id, seats["A"].id, {"type": "PICK", "n": 1}, step_no=1,
                                   checked=(game, seats["A"]))
    assert first.id is not None and resolved is False
    assert _read(engine, made["game"])[0].all_in is False
    _second, resolved = accept_order(engine, game.id, seats["B"].id, {"type": "PICK", "n": 3}, step_no=1,
                                     checked=(game, seats["B"]))
    assert resolved is True, "the step was due once every owed seat had an order on file"
    assert _read(engine, made["game"])[0].step_no == 2


def test_a_players_order_resets_the_seats_ladder(app, runner, engine):
    made = create_game(runner, "toy")
    with Session(engine) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == made["game"], Seat.seat == "A")).one()
        seat.missed, seat.civil_disorder = 2, True
        s.add(seat)
        s.commit()
    game, seats = _read(engine, made["game"])
    accept_order(engine, game.id, seats["A"].id, {"type": "PICK", "n": 1}, step_no=1, checked=(game, seats["A"]))
    after = _read(engine, made["game"])[1]["A"]
    assert (after.missed, after.civil_disorder) == (0, False)


def test_an_order_for_a_step_no_longer_open_writes_nothing(app, runner, engine):
    from app.turns.orders import _store_sqlite

    made = create_game(runner, "toy")
    game, seats = _read(engine, made["game"])
    values = {"game_id": game.id, "step_no": 7, "seat": "A", "text": "PICK 1", "source": OrderSource.WEB,
              "submitted_at": game.created_at, "order": {"type": "PICK", "n": 1}}
    assert _store_sqlite(engine, game, values, seats["A"].id, reset_ladder=False) == (None, set())
    assert _orders(engine, made["game"]) == []


def test_a_failed_write_stores_nothing_and_leaves_its_connection_idle(app, runner, engine):
    from app.turns.orders import _ADD_ORDER

    made = create_game(runner, "toy")
    game, _seats = _read(engine, made["game"])
    values = {"game_id": game.id, "step_no": 1, "seat": "A", "text": "PICK 1", "source": "web",
              "submitted_at": game.created_at, "order": {"type": "PICK", "n": 1}}
    with pytest.raises(ValueError, match="after its first"), sqlite_driver.writing(engine) as write:
        assert write.first(_ADD_ORDER, values) is not None
        raise ValueError("the write fails after its first statement")
    assert _orders(engine, made["game"]) == [], "what the failed write wrote was rolled back"
    proxied = engine.raw_connection()
    try:
        assert proxied.driver_connection.in_transaction is False
    finally:
        proxied.close()
