"""An order's write: built before a worker's first order, and on PostgreSQL one call of the schema's
function that leaves its pooled connection as the pool lends it, even when it fails, and that a
database without the function yet replaces by the write every database has.  A link's read, which
either database serves through its driver alone, finds what the ORM finds.  (On SQLite the log's
checkpoint is left to another thread: ``test_checkpoint``.)"""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from app import pg_driver, sqlite_driver
from app.db import get_engine, is_sqlite, write_session
from app.models import Game, Meta, Order, Player, Seat, utcnow
from app.turns import pg_write
from app.web.language import link_seat
from app.web.worker import warm
from tests.platform.helpers import create_game, csrf_of, path_of, post_notation, step_of


def test_a_workers_first_order_compiles_no_sql(app, runner):
    """SQLAlchemy compiles a statement on its first use in a process: a worker that has just started
    builds its link read and its order write, so its first order waits for no compiler."""
    made = create_game(runner, "toy")
    engine = get_engine(app)
    engine._compiled_cache.clear()  # as in a worker process that has served nothing yet
    sqlite_driver.plan.cache_clear()
    built_plans = sqlite_driver.plan.cache_info().currsize
    warm(app)
    built = len(engine._compiled_cache)
    plans_before = sqlite_driver.plan.cache_info().currsize
    client = app.test_client()
    me = made["seats"][0]
    page = client.get(path_of(me["link"])).get_data(as_text=True)
    before = len(engine._compiled_cache)  # the page's own reads are not an order's
    resp = client.post(path_of(me["link"]), data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                                  "notation": "PICK 2"})
    assert resp.status_code == 303
    assert len(engine._compiled_cache) == before, "the order compiled SQL of its own"
    if is_sqlite(engine):  # both go through the driver alone, compiled by the worker's start
        assert built_plans < sqlite_driver.plan.cache_info().currsize == plans_before
    else:
        assert built >= 1 or pg_driver.direct(engine)


def _pg_only(app):
    engine = get_engine(app)
    if is_sqlite(engine) or not pg_driver.direct(engine):
        pytest.skip("the function's write is PostgreSQL's (TEST_DATABASE_URL)")
    return engine


def _values(game_id: int, **extra):
    return {"game_id": game_id, "step_no": 1, "seat": "a", "text": "PICK 1", "source": "web",
            "submitted_at": utcnow(), "order": {"type": "PICK", "n": 1}, **extra}


def _lent(engine):
    proxied = engine.raw_connection()
    try:
        conn = proxied.driver_connection
        return conn.autocommit, conn.info.transaction_status.name
    finally:
        proxied.close()


def test_a_workers_start_prepares_its_hot_statements_on_the_server(app, runner):
    """PostgreSQL plans a statement each time it is sent unprepared, and the driver prepares one only
    after a few uses: a worker's start leaves the link read and the order write prepared on its pooled
    connection, so that its first orders (after every restart) are not planned one by one."""
    engine = _pg_only(app)
    create_game(runner, "toy")
    engine.dispose()  # as in a worker that has served nothing: no pooled connection yet
    warm(app)
    proxied = engine.raw_connection()  # the pool lends the connection given back last: the warm one
    try:
        rows = proxied.driver_connection.execute("SELECT statement FROM pg_prepared_statements").fetchall()
    finally:
        proxied.close()
    prepared = " ".join(row[0] for row in rows)
    assert "token_hash" in prepared, "the link's read is not prepared"
    assert "pbem_store_order" in prepared, "the order's write is not prepared"


def test_an_order_written_in_one_call_leaves_its_connection_as_lent(app, runner):
    engine = _pg_only(app)
    made = create_game(runner, "toy")
    added, have = pg_write.store_order(engine, _values(made["game"]), ["a", "b"], seat_pk=0, reset_ladder=True)
    assert added is not None and have == {"a"}
    assert _lent(engine) == (False, "IDLE")
    with write_session(engine) as session:  # the next transaction on it is one: a rollback undoes it
        session.add(Meta(key="probe", value="x"))
        session.flush()
        session.rollback()
    with Session(engine) as s:
        assert s.get(Meta, "probe") is None
        assert [o.seat for o in s.exec(select(Order).where(Order.game_id == made["game"])).all()] == ["a"]


def test_a_failed_write_stores_nothing_and_leaves_its_connection_usable(app, runner):
    engine = _pg_only(app)
    made = create_game(runner, "toy")
    with pytest.raises(Exception, match="(?i)timestamp|datetime|invalid"):
        pg_write.store_order(engine, _values(made["game"], submitted_at="not a time"), ["a", "b"], seat_pk=0,
                             reset_ladder=False)
    assert _lent(engine) == (False, "IDLE")
    with Session(engine) as s:
        assert s.exec(select(Order).where(Order.game_id == made["game"])).all() == []
    added, _have = pg_write.store_order(engine, _values(made["game"]), ["a", "b"], seat_pk=0, reset_ladder=False)
    assert added is not None


def test_a_links_read_through_the_driver_finds_what_the_orm_finds(app, runner):
    """On either database (``pg_driver``, ``sqlite_driver``): dates, JSON and flags as the ORM reads them."""
    engine = get_engine(app)
    made = create_game(runner, "toy")
    path = path_of(made["seats"][1]["link"])
    token = path.rsplit("/", 1)[-1]
    with app.test_request_context(path):
        found = link_seat(token)
    with app.test_request_context("/p/" + "x" * 22):
        assert link_seat("x" * 22) is None
    if not is_sqlite(engine):
        assert _lent(engine) == (False, "IDLE")
    assert found is not None
    with Session(engine) as s:
        seat = s.get(Seat, found.seat.id)
        game = s.get(Game, made["game"])
        player = s.get(Player, seat.player_id)
        assert seat is not None and game is not None and player is not None
        assert found.seat.model_dump() == seat.model_dump() and found.seat.seat == made["seats"][1]["seat"]
        assert found.game.model_dump() == game.model_dump() and found.game.owed
        assert (found.player_id, found.language) == (player.id, player.language)


def test_the_function_sets_all_in_when_the_last_owed_seat_orders(app, runner):
    engine = _pg_only(app)
    made = create_game(runner, "toy")
    first, have = pg_write.store_order(engine, _values(made["game"]), ["a", "b"], seat_pk=0, reset_ladder=False)
    assert first is not None and have == {"a"}
    with Session(engine) as s:
        assert s.get(Game, made["game"]).all_in is False
    second, have = pg_write.store_order(engine, _values(made["game"], seat="b"), ["a", "b"], seat_pk=0,
                                        reset_ladder=False)
    assert second is not None and have == {"a", "b"}
    closed = pg_write.store_order(engine, _values(made["game"], step_no=7), ["a", "b"], seat_pk=0, reset_ladder=False)
    assert closed == (None, set()), "an order for a step that is not open is not written"
    with Session(engine) as s:
        assert s.get(Game, made["game"]).all_in is True
        assert len(s.exec(select(Order).where(Order.game_id == made["game"])).all()) == 2


def test_a_database_without_the_function_still_takes_orders(app, runner):
    """A database not yet upgraded (the code updated, ``init-db`` not run yet): the order is stored by the
    write every database has, and the page says so as usual."""
    from sqlalchemy import text

    from app.pg_schema import DROP_ORDER_FUNCTION, ORDER_FUNCTION

    engine = _pg_only(app)
    made = create_game(runner, "toy")
    with engine.begin() as conn:
        conn.execute(text(DROP_ORDER_FUNCTION))
    try:
        assert pg_write.store_order(engine, _values(made["game"]), ["a", "b"], seat_pk=0,
                                    reset_ladder=False) == pg_write.NOT_INSTALLED
        assert _lent(engine) == (False, "IDLE")
        resp = post_notation(app.test_client(), made["seats"][0]["link"], "PICK 2")
        assert resp.status_code == 303 and "done=saved" in resp.headers["Location"]
        with Session(engine) as s:
            assert [o.text for o in s.exec(select(Order).where(Order.game_id == made["game"])).all()] == ["PICK 2"]
    finally:
        with engine.begin() as conn:
            conn.execute(text(ORDER_FUNCTION))


def test_an_orders_post_takes_one_pooled_connection_for_its_read_and_its_write(app, runner):
    """On PostgreSQL the link's read and the order's write share the connection lent to the request, which
    goes back to the pool when the request ends, as the pool lends it."""
    from sqlalchemy import event

    engine = _pg_only(app)
    made = create_game(runner, "toy")
    client = app.test_client()
    me = made["seats"][0]
    page = client.get(path_of(me["link"])).get_data(as_text=True)
    checkouts: list[int] = []

    def count(*_args):
        checkouts.append(1)

    event.listen(engine, "checkout", count)
    try:
        resp = client.post(path_of(me["link"]), data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                                      "notation": "PICK 2"})
    finally:
        event.remove(engine, "checkout", count)
    assert resp.status_code == 303 and "done=saved" in resp.headers["Location"]
    assert len(checkouts) == 1, "the read and the write each took a connection"
    assert engine.pool.checkedout() == 0
    assert _lent(engine) == (False, "IDLE")
    with Session(engine) as s:
        assert [o.text for o in s.exec(select(Order).where(Order.game_id == made["game"])).all()] == ["PICK 2"]


def test_a_statement_that_fails_in_a_request_gives_its_connection_back_at_once(app):
    engine = _pg_only(app)
    with app.test_request_context("/"):
        with pytest.raises(Exception, match="(?i)division"), pg_driver.lent(engine) as conn:
            conn.execute("SELECT 1 / 0")
        assert engine.pool.checkedout() == 0, "a connection that failed stays lent to the request"
        with pg_driver.lent(engine) as conn:
            assert conn.execute("SELECT 2").fetchone() == (2,)
        assert engine.pool.checkedout() == 1  # kept for the rest of the request
    assert engine.pool.checkedout() == 0
    assert _lent(engine) == (False, "IDLE")
