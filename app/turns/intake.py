"""Orders coming in: one door (``take_order``) for the web, mail and bots.

``take_order(seat, text_or_form, source, engine=...)`` reads typed text (the
game's notation) or a posted prompt form, decides whether it is an order sent
at any time (the game's ``anytime_prompt``) or the seat's order for the open
step, stores it and resolves the step at once when it is due.  It answers with
a ``Taken`` that the caller turns into a page or a mail reply; nothing is stored
or changed when it refuses.

Who commits: ``take_order`` takes the engine; the order is stored in a write
transaction of its own (``orders.accept_order`` / ``accept_anytime``, committed),
then what became due is resolved (``resolve.process_game``, its own
transactions too).  The caller holds no transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, NamedTuple

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.games import get_rules
from app.games.base import IllegalOrder, Rules
from app.games.base import Order as OrderData
from app.kinds import GameStatus, OrderSource
from app.models import Game, Order, Seat
from app.turns.forms import FormData, index_of_key, order_from_form
from app.turns.orders import (
    NOTHING_TO_SEND,
    accept_anytime,
    accept_order,
    anytime_prompt,
    decision_unchanged,
    is_anytime_order,
)
from app.turns.store import StepClosed
from app.usertext import clean

log = logging.getLogger(__name__)

#: The refusal when a seat has no anytime decision to send (the game's words: translated like them).



class Outcome(StrEnum):
    """What became of an order handed to ``take_order``."""

    STORED = "stored"  # on file for the open step (``resolved``: the step resolved at once)
    APPLIED = "applied"  # an order sent at any time, applied at once
    REFUSED = "refused"  # nothing stored: ``problem`` and ``message`` say why
    CLOSED = "closed"  # the seat owes nothing now (step resolved, game not running)
    EMPTY = "empty"  # no order in the text


class Problem(StrEnum):
    """Why an order was refused."""

    ILLEGAL = "illegal"  # the game refuses it; ``message`` is the game's reason (a message, rendered by the caller)
    UNREADABLE = "unreadable"  # the notation could not be read; ``message`` is the parser's words, or ""
    TOO_LONG = "too_long"  # longer than the caller's ``max_chars``


@dataclass(frozen=True)
class Taken:
    """The answer of ``take_order``.

    ``step_no`` is the step the order was stored for (or the open step when
    nothing was stored); ``prompt`` the decision it answered (the anytime prompt
    when ``anytime``); ``game`` the game as it is after the order (detached).
    """

    outcome: Outcome
    step_no: int
    game: Game
    prompt: dict[str, Any] | None = None
    anytime: bool = False
    problem: Problem | None = None
    #: the game's reason (``IllegalOrder.message``: a message id with parameters, or plain text)
    message: str | dict[str, Any] = ""
    row: Order | None = None
    resolved: bool = False
    stored_before: bool = False  # found on file from an interrupted earlier attempt (``since``)

    @property
    def ok(self) -> bool:
        return self.outcome in (Outcome.STORED, Outcome.APPLIED)


def take_order(
    seat: Seat,
    text_or_form: str | FormData,
    source: OrderSource | str,
    *,
    engine: Engine,
    step_no: int | None = None,
    anytime: bool = False,
    max_chars: int | None = None,
    since: datetime | None = None,
    max_attempts: int = 5,
    game: Game | None = None,
) -> Taken:
    """Take one order for ``seat``: typed text in the game's notation, or a posted prompt form.

    Typed text is an order sent at any time when it reads as one of the seat's
    anytime alternatives (``is_anytime_order``), else the seat's order for the
    open step.  A posted form answers the step's prompt, or with ``anytime`` the
    anytime prompt (its ``form_key`` field names the alternative).

    :param step_no: the step the order was written for (a page drawn at that step):
        refused as closed if the game moved on, unless only orders sent at any time
        came between (``decision_unchanged``).  ``None`` (mail, bots): whatever step
        is open; if it closes while the order is stored, the order is tried once
        for the next one, and while the seat owes nothing typed text goes to the
        anytime prompt.
    :param max_chars: refuse longer text (``Problem.TOO_LONG``).
    :param since: an interrupted earlier attempt to take this same text began then:
        if an order with this text from ``source`` was stored since, it counts.
    :param game: the seat's game as the caller has just read it (a page's request), used
        as is when it is at ``step_no``; the game is read again otherwise.
    """
    game, prompt, stale = _look(engine, seat, step_no, game)
    if isinstance(text_or_form, str):
        return _take_text(engine, game, seat, text_or_form, OrderSource(source), prompt=prompt, stale=stale,
                          step_no=step_no, max_chars=max_chars, since=since, max_attempts=max_attempts)
    form = text_or_form
    rules = get_rules(game.slug)
    if anytime:
        if game.status != GameStatus.RUNNING:
            return _answer(engine, Outcome.CLOSED, game, seat, anytime=True)
        offered = anytime_prompt(rules, game, seat.seat)
        if offered is None:
            return _answer(engine, Outcome.REFUSED, game, seat, problem=Problem.ILLEGAL, message=NOTHING_TO_SEND,
                           anytime=True)
        index = str(form.get("form_index", "") or "")
        if form.get("form_key"):  # the alternative the page showed, wherever it is now (if still offered)
            index = index_of_key(offered, str(form.get("form_key")))
        try:
            order = order_from_form(offered, index, form)
        except IllegalOrder as exc:
            return _answer(engine, Outcome.REFUSED, game, seat, prompt=offered, anytime=True,
                           problem=Problem.ILLEGAL, message=exc.message)
        return _apply_anytime(engine, game, seat, order, "", OrderSource(source), offered, None, max_attempts)
    if prompt is None or stale:
        return _answer(engine, Outcome.CLOSED, game, seat)
    try:
        order = order_from_form(prompt, str(form.get("form_index", "") or ""), form,
                                lambda order: rules.validate(game.state, seat.seat, order))
    except IllegalOrder as exc:
        return _answer(engine, Outcome.REFUSED, game, seat, prompt=prompt, problem=Problem.ILLEGAL, message=exc.message)
    return _store(engine, game, seat, order, "", OrderSource(source), prompt, step_no, None, max_attempts)


def _look(engine: Engine, seat: Seat, step_no: int | None,
          read: Game | None = None) -> tuple[Game, dict[str, Any] | None, bool]:
    """(the game now, the seat's open prompt, whether ``step_no`` is stale), read in a short session
    (or ``read``, the game the caller has just read, when it is at ``step_no``)."""
    if read is not None and read.id == seat.game_id and step_no is not None and read.step_no == step_no:
        return read, read.owed.get(seat.seat) if read.status == GameStatus.RUNNING else None, False
    with Session(engine, expire_on_commit=False) as session:
        game = session.get(Game, seat.game_id)
        if game is None:
            raise LookupError(f"no game {seat.game_id}")
        prompt = game.owed.get(seat.seat) if game.status == GameStatus.RUNNING else None
        stale = (step_no is not None and step_no != game.step_no
                 and not decision_unchanged(session, game, seat.seat, step_no))
        session.expunge(game)
    return game, prompt, stale


def _reloaded(engine: Engine, game: Game) -> Game:
    with Session(engine, expire_on_commit=False) as session:
        fresh = session.get(Game, game.id)
        if fresh is None:
            return game
        session.expunge(fresh)
        return fresh


def _answer(engine: Engine, outcome: Outcome, game: Game, seat: Seat, *, reload: bool = True,
            **fields: Any) -> Taken:
    game = _reloaded(engine, game) if reload else game
    fields.setdefault("step_no", game.step_no)
    return Taken(outcome=outcome, game=game, **fields)


class _Unread(NamedTuple):
    problem: Problem
    words: str | dict[str, Any]


def _parse(rules: Rules, text: str) -> OrderData | _Unread:
    """The order ``text`` stands for, or why it cannot be read."""
    try:
        return rules.parse(text)
    except IllegalOrder as exc:
        return _Unread(Problem.ILLEGAL, exc.message)
    except ValueError as exc:  # a game's parser refusing text in its own words (not an IllegalOrder)
        return _Unread(Problem.UNREADABLE, str(exc))
    except Exception as exc:  # a notation parser should not fail like this, but the player is not to blame
        log.warning("parse of an order failed: %s", exc)
        return _Unread(Problem.UNREADABLE, "")


def _take_text(engine: Engine, game: Game, seat: Seat, text: str, source: OrderSource, *,
               prompt: dict[str, Any] | None, stale: bool, step_no: int | None, max_chars: int | None,
               since: datetime | None, max_attempts: int) -> Taken:
    rules = get_rules(game.slug)
    text = clean(text)  # what the order and its refusals show back: no control characters or overrides
    too_long = max_chars is not None and len(text) > max_chars
    order: OrderData | None = None
    offered = anytime_prompt(rules, game, seat.seat)
    if offered is not None and text:
        idle = prompt is None and step_no is None  # nothing owed: a mail can only mean an anytime decision
        if idle and too_long:
            return _answer(engine, Outcome.REFUSED, game, seat, prompt=offered, anytime=True,
                           problem=Problem.TOO_LONG)
        if not too_long:
            parsed = _parse(rules, text)
            if isinstance(parsed, _Unread):
                return _answer(engine, Outcome.REFUSED, game, seat, prompt=offered if idle else prompt,
                               anytime=idle, problem=parsed.problem, message=parsed.words)
            order = parsed
            if idle or is_anytime_order(offered, order):
                return _apply_anytime(engine, game, seat, order, text, source, offered, since, max_attempts)
    if prompt is None or stale:
        return _answer(engine, Outcome.CLOSED, game, seat)
    if not text:
        return _answer(engine, Outcome.EMPTY, game, seat, prompt=prompt)
    if too_long:
        return _answer(engine, Outcome.REFUSED, game, seat, prompt=prompt, problem=Problem.TOO_LONG)
    if order is None:
        parsed = _parse(rules, text)
        if isinstance(parsed, _Unread):
            return _answer(engine, Outcome.REFUSED, game, seat, prompt=prompt, problem=parsed.problem,
                           message=parsed.words)
        order = parsed
    return _store(engine, game, seat, order, text, source, prompt, step_no, since, max_attempts)


def _store(engine: Engine, game: Game, seat: Seat, order: OrderData, text: str, source: OrderSource,
           prompt: dict[str, Any], step_no: int | None, since: datetime | None, max_attempts: int) -> Taken:
    """Store an order for the open step (``accept_order``); with ``step_no`` None, retry once on a new step."""
    for _attempt in range(1 if step_no is not None else 2):
        at = step_no if step_no is not None else game.step_no
        if since is not None and _already_stored(engine, game, seat, text, source, since):
            return _answer(engine, Outcome.STORED, game, seat, step_no=at, prompt=prompt, stored_before=True,
                           reload=False)
        try:
            row, resolved = accept_order(engine, game.id or 0, seat.id or 0, order, step_no=at, text=text,
                                         source=source, max_attempts=max_attempts, checked=(game, seat))
        except StepClosed:
            game, fresh, _stale = _look(engine, seat, None)
            if step_no is not None or fresh is None:
                return _answer(engine, Outcome.CLOSED, game, seat, reload=False)
            prompt = fresh
            continue  # the step moved on and the seat owes again: try the new step once
        except IllegalOrder as exc:
            return _answer(engine, Outcome.REFUSED, game, seat, prompt=prompt, problem=Problem.ILLEGAL,
                           message=exc.message)
        # the game changed only if the order resolved the step: else the game read before is the game now
        return _answer(engine, Outcome.STORED, game, seat, step_no=at, prompt=prompt, row=row, resolved=resolved,
                       reload=bool(resolved))
    return _answer(engine, Outcome.CLOSED, game, seat)


def _apply_anytime(engine: Engine, game: Game, seat: Seat, order: OrderData, text: str, source: OrderSource,
                   prompt: dict[str, Any], since: datetime | None, max_attempts: int) -> Taken:
    """Apply an order sent at any time (``accept_anytime``)."""
    if since is not None and _already_stored(engine, game, seat, text, source, since):
        return _answer(engine, Outcome.APPLIED, game, seat, step_no=game.step_no, prompt=prompt, anytime=True,
                       stored_before=True, reload=False)
    try:
        row, resolved = accept_anytime(engine, game.id or 0, seat.id or 0, order, text=text, source=source,
                                       max_attempts=max_attempts)
    except StepClosed:
        return _answer(engine, Outcome.CLOSED, game, seat, anytime=True)
    except IllegalOrder as exc:
        return _answer(engine, Outcome.REFUSED, game, seat, prompt=prompt, anytime=True, problem=Problem.ILLEGAL,
                       message=exc.message)
    return _answer(engine, Outcome.APPLIED, game, seat, step_no=row.step_no, prompt=prompt, anytime=True, row=row,
                   resolved=resolved)


def _already_stored(engine: Engine, game: Game, seat: Seat, text: str, source: OrderSource, since: datetime) -> bool:
    with Session(engine) as session:
        row = session.exec(
            select(Order).where(Order.game_id == game.id, Order.seat == seat.seat, Order.source == source,
                                Order.text == text, Order.submitted_at >= since)
        ).first()
        return row is not None
