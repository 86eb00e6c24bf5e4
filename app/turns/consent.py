"""A pause the players agree to: a GM who also plays in a game cannot pause it alone.

The GM asks (``ask_pause``) for some hours; the game pauses when every other player
has agreed on their own page (``consent_to_pause``), and runs again when those hours
are over (``end_agreed_pauses``, from the scheduler's sweep) or when the GM resumes it
(``control.resume``).  Requests, answers and the pause itself are ``GmAction`` rows.

Who commits: as in ``app.turns.control``, the caller.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.i18n.terms import N_
from app.kinds import GameStatus, GmActionKind
from app.models import Game, GmAction
from app.notices import notice
from app.turns.control import (
    Refused,
    check_hours,
    extension_left,
    gm_plays,
    granted_request,
    holders,
    last_pause,
    last_request,
    log_action,
    run_again,
)
from app.turns.store import address_key, id_of


def open_pause_request(session: Session, game: Game) -> GmAction | None:
    """The pending pause request of a game, if any."""
    req = last_request(session, game)
    if req is None or req.detail != "open" or game.status != GameStatus.RUNNING:
        return None
    return req


def pause_consents(session: Session, game: Game, req: GmAction) -> set[str]:
    """Seats whose players agreed to the pause request ``req``."""
    rows = session.exec(select(GmAction).where(GmAction.game_id == game.id,
                                               GmAction.action == GmActionKind.PAUSE_CONSENT,
                                               col(GmAction.id) > (req.id or 0))).all()
    return {r.detail for r in rows}


def pause_voters(session: Session, game: Game) -> set[str]:
    """Seats whose players must agree: every human seat but the GM's own."""
    gm = address_key(game.gm_email or "")
    return {seat for seat, email in holders(session, game).items() if email != gm}


def ask_pause(session: Session, game: Game, hours: float, now: datetime, *, cap_hours: float | None = None) -> None:
    """A GM who also plays asks the other players to pause the game for ``hours``.

    Once every other player agreed, the game is paused; it runs again after ``hours``
    (``end_agreed_pauses``) or when the GM resumes it.

    :raises Refused: the GM does not play or the game is not running, a request is already open, or
        ``hours`` is not a positive number within the GM time left under ``cap_hours``.
    """
    if not gm_plays(session, game):
        raise Refused(N_("Only a GM who also plays asks the players to pause; you can pause the game yourself."))
    if game.status != GameStatus.RUNNING:
        raise Refused(N_("Only a running game can be paused."))
    if open_pause_request(session, game) is not None:
        raise Refused(N_("A pause request is already open."))
    check_hours(hours, extension_left(session, game, cap_hours) if cap_hours is not None else 10.0**6)
    session.add(GmAction(game_id=id_of(game), action=GmActionKind.PAUSE_REQUEST, hours=hours, detail="open",
                         created_at=now))
    session.add(notice(game.slug, id_of(game), game.step_no, now,
                       N_("The GM, who also plays, asks to pause the game for {hours:g} hours. It pauses only "
                          "if every other player agrees (link \"Pause request\" at the foot of your page)."),
                       hours=hours))
    log_action(session, game, GmActionKind.ASK_PAUSE, now, detail=f"{hours:g} h")


def consent_to_pause(session: Session, game: Game, seat_id: str, now: datetime) -> bool:
    """Seat ``seat_id`` agrees to the open pause request; whether the game is now paused (all agreed).

    :raises Refused: no request is open, or this seat has no say in it.
    """
    req, granted = open_pause_request(session, game), granted_request(session, game)
    if granted is not None and seat_id in pause_consents(session, game, granted):
        return True  # the pause this seat agreed to has started: agreeing again changes nothing
    if req is None or seat_id not in pause_voters(session, game):
        raise Refused(N_("There is no pause request for you to answer."))
    if seat_id not in pause_consents(session, game, req):
        session.add(GmAction(game_id=id_of(game), action=GmActionKind.PAUSE_CONSENT, detail=seat_id, created_at=now))
        session.flush()
    if not pause_consents(session, game, req) >= pause_voters(session, game):
        return False
    req.detail = "granted"
    session.add(req)
    game.status = GameStatus.PAUSED
    session.add(GmAction(game_id=id_of(game), action=GmActionKind.PAUSE, detail="agreed by every player",
                         created_at=now))
    session.add(notice(game.slug, id_of(game), game.step_no, now, N_("Every player agreed: the game is paused.")))
    session.add(game)
    return True


def end_agreed_pauses(session: Session, now: datetime, *, cap_hours: float | None = None) -> int:
    """Run again every game whose agreed pause (``consent_to_pause``) has lasted its hours; how many.

    The scheduler's sweep calls this; the deadline moves as when the GM resumes (``resume``).
    """
    ended = 0
    for game in session.exec(select(Game).where(Game.status == GameStatus.PAUSED)).all():
        req, paused = granted_request(session, game), last_pause(session, game)
        if req is None or paused is None or now < paused.created_at + timedelta(hours=req.hours):
            continue
        run_again(session, game, now, cap_hours)
        session.add(GmAction(game_id=id_of(game), action=GmActionKind.RESUME, detail="agreed pause over",
                             created_at=now))
        session.add(notice(game.slug, id_of(game), game.step_no, now,
                           N_("The agreed pause of {hours:g} hours is over: the game runs again."), hours=req.hours))
        ended += 1
    return ended
