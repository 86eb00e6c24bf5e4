"""Opening a game: seats, players, links, the first step; then what is due at once.

Who commits: ``create_game`` takes a session inside a write transaction
(``db.write_session``) and only flushes; its caller commits.  ``open_game``
takes the engine: it creates the game in a write transaction of its own
(committed), then resolves the bots' first step if it is due
(``resolve.process_game``, its own transactions).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import deadlines, gm_mail, notify
from app.db import write_session
from app.games import get_rules
from app.games.base import step_rng
from app.i18n.terms import N_
from app.links import issue_gm_token, issue_seat_token
from app.models import Game, Seat, utcnow
from app.notices import Refusal
from app.tokens import new_seed, seed_hash
from app.turns.resolve import open_step, process_game
from app.turns.store import address_key, get_or_create_player, id_of, is_address
from app.usertext import shown


@dataclass
class NewGame:
    game: Game
    links: dict[str, str]  # seat -> raw token (shown once, never stored)
    gm_token: str


@dataclass(frozen=True)
class Opened:
    """A game opened by ``open_game`` (committed; the bots' first step resolved if it was due)."""

    game_id: int
    links: dict[str, str]  # seat -> raw token (shown once, never stored)
    gm_token: str
    resolved: int  # steps resolved at once


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
    opts = rules.check_options({**rules.default_options(), **options})
    seats = rules.seats(opts)
    robots = set(rules.robot_seats(opts))
    open_seats = [s for s in seats if s not in robots]
    if len(emails) > len(open_seats):
        raise Refusal(N_("{game} has {n} seats for players; {given} addresses were given."),
                      game=rules.title, n=len(open_seats), given=len(emails))
    if len(emails) < len(open_seats) and not bots:
        raise Refusal(N_("{game} needs {n} players (or bots to fill the other seats)."),
                      game=rules.title, n=len(open_seats))
    check_addresses(emails, gm_email)
    seed = new_seed()
    game = Game(
        slug=slug, title=rules.title, options=opts, seed=seed, seed_hash=seed_hash(seed),
        hours=hours, resolve_early=resolve_early, gm_email=address_key(gm_email), created_at=now,
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
        seat = Seat(game_id=id_of(game), seat=seat_id, is_robot=seat_id in robots)
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
    open_step(session, game, rules, state, now, first=True)
    notify.game_started(session, game, rules, now)
    gm_mail.game_opened(session, game, now)
    return NewGame(game, links, gm_token)


def check_addresses(emails: list[str], gm_email: str = "") -> None:
    """Every player's and the GM's address is an address, and no player holds two seats.

    :raises Refusal: which address is wrong, or given twice (one person would read two seats' secrets).
    """
    for email in [*emails, *([gm_email] if gm_email else [])]:
        if not is_address(email):
            raise Refusal(N_("{email} is not an e-mail address."), email=shown(email))
    seen: set[str] = set()
    for email in emails:
        if address_key(email) in seen:
            raise Refusal(N_("{email} is given for two seats: one player holds one seat of a game."),
                          email=shown(email))
        seen.add(address_key(email))


def open_game(engine: Engine, slug: str, emails: list[str], *, max_attempts: int = 5, **options: Any) -> Opened:
    """Create a game (``create_game``'s arguments), commit it, then resolve what is due at once.

    When bots owe the first step it is played now rather than at the next sweep.

    :raises LookupError: unknown game.
    :raises ValueError: options or number of players do not fit the game.
    """
    with write_session(engine) as session:
        made = create_game(session, slug, emails, **options)
        game_id, ready = made.game.id or 0, made.game.all_in
    resolved = process_game(engine, game_id, utcnow(), max_attempts=max_attempts) if ready else 0
    return Opened(game_id=game_id, links=made.links, gm_token=made.gm_token, resolved=resolved)
