"""Standing orders: a player's own default for missed deadlines, per game and kind of decision.

A player sets one from the prompt's forms (or the notation) while the seat owes
that decision; it must be legal then (``validate``).  It is kept per kind of
decision (the prompt's ``kind``, else its title's id), so a game with several
kinds of steps (Conquest's mobilisation and offensive) has one for each.

At a missed deadline the turn processor asks :func:`pick` first: the seat's
standing order for the open decision is used when the rules accept it for that
step (``validate``), else the game's default order (or auto-command) as before.
The order is stored with source ``standing`` (the player's own order, so the
replay checks it by its receipt, not as a seeded default) and the seat's log,
hence its next turn mail, says it was used.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from app.games import IllegalOrder
from app.games.base import Rules
from app.i18n.terms import N_
from app.models import Event, Game, Seat, StandingOrder
from app.notices import Refusal

#: A standing order's text is at most this long (it is the game's notation of one order).
MAX_TEXT = 2000


def kind_of(prompt: dict[str, Any] | None) -> str:
    """Which kind of decision a prompt is: its ``kind``, else its title's message id."""
    if not prompt:
        return ""
    if prompt.get("kind"):
        return str(prompt["kind"])[:60]
    title = prompt.get("title")
    if isinstance(title, dict):
        return str(title.get("msg") or title.get("platform") or json.dumps(title, sort_keys=True))[:60]
    return str(title or "")[:60]


def for_seat(session: Session, game_id: int, seat: str) -> list[StandingOrder]:
    return list(session.exec(select(StandingOrder).where(StandingOrder.game_id == game_id,
                                                         StandingOrder.seat == seat)
                             .order_by(col(StandingOrder.set_at))).all())


def save(session: Session, rules: Rules, game: Game, seat: Seat, order: dict[str, Any], now: datetime) -> StandingOrder:
    """Keep ``order`` as the seat's standing order for the decision it owes now; flushes, the caller commits.

    :raises Refusal: the seat owes nothing now.
    :raises IllegalOrder: the order is not legal for the open decision.
    """
    prompt = game.owed.get(seat.seat)
    if not prompt:
        raise Refusal(N_("You owe no decision now: a standing order is set for a decision you owe."))
    rules.validate(game.state, seat.seat, order)
    kind = kind_of(prompt)
    row = session.exec(select(StandingOrder).where(StandingOrder.game_id == game.id,
                                                   StandingOrder.seat == seat.seat,
                                                   StandingOrder.kind == kind)).first()
    row = row or StandingOrder(game_id=game.id or 0, seat=seat.seat, kind=kind)
    row.title = prompt.get("title") if isinstance(prompt.get("title"), dict) else {"text": prompt.get("title")}
    row.order = order
    row.text = rules.format(order)[:MAX_TEXT]
    row.set_at = now
    session.add(row)
    session.flush()
    return row


def clear(session: Session, game_id: int, seat: str, row_id: int) -> None:
    """Forget one of the seat's standing orders (another seat's or an unknown one: nothing happens)."""
    row = session.get(StandingOrder, row_id)
    if row is not None and row.game_id == game_id and row.seat == seat:
        session.delete(row)


def pick(session: Session, rules: Rules, game: Game, seat: str, state: dict[str, Any]) -> dict[str, Any] | None:
    """The seat's standing order for the open decision if the rules accept it now, else None.

    The one of the decision's kind is tried first, then the others (the rules decide).
    """
    rows = for_seat(session, game.id or 0, seat)
    if not rows:
        return None
    kind = kind_of(game.owed.get(seat))
    for row in sorted(rows, key=lambda r: r.kind != kind):
        try:
            rules.validate(state, seat, row.order)
        except (IllegalOrder, ValueError, KeyError, TypeError):
            continue
        return dict(row.order)
    return None


def used_event(game: Game, seat: str, text: str, now: datetime) -> Event:
    """The line in the seat's own log (and so in its next turn mail) that its standing order was used."""
    template = N_("You missed the deadline: your standing order was used for you: {order}")
    message = {"platform": template, "args": {"order": text}}
    return Event(game_id=game.id or 0, step_no=game.step_no, seq=-1, to=[seat], created_at=now,
                 text=template.format(order=text), data={"msg": message})


def title_of(row: StandingOrder) -> Any:
    """The decision a standing order is for, as the page and the report show it."""
    return row.title.get("text") if "text" in row.title and len(row.title) == 1 else row.title


def for_report(session: Session, game_id: int, seat: str) -> list[dict[str, Any]]:
    return [{"kind": r.kind, "title": title_of(r), "text": r.text} for r in for_seat(session, game_id, seat)]
