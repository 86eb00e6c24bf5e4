"""What a GM (or the players together) does to a running game.

Pause, resume (or retry a crashed game), extend a deadline, resolve now, hand a
seat over, give a seat a new link, and the players' consent to a pause asked by
a GM who also plays.  Every change of time is logged as a ``GmAction`` and told
to the players in the game log.

Extensions and pauses use the GM time capped per game (``cap_hours``): with none
left a pause is refused, and a resume moves the deadline by at most what was left.

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
from app.seats import game_seats
from app.turns.store import address_key, closed_early, get_or_create_player, id_of, is_address

#: What the players read in the game log after a GM action.
_TOLD = {
    GmActionKind.EXTEND: N_("The GM extended the deadline by {hours:g} hours."),
    GmActionKind.PAUSE: N_("The GM paused the game."),
    GmActionKind.RESUME: N_("The GM resumed the game."),
    GmActionKind.RESOLVE: N_("The GM closed the turn early: missing orders get their defaults."),
}

#: Why the GM may not pause or extend any more.
NO_TIME_LEFT = N_("No GM time is left in this game: it can no longer be extended or paused.")
#: The shortest extension or pause, in hours (six minutes).
MIN_HOURS = 0.1

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


def holders(session: Session, game: Game) -> dict[str, str]:
    """The address (lower case) of the player of each seat a player holds."""
    out = {}
    for seat in session.exec(select(Seat).where(Seat.game_id == game.id)).all():
        player = session.get(Player, seat.player_id) if seat.player_id else None
        if player is not None:
            out[seat.seat] = address_key(player.email)
    return out


def gm_seats(session: Session, game: Game) -> set[str]:
    """The seats of a game played by its GM (by e-mail address); empty when the GM does not play."""
    gm = address_key(game.gm_email or "")
    return {seat for seat, email in holders(session, game).items() if gm and email == gm}


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
    """A seat of the game by its id (matched among the game's seats: a GM's form field of any text never
    reaches a query, where PostgreSQL would refuse a NUL byte).

    :raises Refused: the game has no such seat.
    """
    seat = next((s for s in game_seats(session, game.id) if s.seat == seat_id), None)
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

    :raises Refused: the game is not running or paused, ``hours`` is not a positive number within the
        GM time left, or the GM plays in this game.
    """
    check_gm_may(session, game, GmActionKind.EXTEND)
    if game.status not in (GameStatus.RUNNING, GameStatus.PAUSED) or game.deadline is None:
        raise Refused(N_("Only a running or paused game can have its deadline extended."))
    check_hours(hours, extension_left(session, game, cap_hours))
    game.deadline = game.deadline + timedelta(hours=hours)
    log_action(session, game, GmActionKind.EXTEND, now, hours=hours, detail=f"deadline now {iso(game.deadline)}")
    session.add(game)


def check_hours(hours: float, left: float) -> None:
    """Refuse GM time (an extension, a pause asked for) that is not a number of hours from ``MIN_HOURS`` to ``left``.

    :raises Refused: no GM time is left, ``hours`` is not at least ``MIN_HOURS``, or more than ``left``.
    """
    if left < MIN_HOURS:
        raise Refused(NO_TIME_LEFT)
    if not MIN_HOURS <= hours <= 10**6:  # not NaN, and far from overflowing a date
        raise Refused(N_("Give a positive number of hours, at most the {hours:g} hours of GM time left in this "
                         "game."), hours=left)
    if hours > left:
        raise Refused(N_("GM extensions are capped: {hours:g} hours left in this game."), hours=left)


def pause(session: Session, game: Game, now: datetime, *, cap_hours: float | None = None) -> bool:
    """Pause a running game; whether it was running.

    :raises Refused: no GM time is left under ``cap_hours`` (a pause uses it), or the GM plays in this game.
    """
    check_gm_may(session, game, GmActionKind.PAUSE)
    if game.status != GameStatus.RUNNING:
        return False
    if cap_hours is not None and extension_left(session, game, cap_hours) < MIN_HOURS:
        raise Refused(NO_TIME_LEFT)
    game.status = GameStatus.PAUSED
    log_action(session, game, GmActionKind.PAUSE, now)
    session.add(game)
    return True


def resume(session: Session, game: Game, now: datetime, *, cap_hours: float | None = None) -> bool:
    """Run a paused game again (or retry a crashed one); whether it was paused or crashed.

    The time a game was paused moves its deadline and counts against the GM's cap: by
    at most the GM time left under ``cap_hours`` (the rest of the pause is not added);
    a deadline that has passed becomes a full turn from now.
    """
    if game.status not in (GameStatus.PAUSED, GameStatus.CRASHED):
        return False
    run_again(session, game, now, cap_hours)
    log_action(session, game, GmActionKind.RESUME, now)
    return True


def run_again(session: Session, game: Game, now: datetime, cap_hours: float | None) -> None:
    """Set a paused or crashed game running, its deadline moved by the pause (see ``resume``)."""
    paused, granted = last_pause(session, game), granted_request(session, game)
    if granted is not None:  # an agreed pause ends here, whether its hours are over or the GM resumes
        granted.detail = "ended"
        session.add(granted)
    if paused is not None and game.status == GameStatus.PAUSED and game.deadline:
        hours = max(0.0, (now - paused.created_at).total_seconds() / 3600)
        if cap_hours is not None:
            hours = min(hours, extension_left(session, game, cap_hours))
        paused.hours = round(hours, 2)  # a pause counts against the cap
        session.add(paused)
        game.deadline = max(game.deadline + timedelta(hours=paused.hours), now + timedelta(hours=1))
    game.status = GameStatus.RUNNING
    game.attempts = 0
    if game.deadline and game.deadline < now:
        game.deadline = now + timedelta(hours=game.hours)
    session.add(game)


def last_pause(session: Session, game: Game) -> GmAction | None:
    """The latest pause of a game (by the GM, or agreed by the players)."""
    return session.exec(select(GmAction).where(GmAction.game_id == game.id, GmAction.action == GmActionKind.PAUSE)
                        .order_by(col(GmAction.id).desc())).first()


def resolve_now(session: Session, game: Game, now: datetime) -> bool:
    """Make the open step due now (missing orders get their defaults); whether the game runs.

    The caller resolves it after commit (``resolve.process_game``).

    :raises Refused: the GM plays in this game.
    """
    check_gm_may(session, game, GmActionKind.RESOLVE)
    if game.status != GameStatus.RUNNING:
        return False
    game.deadline = now
    log_action(session, game, GmActionKind.RESOLVE, now, detail=closed_early(game.step_no))
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

    :raises Refused: the GM plays in this game, the game is over, no player plays such a seat, or the
        address is not one, is the GM's own or already holds another seat of the game.
    """
    now = now or utcnow()
    check_gm_may(session, game, GmActionKind.REPLACE)
    email = email.strip()
    if game.status == GameStatus.FINISHED:
        raise Refused(N_("The game is over: its seats can no longer be handed over."))
    seat = find_seat(session, game, seat_id)
    if seat.is_robot:
        raise Refused(N_("{seat} is played by the game itself: it cannot be handed over."), seat=seat_name(seat_id))
    if not is_address(email):
        raise Refused(N_("Give the new player's e-mail address."))
    if address_key(email) == address_key(game.gm_email or ""):
        raise Refused(N_("This is your own address, the GM's: a GM who takes a seat loses the GM's powers "
                         "in this game."))
    for other, holder in holders(session, game).items():
        if holder == address_key(email) and other != seat_id:
            raise Refused(N_("{email} already plays {seat} in this game: one player cannot hold two seats."),
                          email=email, seat=seat_name(other))
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


def last_request(session: Session, game: Game) -> GmAction | None:
    """The latest pause request of a game (open, granted, or ended)."""
    return session.exec(select(GmAction).where(GmAction.game_id == game.id,
                                               GmAction.action == GmActionKind.PAUSE_REQUEST)
                        .order_by(col(GmAction.id).desc())).first()


def granted_request(session: Session, game: Game) -> GmAction | None:
    """The pause request every player agreed to, while the pause it started lasts."""
    req = last_request(session, game)
    return req if req is not None and req.detail == "granted" and game.status == GameStatus.PAUSED else None
