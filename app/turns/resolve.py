"""Resolving steps: claim a due step, fill missing orders, resolve, open the next step; sweeps.

Who commits: ``resolve_step``, ``close_step``, ``open_step`` and ``extend_overdue``
take a session inside a write transaction (``db.write_session``) and only flush;
their caller commits.  ``process_due``, ``process_game``, ``count_attempt`` and
``record_failure`` take the engine and open (and commit) their own
transactions: a failed attempt is counted in a transaction committed before
the resolution starts, so a killed process counts too.  A step resolves in the
same transaction that claims it (conditional update on the game's step
number), so two processors or a crash can never resolve it twice or lose it.
That transaction stores the state, events and orders and queues the step's
mails as ``MailJob`` rows; the reports and mails are built after commit
(``app.mailjobs``), so the write lock is held for the step alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app import deadlines, gm_mail, ladder, mailjobs, notify, standing
from app.db import is_sqlite, write_session
from app.games import get_rules
from app.games.base import Rules, bot_order, step_rng
from app.i18n.terms import N_
from app.kinds import GameStatus, GmActionKind, OrderSource
from app.models import Event, Game, GmAction, MailJob, Order, Step, iso, utcnow
from app.notices import notice, order_words, played_for, seat_name
from app.seats import game_seats, read_once
from app.turns import plan
from app.turns.store import closed_early, current_orders, id_of, planning, update_all_in, write_later

log = logging.getLogger(__name__)

#: A game resolving more steps than this in one tick waits for the next tick.
MAX_STEPS_PER_TICK = 2000
#: pause between two games of a sweep, so that writers queued behind the resolver (orders) get the lock
YIELD_SECONDS = 0.002

#: Called with every new deadline; the scheduler registers a wake-up here.
DEADLINE_LISTENERS: list[Callable[[datetime], None]] = []


def _checkpoint(name: str) -> None:
    """A named point in resolution; tests replace this (``app.turns.resolve._checkpoint``) to inject crashes."""


# --------------------------------------------------------------------------- resolution


def _claim(session: Session, game_id: int, step_no: int) -> Game | None:
    """Take the game's open step for this transaction, or None if someone else has (a step planned while
    reading reads the game: its apply takes the step)."""
    if planning(session):
        return session.exec(select(Game).where(Game.id == game_id, Game.step_no == step_no,
                                               Game.status == GameStatus.RUNNING)).first()
    if is_sqlite(session.get_bind().engine):
        result = session.execute(
            update(Game)
            .where(col(Game.id) == game_id, col(Game.step_no) == step_no, col(Game.status) == GameStatus.RUNNING)
            .values(step_no=step_no)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            return None
        return session.get(Game, game_id, populate_existing=True)
    stmt = (
        select(Game)
        .where(Game.id == game_id, Game.step_no == step_no, Game.status == GameStatus.RUNNING)
        .with_for_update(skip_locked=True)
    )
    return session.exec(stmt).first()


def resolve_step(
    session: Session, game_id: int, step_no: int, now: datetime, *, force: bool = False
) -> Game | None:
    """Resolve the game's open step ``step_no`` if it is due; None if not ours or not due.

    Missing orders get the game's default order once the deadline has passed
    (or with ``force``).
    """
    game = _claim(session, game_id, step_no)
    if game is None:
        return None
    with read_once(session, game.id):
        return _resolve_claimed(session, game, step_no, now, force)


def _closed_by_gm(session: Session, game: Game, step_no: int) -> bool:
    """Whether the GM resolved this step before its deadline (``control.resolve_now``'s log entry)."""
    return session.exec(select(GmAction.id).where(GmAction.game_id == game.id, GmAction.action == GmActionKind.RESOLVE,
                                                  GmAction.detail == closed_early(step_no))).first() is not None


def _resolve_claimed(session: Session, game: Game, step_no: int, now: datetime, force: bool) -> Game | None:
    rules = get_rules(game.slug)
    state = game.state
    have = {seat: row.order for seat, row in current_orders(session, game.id, step_no).items()}
    orders = {seat: have[seat] for seat in game.owed if seat in have}
    missing = [seat for seat in game.owed if seat not in orders]
    overdue = game.deadline is not None and game.deadline <= now
    resolves_early = game.resolve_early or len(game.owed) == 1
    if missing and not (overdue or force):
        return None
    early = bool(missing) and _closed_by_gm(session, game, step_no)  # nobody missed a deadline
    if missing and not force and not early:
        wait_until = ladder.on_missed(session, game, missing, now)
        if wait_until is not None:  # an excused extension: the step waits
            game.deadline = wait_until
            session.add(game)
            return None
    if not missing and not (resolves_early or overdue or force):
        return None
    seats = {s.seat: s for s in game_seats(session, game.id)}
    cd_after = ladder.civil_disorder_after(session, game)
    kept: list[str] = []  # seats whose own standing order is used (``app.standing``)
    for seat_id in missing:
        seat = seats[seat_id]
        standing_order = standing.pick(session, rules, game, seat_id, state)
        if standing_order is not None:
            order, source = standing_order, OrderSource.STANDING
            kept.append(seat_id)
            session.add(standing.used_event(game, seat_id, rules.format(order), now))
        elif seat.civil_disorder:  # auto-command plays the seat
            order = bot_order(rules, state, seat_id, step_rng(game.seed, step_no, f"bot:{seat_id}"))
            source = OrderSource.AUTO
        else:
            order = rules.default_order(state, seat_id, step_rng(game.seed, step_no, f"default:{seat_id}"))
            source = OrderSource.DEFAULT
        orders[seat_id] = order
        session.add(Order(game_id=id_of(game), step_no=step_no, seat=seat_id, order=order,
                          text=rules.format(order), source=source, submitted_at=now))
        seat.missed += 0 if early else 1
        platform_ladder = not rules.handles_missed_deadlines
        if platform_ladder:  # a game that handles missed deadlines tells its own story
            words = order_words(game.owed.get(seat_id), order, rules.format(order), rules)
            session.add_all(played_for(game.slug, id_of(game), step_no, now, seat_id, words,
                                       auto=source is OrderSource.AUTO, early=early))
        if seat.player_id and platform_ladder and not early and not seat.civil_disorder and seat.missed >= cd_after:
            seat.civil_disorder = True
            session.add(notice(game.slug, id_of(game), step_no, now,
                               N_("{seat} missed {n} deadlines in a row: auto-command plays the seat until "
                                  "its player sends an order again."), seat=seat_name(seat_id), n=seat.missed))
        session.add(seat)
    _checkpoint("before_resolve")
    new_state, events = rules.resolve(state, orders, step_rng(game.seed, step_no))
    _checkpoint("after_resolve")
    close_step(session, game, rules, orders, [m for m in missing if m not in kept], events, new_state, now)
    _checkpoint("before_commit")
    return game


def event_row(game: Game, rules: Rules, step_no: int, seq: int, ev: dict[str, Any], now: datetime) -> Event:
    """An engine event as stored: a message (id and parameters) stays in ``data["msg"]``,
    rendered for each reader in their language; ``text`` keeps its English for logs."""
    data = {k: v for k, v in ev.items() if k not in ("text", "to")}
    text = ev["text"]
    if not isinstance(text, str):
        data["msg"] = text
        text = rules.text.english(text)
    return Event(game_id=id_of(game), step_no=step_no, seq=seq, to=ev.get("to"), text=text, data=data,
                 created_at=now)


def close_step(session: Session, game: Game, rules: Rules, orders: dict[str, Any], defaulted: list[str],
                events: list[dict[str, Any]], new_state: dict[str, Any], now: datetime) -> None:
    """Record the open step as resolved (its orders, defaults and events), then open the next one."""
    step_no = game.step_no
    write_later(session,  # without reading the step's stored state back
                update(Step).where(col(Step.game_id) == game.id, col(Step.step_no) == step_no)
                .values(resolved_at=now, orders=orders, defaulted=defaulted)
                .execution_options(synchronize_session=False),
                expect=(1, f"game {game.id} has no open step {step_no}"))
    if events:  # in one statement (nothing reads them back in this transaction)
        write_later(session, insert(Event), [event_row(game, rules, step_no, seq, ev, now).model_dump(exclude={"id"})
                                             for seq, ev in enumerate(events)])
    game.step_no = step_no + 1
    game.attempts = 0
    game.last_error = ""
    open_step(session, game, rules, new_state, now)


def open_step(
    session: Session, game: Game, rules: Rules, state: dict[str, Any], now: datetime, *, first: bool = False
) -> None:
    """Make ``state`` the game's open step: owed seats, deadline, bot orders, mails queued (not built)."""
    owed = rules.owed(state)
    key = rules.turn_key(state)
    game.state = state
    game.owed = owed
    if first or key != game.turn_key:
        game.deadline = deadlines.next_deadline(session, game, owed, now)
        for listener in DEADLINE_LISTENERS:  # the scheduler wakes at the deadline (a hint only)
            listener(game.deadline)
    game.turn_key = key
    result = rules.outcome(state)
    if result is not None or not owed:
        game.status = GameStatus.FINISHED
        game.deadline = None
        game.finished_at = now
    session.add(game)
    session.add(Step(game_id=id_of(game), step_no=game.step_no, turn_key=key, state=state, owed=owed,
                     opened_at=now, deadline=game.deadline))
    seats = game_seats(session, game.id)
    for seat in seats:
        if seat.is_bot and seat.seat in owed:
            order = bot_order(rules, state, seat.seat, step_rng(game.seed, game.step_no, f"bot:{seat.seat}"))
            session.add(Order(game_id=id_of(game), step_no=game.step_no, seat=seat.seat, order=order,
                              text=rules.format(order), source=OrderSource.BOT, submitted_at=now))
    update_all_in(session, game)  # (counts the bot orders just added)
    humans_owe = any(s.seat in owed and s.player_id for s in seats)
    if not first and (game.status == GameStatus.FINISHED or (humans_owe and key != game.notified_key)):
        jobs = notify.turn_report_jobs(session, game, now)  # built after commit (app.mailjobs)
        if jobs:
            write_later(session, insert(MailJob), jobs)
        game.notified_key = key
    elif first:
        game.notified_key = key
    session.add(game)


def count_attempt(engine: Engine, game_id: int, step_no: int, max_attempts: int) -> bool:
    """Count an attempt before resolving (in a transaction of its own, committed first, so a killed
    process counts too).

    A successful resolution sets the count back to 0.  After ``max_attempts``
    attempts without success the game is stopped as crashed, its GM is told,
    and False is returned: other games go on.
    """
    with write_session(engine) as session:
        counted = session.execute(  # the usual case in one statement, without reading the game's state
            update(Game)
            .where(col(Game.id) == game_id, col(Game.status) == GameStatus.RUNNING, col(Game.step_no) == step_no,
                   col(Game.attempts) < max_attempts)
            .values(attempts=col(Game.attempts) + 1)
            .execution_options(synchronize_session=False)
        )
        if counted.rowcount == 1:  # type: ignore[attr-defined]
            return True
        game = session.get(Game, game_id)
        if game is None or game.status != GameStatus.RUNNING or game.step_no != step_no:
            return False
        if game.attempts >= max_attempts:
            game.status = GameStatus.CRASHED
            game.last_error = game.last_error or "the processor stopped while resolving this step"
            gm_mail.game_crashed(session, game)
            session.add(game)
            return False
        game.attempts += 1
        session.add(game)
        return True


def record_failure(engine: Engine, game_id: int, error: str, max_attempts: int) -> bool:
    """Note why a resolution failed (its attempt is already counted); stop the game at the limit.

    Commits its own transaction.
    """
    with write_session(engine) as session:
        game = session.get(Game, game_id)
        if game is None:
            return False
        game.last_error = error[:2000]
        crashed = game.attempts >= max_attempts and game.status == GameStatus.RUNNING
        if crashed:
            game.status = GameStatus.CRASHED
            gm_mail.game_crashed(session, game)
        session.add(game)
        return crashed


def due_games(session: Session, now: datetime) -> list[tuple[int, int]]:
    """(game id, open step) of every running game whose step can resolve now, oldest first."""
    rows = session.exec(
        select(Game.id, Game.step_no)
        .where(Game.status == GameStatus.RUNNING)
        .where(or_(col(Game.deadline) <= now, col(Game.all_in) == True))  # noqa: E712 (the same SQL as before: all_in = 1)
        .order_by(col(Game.deadline), col(Game.id))
    ).all()
    return [(r[0] or 0, r[1]) for r in rows]


def process_game(engine: Engine, game_id: int, now: datetime, *, max_attempts: int = 5) -> int:
    """Resolve every step of one game that is due now; the number resolved.

    Commits its own transactions: one per attempt count, one per step resolved,
    then those that build the reports and mails the steps queued (``mailjobs``).
    """
    done = _process_game(engine, game_id, now, max_attempts)
    if done:  # (a crash before this leaves the jobs to the next sweep)
        _checkpoint("after_step_commit")
        mailjobs.build_after_steps(engine, game_id)
    return done


def _process_game(engine: Engine, game_id: int, now: datetime, max_attempts: int) -> int:
    done = 0
    while done < MAX_STEPS_PER_TICK:
        with Session(engine) as session:  # the few columns that say whether it is due (not the state)
            row = session.exec(select(Game.status, Game.step_no, Game.all_in, Game.deadline)
                               .where(Game.id == game_id)).first()
            if row is None or row[0] != GameStatus.RUNNING:
                return done
            step_no, all_in, deadline = row[1], row[2], row[3]
            if not all_in and (deadline is None or deadline > now):
                return done
        if not count_attempt(engine, game_id, step_no, max_attempts):
            return done
        try:
            resolved = plan.resolve_planned(engine, game_id, step_no, now, resolve_step,
                                            lambda name: _checkpoint(name))  # (as patched now)
        except Exception as exc:  # the rules or a template failed: roll back, count, go on
            log.exception("resolving game %s step %s failed", game_id, step_no)
            record_failure(engine, game_id, f"{type(exc).__name__}: {exc}", max_attempts)
            return done
        if resolved is None:
            return done
        done += 1
    return done


def process_due(engine: Engine, now: datetime | None = None, *, max_attempts: int = 5) -> dict[str, Any]:
    """Resolve every step due at ``now``; a summary for logs and the CLI (``process_game`` commits each step)."""
    now = now or utcnow()
    mailjobs.build_after_steps(engine)  # what a crash left between a step's commit and its mails
    with Session(engine) as session:
        due = due_games(session, now)
    summary: dict[str, Any] = {"now": iso(now), "games": 0, "steps": 0, "resolved": []}
    for i, (game_id, _step) in enumerate(due):
        if i:  # a breath between games: players' orders waiting for the write lock go first
            time.sleep(YIELD_SECONDS)
        count = process_game(engine, game_id, now, max_attempts=max_attempts)
        if count:
            summary["games"] += 1
            summary["steps"] += count
            summary["resolved"].append({"game": game_id, "steps": count})
    return summary


def extend_overdue(session: Session, now: datetime, by: timedelta) -> int:
    """After an outage, push back deadlines that passed while nobody could answer; flushes, the caller commits."""
    games = session.exec(select(Game).where(Game.status == GameStatus.RUNNING, col(Game.deadline) <= now)).all()
    for game in games:
        if game.deadline is None:  # not selected: a game without a deadline has nothing to move
            continue
        game.deadline = game.deadline + by
        session.add(game)
        hours = by.total_seconds() / 3600
        session.add(notice(game.slug, id_of(game), game.step_no, now,
                           N_("The server was unavailable for {hours:.1f} hours: the deadline moved to "
                              "{deadline} so that nobody misses this turn because of it."),
                           hours=hours, deadline=iso(game.deadline)))
        notify.outage_notice(session, game, hours, now)
    return len(games)
