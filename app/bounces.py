"""Delivery-aware absence: a missed deadline that follows a bounced mail is excused.

When the turn mail or a reminder to a seat bounced during the open turn (a
delivery report recorded by ``app.mailin.handler``: an ``InboundMail`` row with
status ``bounce`` and the seat), the player may never have heard of the
decision.  The first deadline the seat then misses is excused: the step waits
one extension (the league's ``extension_hours``, else the game's turn length),
the missed deadline does not count toward auto-command, everyone is told, and
so is the GM by mail.  Once per turn and seat (``Seat.bounce_excused_step``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.i18n.terms import N_
from app.models import Game, InboundMail, League, Player, Seat, Step
from app.notices import notice, seat_name
from app.outbox import queue_mail
from app.seats import game_seats

#: The mails a bounce of which excuses a miss: the turn's mails and its reminders.
TURN_MAIL_KINDS = ("start", "turn", "remind", "handover")


def turn_start(session: Session, game: Game) -> int:
    """The first step of the game's open turn (its turn key began there)."""
    other = session.exec(select(Step.step_no).where(Step.game_id == game.id, Step.step_no <= game.step_no,
                                                    Step.turn_key != game.turn_key)
                         .order_by(col(Step.step_no).desc())).first()
    return (other or 0) + 1


def bounced_seats(session: Session, game: Game, seats: list[Seat]) -> list[Seat]:
    """Of these seats, those whose turn mail or reminder of the open turn bounced (not yet excused this turn)."""
    start = turn_start(session, game)
    ids = {s.id: s for s in seats if s.player_id and s.bounce_excused_step < start}
    if not ids:
        return []
    rows = session.exec(select(InboundMail).where(InboundMail.game_id == game.id, InboundMail.status == "bounce",
                                                  col(InboundMail.seat_id).in_(list(ids)),
                                                  col(InboundMail.step_no) >= start)).all()
    return [ids[r.seat_id] for r in rows if r.seat_id in ids and _turn_mail(r)]


def _turn_mail(row: InboundMail) -> bool:
    """Whether the bounced mail was a turn mail or a reminder (not, say, an answer to a mailed order)."""
    kind = row.detail.rsplit(" kind=", 1)[-1] if " kind=" in row.detail else "turn"
    return kind.startswith(TURN_MAIL_KINDS)


def excuse(session: Session, game: Game, missing: list[str], now: datetime) -> datetime | None:
    """A new deadline when a missing seat's mail bounced (the step waits), else None; flushes."""
    seats = [s for s in game_seats(session, game.id) if s.seat in missing]
    excused = {s.id: s for s in bounced_seats(session, game, seats)}
    if not excused:
        return None
    league = session.get(League, game.league_id) if game.league_id else None
    hours = league.extension_hours if league is not None else (game.hours or 24.0)
    for seat in excused.values():
        seat.bounce_excused_step = game.step_no
        session.add(seat)
        session.add(notice(game.slug, game.id or 0, game.step_no, now,
                           N_("The mail to {seat} could not be delivered, so this missed deadline is excused: "
                              "the step waits {hours:g} hours more."), seat=seat_name(seat.seat), hours=hours))
        _tell_gm(session, game, seat, hours, now)
    return now + timedelta(hours=hours)


def _tell_gm(session: Session, game: Game, seat: Seat, hours: float, now: datetime) -> None:
    if not game.gm_email:
        return
    player = session.get(Player, seat.player_id) if seat.player_id else None
    text = (f"The turn mail or a reminder of {game.title} #{game.id} to seat {seat.seat} "
            f"({player.email if player else 'no address'}) bounced, and the seat missed the deadline.\n"
            f"The missed deadline is excused: the step waits {hours:g} hours more; it does not count toward "
            "auto-command.\nPlease ask the player for a working address (GM page: hand over the seat, or "
            "resend the mail once the address works).\n")
    queue_mail(session, game_id=game.id, step_no=game.step_no, seat="GM", kind=f"bounce-excused-{seat.seat}",
               to_addr=game.gm_email, subject=f"[{game.title} #{game.id}] {seat.seat}: deadline excused after a "
               "bounced mail", text=text, html="", report_id=None, thread=f"g{game.id}.GM", now=now)
