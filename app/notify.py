"""What the players are told after a step: report contexts and outbox mails.

Everything here is drawn from views (``rules.view``), never from the raw state.
A resolved step only names what to build (``turn_report_jobs``: ``MailJob``
rows, in the step's transaction); ``app.mailjobs`` builds the reports and mails
from the stored step after commit (``prepare_step``, then ``store``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import render_template
from sqlalchemy import bindparam, insert
from sqlalchemy.orm import defer
from sqlmodel import Session, col, select

from app import press, standing
from app.db import Encoded
from app.games import get_rules
from app.games.base import Rules
from app.i18n import game_title_filter, gettext, player_locale, seat_name_filter
from app.kinds import GameStatus
from app.models import Event, Game, MailJob, Player, Report, Seat, Step, iso
from app.outbox import mail_row, queue_mail, queue_row
from app.report_html import map_view
from app.seats import bot_seats, game_seats
from app.tokens import LINK_PLACEHOLDER


def visible(event: Event, seat: str | None) -> bool:
    return event.to is None or (seat is not None and seat in event.to)


def events_for(session: Session, game: Game, seat: str | None, since_step: int,
               until_step: int | None = None, state: Any = None) -> list[dict[str, Any]]:
    """The events a seat may see from step ``since_step`` on (before ``until_step`` when given); seats named
    as in ``state`` (``log_entries``)."""
    query = select(Event).where(Event.game_id == game.id, Event.step_no >= since_step)
    if until_step is not None:
        query = query.where(Event.step_no < until_step)
    rows = session.exec(query.order_by(Event.step_no, Event.seq, col(Event.id))).all()
    return log_entries(session, game, [e for e in rows if visible(e, seat)], state)


def log_entries(session: Session, game: Game, rows: list[Event], state: Any = None) -> list[dict[str, Any]]:
    """Events as a log shows them (oldest first): step, the step's turn key, and the message.

    Pages, mails and reports group them by turn (the ``by_turn`` filter).  With the game's ``state``, a
    game whose seats take their names from it (``seat_label``: Empire's colours) has its seats named so
    in every message, the platform's notices included ("VERDE (Jogador 3) não deu ordens a tempo").
    """
    label = getattr(get_rules(game.slug), "seat_label", None) if state is not None else None
    return [{"step": e.step_no, "turn": turn,
             "text": e.message if label is None else _named_seats(e.message, label, state)}
            for e, turn in zip(rows, _turn_keys(session, game, rows), strict=True)]


def _turn_keys(session: Session, game: Game, rows: list[Event]) -> list[str]:
    steps = {e.step_no for e in rows}
    turns = dict(session.exec(select(Step.step_no, Step.turn_key).where(
        Step.game_id == game.id, Step.step_no.in_(steps))).all()) if steps else {}  # type: ignore[attr-defined]
    return [turns.get(e.step_no, "") for e in rows]


def _named_seats(text: Any, label: Callable[[Any, str], Any], state: Any) -> Any:
    """``text`` with each seat's name (``{"msg": "seat.P3"}``) as ``label`` names it in ``state``."""
    if isinstance(text, dict):
        if set(text) == {"msg"} and str(text["msg"]).startswith("seat."):
            try:
                return label(state, str(text["msg"])[5:])
            except (KeyError, TypeError):  # not one of this state's seats: its plain name
                return text
        return {k: _named_seats(v, label, state) for k, v in text.items()}
    if isinstance(text, list):
        return [_named_seats(v, label, state) for v in text]
    return text


def seat_message(rules: Rules, state: Any, seat: str) -> Any:
    """How the seat is named (a message), as its board names it: a game whose seats take their names from
    its state (``seat_label``: Empire's colours) names them so in the report and its mail ("VERDE (Jogador
    3)"), whose context holds no state."""
    label = getattr(rules, "seat_label", None)
    return _named_seats({"msg": f"seat.{seat}"}, label, state) if label is not None else {"msg": f"seat.{seat}"}


def report_context(
    session: Session, game: Game, rules: Rules, seat: Seat, player: Player | None, now: datetime,
    public_view: dict[str, Any] | None = None, step: Step | None = None,
) -> dict[str, Any]:
    """The data of one seat's report (JSON), from that seat's view only.

    With ``step`` the report is the one of that step, drawn from the step's
    stored state (what the seat saw when it opened), else from the game's open
    step.  With ``public_view`` (``report_html.map_view``: what a spectator
    sees) the report's map page is drawn from it: the same page for every seat
    of the step, so it is rendered once (``report_html.map_key``).
    """
    if step is None:
        step_no, state, owed, turn_key = game.step_no, game.state, game.owed, game.turn_key
        deadline, status, until = game.deadline, game.status, None
    else:
        step_no, state, owed, turn_key, deadline = step.step_no, step.state, step.owed, step.turn_key, step.deadline
        ended = rules.outcome(state) is not None or not owed
        status, until = (GameStatus.FINISHED if ended else GameStatus.RUNNING), step_no
    last = session.exec(
        select(Report.step_no)
        .where(Report.game_id == game.id, Report.seat == seat.seat, Report.step_no < step_no)
        .order_by(Report.step_no.desc())  # type: ignore[attr-defined]
    ).first()
    finished = status == GameStatus.FINISHED
    ctx = {
        "game": {
            "id": game.id, "slug": game.slug, "title": game.title, "step_no": step_no,
            "turn_key": turn_key, "status": status, "seed_hash": game.seed_hash,
            "seed": game.seed if finished else None, "options": game.options, "press": game.press,
            "bots": bot_seats(session, game.id),
        },
        "seat": seat.seat,
        "seat_name": seat_message(rules, state, seat.seat),
        "player": {"name": player.name if player else "", "timezone": player.timezone if player else "UTC",
                   "language": player.language if player else "en"},
        "view": rules.view(state, seat.seat),
        "events": events_for(session, game, seat.seat, last if last is not None else 0, until, state),
        "prompt": owed.get(seat.seat),
        "waiting_for": sorted(s for s in owed if s != seat.seat),
        "deadline": iso(deadline),
        "outcome": rules.outcome(state),
        "made_at": iso(now),
    }
    if public_view is not None:
        ctx["public_view"] = public_view
    ctx["standing"] = standing.for_report(session, game.id or 0, seat.seat)  # the appendix: standing orders,
    if finished:  # and at the end the press this seat may read
        ctx["press"] = press.for_report(session, seat)
    if getattr(rules, "seat_label", None) is not None:  # the other seats it names, as the board names them
        ctx["seat_names"] = {s: seat_message(rules, state, s) for s in _seats_named(ctx)}
    return ctx


def _seats_named(ctx: dict[str, Any]) -> set[str]:
    """The seats a report context names outside its view: results, who is awaited, press senders and readers."""
    named = {str(r["seat"]) for r in ctx.get("outcome") or [] if isinstance(r, dict) and "seat" in r}
    named.update(str(s) for s in ctx.get("waiting_for") or [])
    for message in ctx.get("press") or []:
        named.add(str(message.get("from")))
        named.update(str(s) for s in message.get("to") or [])
    return named


def _seat_players(session: Session, game: Game) -> list[tuple[Seat, Player]]:
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
    out = []
    for seat in seats:
        if seat.player_id:
            player = session.get(Player, seat.player_id)
            if player is not None:
                out.append((seat, player))
    return out


@dataclass
class Prepared:
    """A seat's report and mail, built (the expensive part) and ready to store."""

    game_id: int
    step_no: int
    seat: str
    kind: str
    context: dict[str, Any]
    to_addr: str
    digest: bool  # held for the daily digest
    now: datetime
    mail: tuple[str, str, str] | None  # subject, text, html; None: no mail (unsubscribed from news)


def prepare(
    session: Session, game: Game, rules: Rules, seat: Seat, player: Player, kind: str, now: datetime,
    public_view: dict[str, Any] | None = None, step: Step | None = None,
) -> Prepared:
    """Build one seat's report context and mail bodies (reads only)."""
    ctx = report_context(session, game, rules, seat, player, now, public_view, step)
    optional = kind == "turn" and not ctx["prompt"]  # nothing owed: news only
    mail = None
    if not optional or player.optional_mail:  # unsubscribed from news: the report stays on the player's page
        with player_locale(player.language):
            mail = (render_template("mail/subject.txt", ctx=ctx, kind=kind).strip(),
                    render_template("mail/turn.txt", ctx=ctx, kind=kind, link=LINK_PLACEHOLDER),
                    render_template("mail/turn.html", ctx=ctx, kind=kind, link=LINK_PLACEHOLDER))
    # the context is encoded here, while reading: storing it (in a write transaction) costs no encoding
    return Prepared(game_id=game.id or 0, step_no=ctx["game"]["step_no"], seat=seat.seat, kind=kind,
                    context=Encoded(ctx),
                    to_addr=player.email, digest=optional and player.digest, now=now, mail=mail)


_REPORT = Report.__table__  # type: ignore[attr-defined]
_REPORT_ID = select(_REPORT.c.id).where(_REPORT.c.game_id == bindparam("game_id"),
                                        _REPORT.c.step_no == bindparam("step_no"), _REPORT.c.seat == bindparam("seat"))
_ADD_REPORT = insert(_REPORT)


def store(session: Session, made: Prepared) -> None:
    """Write a prepared report (once per game, step and seat) and queue its mail (once per Message-ID).

    In statements built once, the context already encoded (``prepare``): the write lock is held the shorter.
    """
    conn = session.connection()
    key = {"game_id": made.game_id, "step_no": made.step_no, "seat": made.seat}
    report_id = conn.execute(_REPORT_ID, key).scalar()
    if report_id is None:
        added = conn.execute(_ADD_REPORT, {**key, "context": made.context, "created_at": made.now})
        report_id = added.inserted_primary_key[0]  # type: ignore[index]
    if made.mail is None:
        return
    subject, text, html = made.mail
    queue_row(session, mail_row(game_id=made.game_id, step_no=made.step_no, seat=made.seat, kind=made.kind,
                                to_addr=made.to_addr, subject=subject, text=text, html=html, report_id=report_id,
                                thread=f"g{made.game_id}.{made.seat}", now=made.now), digest=made.digest)


def _report_and_mail(
    session: Session, game: Game, rules: Rules, seat: Seat, player: Player, kind: str, now: datetime,
    public_view: dict[str, Any] | None = None,
) -> None:
    store(session, prepare(session, game, rules, seat, player, kind, now, public_view))


def game_started(session: Session, game: Game, rules: Rules, now: datetime) -> None:
    public = map_view(rules, game.state)
    for seat, player in _seat_players(session, game):
        _report_and_mail(session, game, rules, seat, player, "start", now, public)


def turn_reports(session: Session, game: Game, rules: Rules, seats: list[Seat], now: datetime) -> None:
    """Build and queue the reports of the game's open step now, in the caller's transaction."""
    kind = "end" if game.status == GameStatus.FINISHED else "turn"
    public = map_view(rules, game.state)
    for seat, player in _seat_players(session, game):
        _report_and_mail(session, game, rules, seat, player, kind, now, public)


def turn_report_jobs(session: Session, game: Game, now: datetime) -> list[dict[str, Any]]:
    """The ``MailJob`` rows that name the reports and mails of the step just opened (``app.mailjobs`` builds
    them after commit); the caller writes them, in one statement."""
    kind = "end" if game.status == GameStatus.FINISHED else "turn"
    return [{"game_id": game.id or 0, "step_no": game.step_no, "seat": seat.seat, "kind": kind, "created_at": now}
            for seat in game_seats(session, game.id) if seat.player_id]  # a bot's seat gets no mail


def prepare_step(session: Session, jobs: list[MailJob]) -> list[Prepared | None]:
    """Build the queued reports of one step (the jobs of one game and step) from its stored state, one per job
    (None: its game, step or player is gone); reads only."""
    if not jobs:
        return []
    game = session.get(Game, jobs[0].game_id, options=[defer(Game.state)])  # the step's own state is used
    step = session.exec(select(Step).where(Step.game_id == jobs[0].game_id,
                                           Step.step_no == jobs[0].step_no)).first()
    if game is None or step is None:
        return [None for _job in jobs]
    rules = get_rules(game.slug)
    public = map_view(rules, step.state)
    out: list[Prepared | None] = []
    for job in jobs:
        seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == job.seat)).first()
        player = session.get(Player, seat.player_id) if seat is not None and seat.player_id else None
        if seat is None or player is None:
            out.append(None)
            continue
        out.append(prepare(session, game, rules, seat, player, job.kind, job.created_at, public, step))
    return out


def seat_handed_over(session: Session, game: Game, rules: Rules, seat: Seat, player: Player,
                     now: datetime) -> None:
    """The invitation of a replacement player (a mail identity of its own per link version)."""
    ctx = report_context(session, game, rules, seat, player, now)
    kind = f"handover{seat.token_version}"
    with player_locale(player.language):
        text = render_template("mail/turn.txt", ctx=ctx, kind="handover", link=LINK_PLACEHOLDER)
        html = render_template("mail/turn.html", ctx=ctx, kind="handover", link=LINK_PLACEHOLDER)
        subject = gettext("[%(title)s #%(id)s] you take over %(seat)s",
                          title=game_title_filter(game.title, game.slug), id=game.id,
                          seat=seat_name_filter(seat.seat, game.slug, game.state))
    queue_mail(session, game_id=game.id, step_no=game.step_no, seat=seat.seat, kind=kind, to_addr=player.email,
               subject=subject, text=text, html=html,
               report_id=None, thread=f"g{game.id}.{seat.seat}.v{seat.token_version}", now=now)


def outage_notice(session: Session, game: Game, hours: float, now: datetime) -> None:
    """Tell every player of a game that its deadline moved after an outage."""
    for seat, player in _seat_players(session, game):
        with player_locale(player.language):
            text = render_template("mail/outage.txt", game=game, seat=seat, hours=hours, player=player,
                                   deadline=iso(game.deadline), link=LINK_PLACEHOLDER)
            subject = gettext("[%(title)s #%(id)s] deadline moved after a server outage",
                              title=game_title_filter(game.title, game.slug), id=game.id)
        queue_mail(session, game_id=game.id, step_no=game.step_no, seat=seat.seat,
                   kind=f"outage{int(now.timestamp())}", to_addr=player.email,
                   subject=subject, text=text, html="",
                   report_id=None, thread=f"g{game.id}.{seat.seat}", now=now)
