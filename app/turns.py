"""The turn processor: create games, take orders, resolve steps exactly once.

One orchestrator for the web, mail and job layers.  Every function that
writes takes a session inside a write transaction (``db.write_session``);
the caller commits.  A step resolves in the same transaction that claims it
(conditional update on the game's step number), so two processors or a crash
can never resolve it twice or lose it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from collections.abc import Callable
from typing import Any

from sqlalchemy import or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import deadlines, ladder, notify
from app.db import is_sqlite, write_session
from app.games import get_rules
from app.games.base import ANYTIME_STEP, IllegalOrder, Rules, step_rng
from app.games.base import Order as OrderData
from app.models import Event, Game, GmAction, Order, Player, Seat, Step, iso, utcnow
from app.links import issue_gm_token, issue_seat_token, prefs_token
from app.tokens import hash_token, new_salt, new_seed, seed_hash

log = logging.getLogger(__name__)

#: A game resolving more steps than this in one tick waits for the next tick.
MAX_STEPS_PER_TICK = 2000
#: pause between two games of a sweep, so that writers queued behind the resolver (orders) get the lock
YIELD_SECONDS = 0.002

#: Called with every new deadline; the scheduler registers a wake-up here.
DEADLINE_LISTENERS: list[Callable[[datetime], None]] = []


class StepClosed(Exception):
    """The order came for a step that is no longer open (resolved, or game over)."""


@dataclass
class NewGame:
    game: Game
    links: dict[str, str]  # seat -> raw token (shown once, never stored)
    gm_token: str


def _checkpoint(name: str) -> None:
    """A named point in resolution; tests replace this to inject crashes."""


# --------------------------------------------------------------------------- setup


def get_or_create_player(session: Session, email: str) -> Player:
    email = email.strip()
    player = session.exec(select(Player).where(Player.email == email)).first()
    if player is None:
        player = Player(email=email, name=email.split("@")[0], prefs_salt=new_salt())
        session.add(player)
        session.flush()
        player.prefs_hash = hash_token(prefs_token(player))
        session.add(player)
    return player


def create_game(
    session: Session,
    slug: str,
    emails: list[str],
    *,
    options: dict[str, Any] | None = None,
    hours: float = 24.0,
    bots: bool = False,
    gm_email: str = "",
    resolve_early: bool = True,
    policy: dict[str, Any] | None = None,
    league_id: int | None = None,
    now: datetime | None = None,
) -> NewGame:
    """Open a game: seats, secret seed, first step, invitation mails.

    :raises LookupError: unknown game.
    :raises ValueError: options or number of players do not fit the game.
    """
    now = now or utcnow()
    rules = get_rules(slug)
    options = dict(options or {})
    if "resolve_early" in options:  # a platform option, not the game's
        resolve_early = options.pop("resolve_early") not in (False, "false", "no", "0", 0)
    opts = {**rules.default_options(), **options}
    seats = rules.seats(opts)
    robots = set(getattr(rules, "robot_seats", lambda _o: [])(opts))
    open_seats = [s for s in seats if s not in robots]
    if len(emails) > len(open_seats):
        raise ValueError(f"{rules.title} has {len(open_seats)} seats for players, {len(emails)} given")
    if len(emails) < len(open_seats) and not bots:
        raise ValueError(f"{rules.title} needs {len(open_seats)} players (or --bot to fill seats)")
    seed = new_seed()
    game = Game(
        slug=slug, title=rules.title, options=opts, seed=seed, seed_hash=seed_hash(seed),
        hours=hours, resolve_early=resolve_early, gm_email=gm_email, created_at=now,
        policy=deadlines.check_policy(dict(policy or {})), league_id=league_id,
    )
    session.add(game)
    session.flush()
    gm_token = issue_gm_token(game)
    if gm_email:  # the GM gets a settings page listing every game they run
        get_or_create_player(session, gm_email)
    links: dict[str, str] = {}
    queue = list(emails)
    for seat_id in seats:
        seat = Seat(game_id=game.id, seat=seat_id, is_robot=seat_id in robots)
        if not seat.is_robot and queue:
            seat.player_id = get_or_create_player(session, queue.pop(0)).id
        elif not seat.is_robot:
            seat.is_bot = True
        session.add(seat)
        session.flush()
        if seat.player_id:
            links[seat_id] = issue_seat_token(seat)
    session.flush()
    state = rules.setup(opts, seats, step_rng(seed, 0, "setup"))
    _open_step(session, game, rules, state, now, first=True)
    notify.game_started(session, game, rules, now)
    return NewGame(game, links, gm_token)


def rotate_link(session: Session, game: Game, seat_id: str) -> str:
    """A fresh link for a seat; the old one stops working at once."""
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat_id)).one()
    token = issue_seat_token(seat)
    session.add(seat)
    return token


def replace_player(session: Session, game: Game, seat_id: str, email: str, now: datetime | None = None) -> str:
    """Hand a seat to a new player: fresh link (the old one dies), ladder reset, invitation mail."""
    now = now or utcnow()
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat_id)).first()
    if seat is None or seat.is_robot:
        raise ValueError(f"no seat {seat_id!r} for a player in this game")
    player = get_or_create_player(session, email)
    seat.player_id = player.id
    seat.is_bot = False
    seat.missed = seat.extensions_used = 0
    seat.civil_disorder = False
    token = issue_seat_token(seat)
    session.add(seat)
    session.add(GmAction(game_id=game.id, action="replace", detail=f"{seat_id} -> {email}", created_at=now))
    session.add(Event(game_id=game.id, step_no=game.step_no, seq=-1, to=None, created_at=now,
                      text=f"A new player takes over {seat_id}."))
    session.flush()
    notify.seat_handed_over(session, game, get_rules(game.slug), seat, player, now)
    return token


# --------------------------------------------------------------------------- orders


def current_orders(session: Session, game_id: int, step_no: int) -> dict[str, Order]:
    """The order that counts for each seat at a step: the last one submitted."""
    rows = session.exec(
        select(Order).where(Order.game_id == game_id, Order.step_no == step_no).order_by(Order.id)
    ).all()
    return {row.seat: row for row in rows}


def locked_game(session: Session, game_id: int) -> Game | None:
    """The game, loaded once in this write transaction with its row locked (PostgreSQL
    ``FOR UPDATE``; on SQLite the transaction already holds the write lock)."""
    return session.exec(
        select(Game).where(Game.id == game_id).with_for_update().execution_options(populate_existing=True)
    ).first()


def submit_order(
    session: Session,
    game: Game,
    seat: Seat,
    order: OrderData,
    *,
    step_no: int | None = None,
    text: str = "",
    source: str = "web",
    now: datetime | None = None,
    locked: bool = False,
) -> Order:
    """Validate and store an order for the open step (changes nothing if illegal).

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
    if game.status != "running":
        raise StepClosed(game.step_no)
    if step_no is not None and step_no != game.step_no and not decision_unchanged(session, game, seat.seat, step_no):
        raise StepClosed(game.step_no)
    if seat.seat not in game.owed:
        raise StepClosed(game.step_no)
    rules = get_rules(game.slug)
    rules.validate(game.state, seat.seat, order)
    if not text:
        text = rules.format(order)
    row = Order(game_id=game.id, step_no=game.step_no, seat=seat.seat, order=order, text=text,
                source=source, submitted_at=now)
    session.add(row)
    if source in ("web", "mail"):  # the player is here: the ladder starts again
        seat.missed = 0
        seat.civil_disorder = False
    session.add(seat)
    session.flush()
    _update_all_in(session, game)
    return row


def accept_order(
    engine: Engine,
    game_id: int,
    seat_pk: int,
    order: OrderData,
    *,
    step_no: int,
    text: str = "",
    source: str = "web",
    max_attempts: int = 5,
) -> tuple[Order, bool]:
    """Store an order (web form or mail) and resolve the step at once if it is now due.

    Returns the stored order and whether the step resolved.

    :raises StepClosed: the step is no longer open.
    :raises IllegalOrder: the rules refuse the order (nothing is stored).
    """
    with write_session(engine) as session:
        game = locked_game(session, game_id)
        seat = session.get(Seat, seat_pk)
        if game is None or seat is None or seat.game_id != game_id:
            raise StepClosed(step_no)
        row = submit_order(session, game, seat, order, step_no=step_no, text=text, source=source, locked=True)
        due = game.all_in and (game.resolve_early or len(game.owed) == 1)
    resolved = False
    if due:
        resolved = process_game(engine, game_id, utcnow(), max_attempts=max_attempts) > 0
    return row, resolved


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
    if len(steps) != game.step_no - step_no or not all(s.orders and ANYTIME_STEP in s.orders for s in steps):
        return False
    first = next(s for s in steps if s.step_no == step_no)
    then = (first.owed or {}).get(seat_id)
    return then is not None and then == game.owed.get(seat_id)


def anytime_prompt(rules: Rules, game: Game, seat_id: str) -> dict[str, Any] | None:
    """What ``seat_id`` may send at any time now (the game's ``anytime_prompt``); None if nothing."""
    ask = getattr(rules, "anytime_prompt", None)
    if ask is None or not hasattr(rules, "apply_anytime") or game.status != "running":
        return None
    return ask(game.state, seat_id)


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
    source: str = "web",
    now: datetime | None = None,
) -> Order:
    """Apply an order the seat may send at any time (the game's ``apply_anytime``) at once.

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
    if game.status != "running":
        raise StepClosed(game.step_no)
    rules = get_rules(game.slug)
    if anytime_prompt(rules, game, seat.seat) is None:
        raise IllegalOrder("There is nothing you can send now.")
    step_no = game.step_no
    new_state, events = rules.apply_anytime(  # type: ignore[attr-defined]
        game.state, seat.seat, order, step_rng(game.seed, step_no, "anytime"))
    on_file = current_orders(session, game.id, step_no)
    old_owed = dict(game.owed)
    row = Order(game_id=game.id, step_no=step_no, seat=seat.seat, order=order, text=text or rules.format(order),
                source=source, submitted_at=now)
    session.add(row)
    if source in ("web", "mail"):  # the player is here: the ladder starts again
        seat.missed = 0
        seat.civil_disorder = False
        session.add(seat)
    _close_step(session, game, rules, {ANYTIME_STEP: {"seat": seat.seat, "order": order}}, [], events,
                new_state, now)
    moved = False
    for seat_id, kept in on_file.items():
        if kept.source not in ("web", "mail") or seat_id not in game.owed:
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
        _update_all_in(session, game)
    session.flush()
    return row


def accept_anytime(
    engine: Engine,
    game_id: int,
    seat_pk: int,
    order: OrderData,
    *,
    text: str = "",
    source: str = "web",
    max_attempts: int = 5,
) -> tuple[Order, bool]:
    """Apply an order sent at any time (web form or mail), then resolve what became due.

    Returns the stored order and whether a step resolved after it.

    :raises StepClosed: the game is not running.
    :raises IllegalOrder: refused (nothing is stored or changed).
    """
    with write_session(engine) as session:
        game = locked_game(session, game_id)
        seat = session.get(Seat, seat_pk)
        if game is None or seat is None or seat.game_id != game_id:
            raise StepClosed(0)
        row = submit_anytime(session, game, seat, order, text=text, source=source)
    resolved = process_game(engine, game_id, utcnow(), max_attempts=max_attempts) > 0
    return row, resolved


def _update_all_in(session: Session, game: Game) -> None:
    have = set(session.exec(
        select(Order.seat).where(Order.game_id == game.id, Order.step_no == game.step_no).distinct()
    ).all())
    game.all_in = bool(game.owed) and all(s in have for s in game.owed)
    session.add(game)


# --------------------------------------------------------------------------- resolution


def _claim(session: Session, game_id: int, step_no: int) -> Game | None:
    """Take the game's open step for this transaction, or None if someone else has."""
    if is_sqlite(session.get_bind()):
        result = session.execute(
            update(Game)
            .where(Game.id == game_id, Game.step_no == step_no, Game.status == "running")
            .values(step_no=step_no)
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            return None
        return session.get(Game, game_id, populate_existing=True)
    stmt = (
        select(Game)
        .where(Game.id == game_id, Game.step_no == step_no, Game.status == "running")
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
    rules = get_rules(game.slug)
    state = game.state
    have = {seat: row.order for seat, row in current_orders(session, game.id, step_no).items()}
    orders = {seat: have[seat] for seat in game.owed if seat in have}
    missing = [seat for seat in game.owed if seat not in orders]
    overdue = game.deadline is not None and game.deadline <= now
    early = game.resolve_early or len(game.owed) == 1
    if missing and not (overdue or force):
        return None
    if missing and not force:
        wait_until = ladder.on_missed(session, game, missing, now)
        if wait_until is not None:  # an excused extension: the step waits
            game.deadline = wait_until
            session.add(game)
            return None
    if not missing and not (early or overdue or force):
        return None
    seats = {s.seat: s for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    cd_after = ladder.civil_disorder_after(session, game)
    for seat_id in missing:
        seat = seats[seat_id]
        if seat.civil_disorder:  # auto-command plays the seat
            play = getattr(rules, "ai_order", None) or rules.random_order
            order = play(state, seat_id, step_rng(game.seed, step_no, f"bot:{seat_id}"))
            source = "auto"
        else:
            order = rules.default_order(state, seat_id, step_rng(game.seed, step_no, f"default:{seat_id}"))
            source = "default"
        orders[seat_id] = order
        session.add(Order(game_id=game.id, step_no=step_no, seat=seat_id, order=order,
                          text=rules.format(order), source=source, submitted_at=now))
        seat.missed += 1
        own_ladder = getattr(rules, "handles_missed_deadlines", False)
        if seat.player_id and not own_ladder and not seat.civil_disorder and seat.missed >= cd_after:
            seat.civil_disorder = True
            session.add(Event(game_id=game.id, step_no=step_no, seq=-1, to=None, created_at=now,
                              text=f"{seat_id} missed {seat.missed} deadlines in a row: auto-command plays "
                                   f"the seat until its player sends an order again."))
        session.add(seat)
    _checkpoint("before_resolve")
    new_state, events = rules.resolve(state, orders, step_rng(game.seed, step_no))
    _checkpoint("after_resolve")
    _close_step(session, game, rules, orders, missing, events, new_state, now)
    _checkpoint("before_commit")
    return game


def _close_step(session: Session, game: Game, rules: Rules, orders: dict[str, Any], defaulted: list[str],
                events: list[dict[str, Any]], new_state: dict, now: datetime) -> None:
    """Record the open step as resolved (its orders, defaults and events), then open the next one."""
    step_no = game.step_no
    step = session.exec(select(Step).where(Step.game_id == game.id, Step.step_no == step_no)).one()
    step.resolved_at = now
    step.orders = orders
    step.defaulted = defaulted
    session.add(step)
    for seq, ev in enumerate(events):
        data = {k: v for k, v in ev.items() if k not in ("text", "to")}
        session.add(Event(game_id=game.id, step_no=step_no, seq=seq, to=ev.get("to"),
                          text=ev["text"], data=data, created_at=now))
    game.step_no = step_no + 1
    game.attempts = 0
    game.last_error = ""
    _open_step(session, game, rules, new_state, now)


def _open_step(
    session: Session, game: Game, rules: Rules, state: dict, now: datetime, *, first: bool = False
) -> None:
    """Make ``state`` the game's open step: owed seats, deadline, bot orders, mails."""
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
        game.status = "finished"
        game.deadline = None
        game.finished_at = now
    session.add(game)
    session.add(Step(game_id=game.id, step_no=game.step_no, turn_key=key, state=state, owed=owed,
                     opened_at=now, deadline=game.deadline))
    session.flush()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
    for seat in seats:
        if seat.is_bot and seat.seat in owed:
            player = getattr(rules, "ai_order", None) or rules.random_order
            order = player(state, seat.seat, step_rng(game.seed, game.step_no, f"bot:{seat.seat}"))
            session.add(Order(game_id=game.id, step_no=game.step_no, seat=seat.seat, order=order,
                              text=rules.format(order), source="bot", submitted_at=now))
    session.flush()
    _update_all_in(session, game)
    humans_owe = any(s.seat in owed and s.player_id for s in seats)
    if not first and (game.status == "finished" or (humans_owe and key != game.notified_key)):
        notify.turn_reports(session, game, rules, seats, now)
        game.notified_key = key
    elif first:
        game.notified_key = key
    session.add(game)


def _count_attempt(engine: Engine, game_id: int, step_no: int, max_attempts: int) -> bool:
    """Count an attempt before resolving (committed first, so a killed process counts too).

    A successful resolution sets the count back to 0.  After ``max_attempts``
    attempts without success the game is stopped as crashed, its GM is told,
    and False is returned: other games go on.
    """
    with write_session(engine) as session:
        game = session.get(Game, game_id)
        if game is None or game.status != "running" or game.step_no != step_no:
            return False
        if game.attempts >= max_attempts:
            game.status = "crashed"
            game.last_error = game.last_error or "the processor stopped while resolving this step"
            notify.game_crashed(session, game)
            session.add(game)
            return False
        game.attempts += 1
        session.add(game)
        return True


def record_failure(engine: Engine, game_id: int, error: str, max_attempts: int) -> bool:
    """Note why a resolution failed (its attempt is already counted); stop the game at the limit."""
    with write_session(engine) as session:
        game = session.get(Game, game_id)
        if game is None:
            return False
        game.last_error = error[:2000]
        crashed = game.attempts >= max_attempts and game.status == "running"
        if crashed:
            game.status = "crashed"
            notify.game_crashed(session, game)
        session.add(game)
        return crashed


def due_games(session: Session, now: datetime) -> list[tuple[int, int]]:
    """(game id, open step) of every running game whose step can resolve now, oldest first."""
    rows = session.exec(
        select(Game.id, Game.step_no)
        .where(Game.status == "running")
        .where(or_(Game.deadline <= now, Game.all_in == True))  # noqa: E712
        .order_by(Game.deadline, Game.id)
    ).all()
    return [(r[0], r[1]) for r in rows]


def process_game(engine: Engine, game_id: int, now: datetime, *, max_attempts: int = 5) -> int:
    """Resolve every step of one game that is due now; the number resolved."""
    done = 0
    while done < MAX_STEPS_PER_TICK:
        with Session(engine) as session:
            game = session.get(Game, game_id)
            if game is None or game.status != "running":
                return done
            step_no = game.step_no
            if not game.all_in and (game.deadline is None or game.deadline > now):
                return done
        if not _count_attempt(engine, game_id, step_no, max_attempts):
            return done
        try:
            with write_session(engine) as session:
                resolved = resolve_step(session, game_id, step_no, now)
        except Exception as exc:  # the rules or a template failed: roll back, count, go on
            log.exception("resolving game %s step %s failed", game_id, step_no)
            record_failure(engine, game_id, f"{type(exc).__name__}: {exc}", max_attempts)
            return done
        if resolved is None:
            return done
        done += 1
    return done


def process_due(engine: Engine, now: datetime | None = None, *, max_attempts: int = 5) -> dict[str, Any]:
    """Resolve every step due at ``now``; a summary for logs and the CLI."""
    now = now or utcnow()
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
    """After an outage, push back deadlines that passed while nobody could answer."""
    games = session.exec(select(Game).where(Game.status == "running", Game.deadline <= now)).all()
    for game in games:
        game.deadline = game.deadline + by  # type: ignore[operator]
        session.add(game)
        hours = by.total_seconds() / 3600
        session.add(Event(game_id=game.id, step_no=game.step_no, seq=-1, to=None, created_at=now,
                          text=f"The server was unavailable for {hours:.1f} hours: the deadline moved to "
                               f"{iso(game.deadline)} so that nobody misses this turn because of it."))
        notify.outage_notice(session, game, hours, now)
    return len(games)
