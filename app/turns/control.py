"""What a GM (or the players together) does to a running game.

Pause, resume (or retry a crashed game), extend a deadline, resolve now, hand a
seat over, give a seat a new link, and the players' consent to a pause asked by
a GM who also plays.  Every change of time is logged as a ``GmAction`` and told
to the players in the game log.

Who commits: every function here takes a session inside a write transaction
(``db.write_session``) and at most flushes; the caller commits (and, after
``resolve_now``, runs ``resolve.process_game``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app import notify
from app.games import get_rules
from app.i18n.terms import N_
from app.kinds import GameStatus, GmActionKind
from app.links import issue_prefs_token, issue_seat_token
from app.models import Game, GmAction, Player, Seat, iso, utcnow
from app.notices import Refusal, notice, seat_name
from app.turns.store import get_or_create_player, id_of

#: What the players read in the game log after a GM action.
_TOLD = {
    GmActionKind.EXTEND: N_("The GM extended the deadline by {hours:g} hours."),
    GmActionKind.PAUSE: N_("The GM paused the game."),
    GmActionKind.RESUME: N_("The GM resumed the game."),
    GmActionKind.RESOLVE: N_("The GM closed the turn early: missing orders get their defaults."),
}

#: Why a GM who also plays may not do an action: in a game they play, a GM has a player's powers only.
_PLAYER_ONLY = {
    GmActionKind.EXTEND: N_("You play in this game, so you cannot extend or pause it yourself: ask the other "
                            "players with \"Ask to pause\" (every one must agree)."),
    GmActionKind.RESOLVE: N_("You play in this game, so you cannot resolve a turn early."),
    GmActionKind.REPLACE: N_("You play in this game, so you cannot hand a seat over."),
    GmActionKind.ROTATE: N_("You play in this game, so you can give a new link only to your own seat."),
}
_PLAYER_ONLY[GmActionKind.PAUSE] = _PLAYER_ONLY[GmActionKind.EXTEND]
_PLAYER_ONLY[GmActionKind.SETTINGS_LINK] = _PLAYER_ONLY[GmActionKind.ROTATE]


class Refused(Refusal):
    """The action may not be done now; the message says why (shown to the GM or player)."""


def gm_seats(session: Session, game: Game) -> set[str]:
    """The seats of a game played by its GM (by e-mail address); empty when the GM does not play."""
    gm = (game.gm_email or "").strip().lower()
    if not gm:
        return set()
    out = set()
    for seat in session.exec(select(Seat).where(Seat.game_id == game.id)).all():
        player = session.get(Player, seat.player_id) if seat.player_id else None
        if player is not None and player.email.strip().lower() == gm:
            out.add(seat.seat)
    return out


def gm_plays(session: Session, game: Game) -> bool:
    """Whether the GM of a game also plays a seat in it."""
    return bool(gm_seats(session, game))


def check_gm_may(session: Session, game: Game, action: GmActionKind, seat_id: str = "") -> None:
    """Refuse a GM power to a GM who plays (a new link for their own seat stays allowed).

    :raises Refused: the GM plays in this game and ``action`` is not a player's power.
    """
    seats = gm_seats(session, game)
    own = action in (GmActionKind.ROTATE, GmActionKind.SETTINGS_LINK) and seat_id in seats
    if not seats or action not in _PLAYER_ONLY or own:
        return
    raise Refused(_PLAYER_ONLY[action])


def find_seat(session: Session, game: Game, seat_id: str) -> Seat:
    """A seat of the game by its id.

    :raises Refused: the game has no such seat.
    """
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat_id)).first()
    if seat is None:
        raise Refused(N_("This game has no such seat."))
    return seat


def log_action(session: Session, game: Game, action: GmActionKind, now: datetime, *, hours: float = 0.0,
               detail: str = "") -> None:
    """Log a GM action (and tell the players when it changes their time)."""
    session.add(GmAction(game_id=id_of(game), action=action, hours=hours, detail=detail, created_at=now))
    text = _TOLD.get(action)
    if text:
        session.add(notice(game.slug, id_of(game), game.step_no, now, text, hours=hours))


def extension_used(session: Session, game: Game) -> float:
    """Hours of GM extensions and pauses used in this game."""
    actions = session.exec(select(GmAction).where(
        GmAction.game_id == game.id, col(GmAction.action).in_((GmActionKind.EXTEND, GmActionKind.PAUSE)))).all()
    return sum(a.hours for a in actions)


def extension_left(session: Session, game: Game, cap_hours: float) -> float:
    """Hours of extension the GM has left in this game under a cap of ``cap_hours``."""
    return max(0.0, float(cap_hours) - extension_used(session, game))


def extend(session: Session, game: Game, hours: float, now: datetime, *, cap_hours: float) -> None:
    """Move the deadline later by ``hours`` (capped per game).

    :raises Refused: the cap would be passed, or the GM plays in this game.
    """
    check_gm_may(session, game, GmActionKind.EXTEND)
    if game.deadline is None:
        return
    left = extension_left(session, game, cap_hours)
    if hours > left:
        raise Refused(N_("GM extensions are capped: {hours:g} hours left in this game."), hours=left)
    game.deadline = game.deadline + timedelta(hours=hours)
    log_action(session, game, GmActionKind.EXTEND, now, hours=hours, detail=f"deadline now {iso(game.deadline)}")
    session.add(game)


def pause(session: Session, game: Game, now: datetime) -> bool:
    """Pause a running game; whether it was running.

    :raises Refused: the GM plays in this game.
    """
    check_gm_may(session, game, GmActionKind.PAUSE)
    if game.status != GameStatus.RUNNING:
        return False
    game.status = GameStatus.PAUSED
    log_action(session, game, GmActionKind.PAUSE, now)
    session.add(game)
    return True


def resume(session: Session, game: Game, now: datetime) -> bool:
    """Run a paused game again (or retry a crashed one); whether it was paused or crashed.

    The time a game was paused moves its deadline and counts against the GM's cap;
    a deadline that has passed becomes a full turn from now.
    """
    if game.status not in (GameStatus.PAUSED, GameStatus.CRASHED):
        return False
    paused = session.exec(select(GmAction).where(GmAction.game_id == game.id, GmAction.action == GmActionKind.PAUSE)
                          .order_by(col(GmAction.id).desc())).first()
    if paused is not None and game.status == GameStatus.PAUSED and game.deadline:
        away = now - paused.created_at
        paused.hours = round(away.total_seconds() / 3600, 2)  # a pause counts against the cap
        session.add(paused)
        game.deadline = max(game.deadline + away, now + timedelta(hours=1))
    game.status = GameStatus.RUNNING
    game.attempts = 0
    if game.deadline and game.deadline < now:
        game.deadline = now + timedelta(hours=game.hours)
    log_action(session, game, GmActionKind.RESUME, now)
    session.add(game)
    return True


def resolve_now(session: Session, game: Game, now: datetime) -> bool:
    """Make the open step due now (missing orders get their defaults); whether the game runs.

    The caller resolves it after commit (``resolve.process_game``).

    :raises Refused: the GM plays in this game.
    """
    check_gm_may(session, game, GmActionKind.RESOLVE)
    if game.status != GameStatus.RUNNING:
        return False
    game.deadline = now
    log_action(session, game, GmActionKind.RESOLVE, now, detail="deadline set to now")
    session.add(game)
    return True


def rotate_link(session: Session, game: Game, seat_id: str) -> str:
    """A fresh link for a seat; the old one stops working at once.

    :raises Refused: the game has no such seat.
    """
    seat = find_seat(session, game, seat_id)
    token = issue_seat_token(seat)
    session.add(seat)
    return token


def replace_player(session: Session, game: Game, seat_id: str, email: str, now: datetime | None = None) -> str:
    """Hand a seat to a new player: fresh link (the old one dies), ladder reset, invitation mail.

    :raises Refused: the GM plays in this game.
    """
    now = now or utcnow()
    check_gm_may(session, game, GmActionKind.REPLACE)
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
    session.add(GmAction(game_id=id_of(game), action="replace", detail=f"{seat_id} -> {email}", created_at=now))
    session.add(notice(game.slug, id_of(game), game.step_no, now, N_("A new player takes over {seat}."),
                       seat=seat_name(seat_id)))
    session.flush()
    notify.seat_handed_over(session, game, get_rules(game.slug), seat, player, now)
    return token


def new_link(session: Session, game: Game, seat_id: str, now: datetime) -> Seat:
    """A fresh link for a seat, logged as a GM action and told to the players; the seat, to build the link from.

    :raises Refused: the game has no such seat, or it is another player's and the GM plays.
    """
    check_gm_may(session, game, GmActionKind.ROTATE, seat_id)
    rotate_link(session, game, seat_id)
    seat = find_seat(session, game, seat_id)
    log_action(session, game, GmActionKind.ROTATE, now, detail=seat_id)
    session.add(notice(game.slug, id_of(game), game.step_no, now, N_("The GM gave {seat} a new link."),
                       seat=seat_name(seat_id)))
    session.add(game)
    return seat


def new_settings_link(session: Session, game: Game, seat_id: str, now: datetime) -> None:
    """Give the player of a seat a fresh settings link (``/me/...``): the old one stops working at once.

    The GM never sees it: the player's next mail (or a link resend) carries it.

    :raises Refused: no player holds such a seat, or it is another player's and the GM plays.
    """
    check_gm_may(session, game, GmActionKind.SETTINGS_LINK, seat_id)
    seat = find_seat(session, game, seat_id)
    player = session.get(Player, seat.player_id) if seat.player_id else None
    if player is None:
        raise Refused(N_("This game has no such seat."))
    issue_prefs_token(player)
    session.add(player)
    session.add(GmAction(game_id=id_of(game), action=GmActionKind.SETTINGS_LINK, detail=seat_id, created_at=now))


# --------------------------------------------------------------------------- a pause the players agree to


def open_pause_request(session: Session, game: Game) -> GmAction | None:
    """The pending pause request of a game, if any."""
    req = session.exec(select(GmAction).where(GmAction.game_id == game.id,
                                              GmAction.action == GmActionKind.PAUSE_REQUEST)
                       .order_by(col(GmAction.id).desc())).first()
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
    out = set()
    for seat in session.exec(select(Seat).where(Seat.game_id == game.id)).all():
        player = session.get(Player, seat.player_id) if seat.player_id else None
        if player is not None and player.email.lower() != (game.gm_email or "").lower():
            out.add(seat.seat)
    return out


def ask_pause(session: Session, game: Game, hours: float, now: datetime) -> None:
    """A GM who also plays asks the other players to pause the game for ``hours``.

    :raises Refused: a request is already open.
    """
    if open_pause_request(session, game) is not None:
        raise Refused(N_("A pause request is already open."))
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
    req = open_pause_request(session, game)
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
