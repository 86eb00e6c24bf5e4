"""Storing orders: for the open step (``submit_order``) or sent at any time (``submit_anytime``).

Who commits: ``submit_order`` and ``submit_anytime`` take a session inside a
write transaction (``db.write_session``) and only flush; their caller commits.
``accept_order`` and ``accept_anytime`` take the engine, store the order in a
write transaction of their own (committed), then resolve what became due
(``resolve.process_game``, which commits its own transactions).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import sqlite_driver
from app.db import Encoded, detached, is_sqlite, write_session
from app.games import get_rules
from app.games.base import IllegalOrder, Rules, step_rng
from app.games.base import Order as OrderData
from app.i18n.terms import N_
from app.kinds import PLAYER_SOURCES, GameStatus, OrderSource, StepKind
from app.models import Game, Order, Seat, Step, utcnow
from app.pg_driver import direct
from app.turns import pg_write
from app.turns.pg_write import NOT_INSTALLED
from app.turns.resolve import close_step, process_game
from app.turns.store import StepClosed, current_orders, id_of, locked_game, update_all_in

#: the platform's answer when a seat sends something at any time and nothing is offered
NOTHING_TO_SEND = {"platform": N_("There is nothing you can send now."), "args": {}}


def step_kind(step: Step) -> StepKind:
    """How a closed step closed: resolved, or by an order sent at any time."""
    return StepKind.ANYTIME if step.orders and StepKind.ANYTIME in step.orders else StepKind.RESOLVED


def submit_order(
    session: Session,
    game: Game,
    seat: Seat,
    order: OrderData,
    *,
    step_no: int | None = None,
    text: str = "",
    source: OrderSource | str = OrderSource.WEB,
    now: datetime | None = None,
    locked: bool = False,
) -> Order:
    """Validate and store an order for the open step (changes nothing if illegal); flushes, the caller commits.

    An order for an older ``step_no`` is taken for the open step when only orders sent at
    any time closed the steps between and the seat's decision is unchanged
    (``decision_unchanged``).  ``locked``: the caller loaded ``game`` in this write
    transaction with its row locked (``locked_game``), so it is current already.

    :raises StepClosed: the game moved past ``step_no`` or the seat owes nothing now.
    :raises IllegalOrder: the game's rules refuse the order.
    """
    now = now or utcnow()
    if not locked:
        # lock the game row: a resolution running at the same moment either finishes
        # first (and we see the new step) or waits for us (and sees this order)
        session.exec(select(Game).where(Game.id == game.id).with_for_update()).one()
        session.refresh(game)
    if game.status != GameStatus.RUNNING:
        raise StepClosed(game.step_no)
    if step_no is not None and step_no != game.step_no and not decision_unchanged(session, game, seat.seat, step_no):
        raise StepClosed(game.step_no)
    if seat.seat not in game.owed:
        raise StepClosed(game.step_no)
    rules = get_rules(game.slug)
    rules.validate(game.state, seat.seat, order)
    if not text:
        text = rules.format(order)
    row = _order_row(session, game, seat, order, text, source, now)
    session.add(seat)
    session.flush()
    update_all_in(session, game)
    return row


def _order_row(session: Session, game: Game, seat: Seat, order: OrderData, text: str, source: OrderSource | str,
               now: datetime) -> Order:
    """Store the seat's order for the open step; an order from the player restarts the missed-deadline ladder."""
    row = Order(game_id=id_of(game), step_no=game.step_no, seat=seat.seat, order=order, text=text,
                source=source, submitted_at=now)
    session.add(row)
    if source in PLAYER_SOURCES:  # the player is here: the ladder starts again
        seat.missed = 0
        seat.civil_disorder = False
        session.add(seat)
    return row


def _accept(engine: Engine, game_id: int, seat_pk: int, closed: int, max_attempts: int,
            store: Callable[[Session, Game, Seat], tuple[Order, bool]]) -> tuple[Order, bool]:
    """``store`` the order in a write transaction of its own (committed), then resolve the game if
    ``store`` said a step may be due; the stored order and whether a step resolved."""
    with write_session(engine) as session:
        game = locked_game(session, game_id)
        seat = session.get(Seat, seat_pk)
        if game is None or seat is None or seat.game_id != game_id:
            raise StepClosed(closed)
        row, due = store(session, game, seat)
    return row, due and process_game(engine, game_id, utcnow(), max_attempts=max_attempts) > 0


def accept_order(engine: Engine, game_id: int, seat_pk: int, order: OrderData, *, step_no: int, text: str = "",
                 source: OrderSource | str = OrderSource.WEB, max_attempts: int = 5,
                 checked: tuple[Game, Seat] | None = None) -> tuple[Order, bool]:
    """Store an order (web form or mail) and resolve the step at once if it is now due.

    Commits: the order in a write transaction of its own, then each resolved step (``process_game``).
    Returns the stored order and whether the step resolved.

    ``checked``: the game and seat as the caller read them just before (a page's request).
    When that game is at ``step_no``, the order is validated against it before the write
    transaction, and the transaction only checks that the step is still open (a game's
    state and owed seats change only with its step number) and writes the order: the
    write lock is held for a few statements.

    :raises StepClosed: the step is no longer open.
    :raises IllegalOrder: the rules refuse the order (nothing is stored).
    """
    if checked is not None and checked[0].step_no == step_no and checked[0].id == game_id:
        stored = _store_checked(engine, checked[0], checked[1], order, text, OrderSource(source))
        if stored is not None:
            row, due = stored
            return row, due and process_game(engine, game_id, utcnow(), max_attempts=max_attempts) > 0

    def store(session: Session, game: Game, seat: Seat) -> tuple[Order, bool]:
        row = submit_order(session, game, seat, order, step_no=step_no, text=text, source=source, locked=True)
        return row, game.all_in and (game.resolve_early or len(game.owed) == 1)

    return _accept(engine, game_id, seat_pk, step_no, max_attempts, store)


_GAME = Game.__table__  # type: ignore[attr-defined]
_ORDER = Order.__table__  # type: ignore[attr-defined]
_SEAT = Seat.__table__  # type: ignore[attr-defined]
#: an order's short write, in statements built once.  First the order, inserted only while its step is the
#: game's open step, in one statement that locks the game's row on PostgreSQL (a resolution then either
#: committed before, and nothing is inserted, or waits for this order); then the seats with an order on file
#: for the step (a statement of its own: on PostgreSQL it sees the orders committed while this one waited for
#: the lock), the seat's ladder, the all-in flag
_ADD_ORDER = insert(_ORDER).from_select(
    ["game_id", "step_no", "seat", "order", "text", "source", "submitted_at"],
    select(_GAME.c.id, _GAME.c.step_no, bindparam("seat", type_=_ORDER.c.seat.type),  # type: ignore[call-overload]
           bindparam("order", type_=_ORDER.c.order.type), bindparam("text", type_=_ORDER.c.text.type),
           bindparam("source", type_=_ORDER.c.source.type),
           bindparam("submitted_at", type_=_ORDER.c.submitted_at.type))
    .where(_GAME.c.id == bindparam("game_id"), _GAME.c.step_no == bindparam("step_no"),
           _GAME.c.status == GameStatus.RUNNING.value)
    .with_for_update()).returning(_ORDER.c.id)
_SEATS_IN = select(_ORDER.c.seat).where(_ORDER.c.game_id == bindparam("game_id"),
                                        _ORDER.c.step_no == bindparam("step_no")).distinct()
_RESET_LADDER = (update(_SEAT)
                 .where(_SEAT.c.id == bindparam("seat_pk"), or_(_SEAT.c.missed != 0, _SEAT.c.civil_disorder))
                 .values(missed=0, civil_disorder=False))
_SET_ALL_IN = update(_GAME).where(_GAME.c.id == bindparam("game_id"), _GAME.c.all_in.is_(False)).values(all_in=True)


def _store_checked(engine: Engine, game: Game, seat: Seat, order: OrderData, text: str,
                   source: OrderSource) -> tuple[Order, bool] | None:
    """Store an order validated against ``game`` as read before, if its step is still the open one.

    (the stored order, whether the step may be due now), or None when the game moved on
    meanwhile (the caller takes the full path, which tells a closed step from an
    unchanged decision).
    """
    if game.status != GameStatus.RUNNING or seat.seat not in game.owed or seat.game_id != game.id:
        return None
    rules = get_rules(game.slug)
    rules.validate(game.state, seat.seat, order)  # before the write lock: the state of this step
    text = text or rules.format(order)
    values: dict[str, Any] = {"game_id": id_of(game), "step_no": game.step_no, "seat": seat.seat, "text": text,
                              "source": source, "submitted_at": utcnow(),
                              "order": Encoded(order) if isinstance(order, dict) else order}
    # the player is here: the ladder starts again (the seat's count changes only when a step
    # resolves, so the copy read at this step tells whether there is anything to reset)
    reset_ladder = source in PLAYER_SOURCES and bool(seat.missed or seat.civil_disorder)
    if direct(engine):
        written = pg_write.store_order(engine, values, list(game.owed), seat_pk=seat.id or 0,
                                       reset_ladder=reset_ladder)
    elif is_sqlite(engine):
        written = _store_sqlite(engine, game, values, seat.id or 0, reset_ladder)
    else:
        written = NOT_INSTALLED
    if not isinstance(written, str):  # (else ``NOT_INSTALLED``: the write every database has)
        added, have = written
        if added is None:  # the step closed meanwhile
            return None
    else:
        with write_session(engine) as session:
            conn = session.connection()
            added = conn.execute(_ADD_ORDER, values).scalar()
            if added is None:
                return None
            if reset_ladder:
                conn.execute(_RESET_LADDER, {"seat_pk": seat.id})
            have = set(conn.execute(_SEATS_IN, {"game_id": game.id, "step_no": game.step_no}).scalars())
            if _all_in(game, have):
                conn.execute(_SET_ALL_IN, {"game_id": game.id})
    return detached(Order, {"id": added, **values}), _all_in(game, have) and (game.resolve_early or len(game.owed) == 1)


def _store_sqlite(engine: Engine, game: Game, values: dict[str, Any], seat_pk: int,
                  reset_ladder: bool) -> tuple[int | None, set[str]]:
    """The same statements as the write every database has, sent through sqlite3 alone
    (``sqlite_driver``).  (the new order's id, or None when its step is no longer the open one; the
    seats with an order on file for the step)."""
    with sqlite_driver.writing(engine) as write:
        added = write.first(_ADD_ORDER, values)
        if added is None:
            return None, set()
        if reset_ladder:
            write.rows(_RESET_LADDER, {"seat_pk": seat_pk})
        have = {seat for (seat,) in write.rows(_SEATS_IN, {"game_id": game.id, "step_no": game.step_no})}
        if _all_in(game, have):
            write.rows(_SET_ALL_IN, {"game_id": game.id})
    return added[0], have


def build_statements(engine: Engine) -> None:
    """Compile the statements of an order's write before the first order needs them (a web worker's
    start, ``app.web.worker``): SQLAlchemy compiles a statement on its first use in a process, several
    milliseconds of a first order's time.  They run once with a game that does not exist, in a
    transaction rolled back, with the same parameters as an order's (the compiled form depends on
    their names).  On PostgreSQL an order is written by one call of the schema's function
    (``pg_write``), whose first use (the statement's conversion) is made the same way: nothing is written.
    On SQLite the statements sent through sqlite3 alone (``_store_sqlite``) are compiled and not sent."""
    values = {"game_id": -1, "step_no": 0, "seat": "", "text": "", "source": OrderSource.WEB,
              "submitted_at": utcnow(), "order": Encoded({})}
    if direct(engine) and pg_write.store_order(engine, values, [], seat_pk=-1, reset_ladder=True) != NOT_INSTALLED:
        return
    if is_sqlite(engine):  # compiled only: nothing is sent, and the write lock is not taken
        for stmt in (_ADD_ORDER, _RESET_LADDER, _SEATS_IN, _SET_ALL_IN):
            sqlite_driver.plan(stmt, engine.dialect)  # what an order's write sends (``_store_sqlite``)
        return
    with write_session(engine) as session:
        conn = session.connection()
        conn.execute(_ADD_ORDER, values)
        conn.execute(_RESET_LADDER, {"seat_pk": -1})
        conn.execute(_SEATS_IN, {"game_id": -1, "step_no": 0})
        conn.execute(_SET_ALL_IN, {"game_id": -1})
        session.rollback()


def _all_in(game: Game, have: set[str]) -> bool:
    """Whether every seat ``game`` owes has an order in ``have``.  ``game``: the copy read at this step,
    whose owed seats are this step's; an order never takes a seat out, so the flag only ever needs setting."""
    return bool(game.owed) and all(s in have for s in game.owed)


def decision_unchanged(session: Session, game: Game, seat_id: str, step_no: int) -> bool:
    """Whether the decision ``seat_id`` owed at the older step ``step_no`` is still the open one.

    True when every step from ``step_no`` on was closed by an order sent at any time (not
    resolved) and the seat's prompt is the same now: a form drawn at ``step_no`` still means
    what it meant.  A resolved step in between always makes it False (no order is applied twice).
    """
    if step_no < 1 or step_no >= game.step_no or game.step_no - step_no > 50:
        return False
    steps = session.exec(
        select(Step).where(Step.game_id == game.id, Step.step_no >= step_no, Step.step_no < game.step_no)
    ).all()
    if len(steps) != game.step_no - step_no or not all(step_kind(s) is StepKind.ANYTIME for s in steps):
        return False
    first = next(s for s in steps if s.step_no == step_no)
    then = (first.owed or {}).get(seat_id)
    return then is not None and then == game.owed.get(seat_id)


def anytime_prompt(rules: Rules, game: Game, seat_id: str) -> dict[str, Any] | None:
    """What ``seat_id`` may send at any time now (the game's ``anytime_prompt``); None if nothing."""
    if game.status != GameStatus.RUNNING:
        return None
    return rules.anytime_prompt(game.state, seat_id)


def is_anytime_order(prompt: dict[str, Any] | None, order: Any) -> bool:
    """Whether ``order`` (read from the notation) is one of the alternatives of an anytime prompt.

    It is when it holds the whole constant part (``base``) of one of the prompt's forms, as
    every order built from that form does.
    """
    if not prompt or not isinstance(order, dict):
        return False
    for spec in prompt.get("forms") or []:
        base = spec.get("base") or {}
        if base and all(k in order and order[k] == v for k, v in base.items()):
            return True
    return False


def submit_anytime(
    session: Session,
    game: Game,
    seat: Seat,
    order: OrderData,
    *,
    text: str = "",
    source: OrderSource | str = OrderSource.WEB,
    now: datetime | None = None,
) -> Order:
    """Apply an order the seat may send at any time (the game's ``apply_anytime``) at once; flushes, the caller
    commits.

    ``game`` was loaded in this write transaction with its row locked (``locked_game``).
    It closes the open step like a resolution (so a resolution racing it finds the step
    gone): the order is stored,
    its events logged, and the next step opens from the new state, owed seats and prompts
    computed again.  Orders on file for the closed step move to the new one when their seat
    still owes the same decision and the order is still legal; the others are not used.

    :raises StepClosed: the game is not running.
    :raises IllegalOrder: the seat has nothing to send now or the rules refuse the order
        (nothing is stored or changed).
    """
    now = now or utcnow()
    if game.status != GameStatus.RUNNING:
        raise StepClosed(game.step_no)
    rules = get_rules(game.slug)
    if anytime_prompt(rules, game, seat.seat) is None:
        raise IllegalOrder("There is nothing you can send now.", NOTHING_TO_SEND)
    step_no = game.step_no
    new_state, events = rules.apply_anytime(
        game.state, seat.seat, order, step_rng(game.seed, step_no, "anytime"))
    on_file = current_orders(session, game.id, step_no)
    old_owed = dict(game.owed)
    row = _order_row(session, game, seat, order, text or rules.format(order), source, now)
    close_step(session, game, rules, {StepKind.ANYTIME: {"seat": seat.seat, "order": order}}, [], events,
                new_state, now)
    moved = False
    for seat_id, kept in on_file.items():
        if kept.source not in PLAYER_SOURCES or seat_id not in game.owed:
            continue
        if game.owed[seat_id] != old_owed.get(seat_id):
            continue
        try:
            rules.validate(new_state, seat_id, kept.order)
        except IllegalOrder:
            continue
        kept.step_no = game.step_no
        session.add(kept)
        moved = True
    if moved:
        session.flush()
        update_all_in(session, game)
    session.flush()
    return row


def accept_anytime(engine: Engine, game_id: int, seat_pk: int, order: OrderData, *, text: str = "",
                   source: OrderSource | str = OrderSource.WEB, max_attempts: int = 5) -> tuple[Order, bool]:
    """Apply an order sent at any time (web form or mail), then resolve what became due.

    Commits: the order in a write transaction of its own, then each resolved step (``process_game``).
    Returns the stored order and whether a step resolved after it.

    :raises StepClosed: the game is not running.
    :raises IllegalOrder: refused (nothing is stored or changed).
    """
    return _accept(engine, game_id, seat_pk, 0, max_attempts, lambda session, game, seat: (
        submit_anytime(session, game, seat, order, text=text, source=source), True))


