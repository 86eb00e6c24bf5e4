"""League operations: create, add members, run seasons of paired rounds, record results.

Functions take a session inside a write transaction; the caller commits.
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from datetime import datetime
from typing import Any

from flask import current_app
from sqlmodel import Session, select

from app import turns
from app.deadlines import check_policy
from app.games import get_rules
from app.i18n.terms import N_
from app.kinds import GameStatus, SeasonStatus
from app.leagues import pairing, ratings
from app.links import base_url
from app.models import Game, League, LeagueGame, LeagueMember, Player, Rating, Season, Seat, utcnow
from app.notices import Refusal
from app.tokens import derive_token, hash_token, new_salt
from app.usertext import shown


def _key() -> str:
    return str(current_app.config["SECRET_KEY"])


#: letters with no plain Latin form of their own, for a league's address: Greek (ELOT 743, simplified), and a few
#: others Unicode does not decompose
SPELLED = str.maketrans({
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ł": "l", "þ": "th",
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i", "κ": "k", "λ": "l",
    "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y", "φ": "f",
    "χ": "ch", "ψ": "ps", "ω": "o"})


def slugify(name: str) -> str:
    """The league's address part: its name's letters without accents, Greek in Latin letters ("Taça de
    Inverno" -> "taca-de-inverno", "Κύπελλο Χειμώνα" -> "kypello-cheimona")."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name.lower()) if not unicodedata.combining(c))
    plain = bare.translate(SPELLED).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:40] or "league"


def gm_token(league: League) -> str:
    return derive_token(_key(), "league-gm", league.id or 0, league.gm_salt)


def invite_token(league: League) -> str:
    return derive_token(_key(), "league-invite", league.id or 0, league.invite_salt)


def gm_link(league: League) -> str:
    return f"{base_url()}/lg/{gm_token(league)}"


def invite_link(league: League) -> str:
    return f"{base_url()}/l/{league.slug}/join/{invite_token(league)}"


def by_slug(session: Session, slug: str) -> League | None:
    return session.exec(select(League).where(League.slug == slug)).first()


def new_gm_page(league: League) -> str:
    """Give the league's GM page a new address (at creation, or when the old one leaked: it stops working).
    The new page's token."""
    league.gm_salt = new_salt()
    token = gm_token(league)
    league.gm_token_hash = hash_token(token)
    return token


def new_invitation(league: League) -> None:
    """Give ``league`` a new invitation link (at creation, or when the old one leaked: it stops working, and
    so do the confirmation links mailed from it)."""
    league.invite_salt = new_salt()
    league.invite_hash = hash_token(invite_token(league))


def create_league(session: Session, name: str, game_slug: str, *, options: dict[str, Any] | None = None,
                  policy: dict[str, Any] | None = None, timezone: str = "UTC", hours: float | None = None,
                  gm_email: str = "", **settings: Any) -> League:
    """A new league; its GM and invitation links come from ``gm_link``/``invite_link``.

    :raises LookupError: unknown game.  :raises ValueError: bad options or policy.
    """
    rules = get_rules(game_slug)
    opts = {**rules.default_options(), **(options or {})}
    rules.check_options({k: v for k, v in opts.items() if k != "min_players"})  # fail here, not at a season
    pol = check_policy({"timezone": timezone, **({"hours": hours} if hours else {}), **(policy or {})})
    base = slugify(name)
    slug, n = base, 1
    while session.exec(select(League).where(League.slug == slug)).first() is not None:
        n += 1
        slug = f"{base}-{n}"
    if gm_email:  # the GM's home page (``/me/``) lists the league's GM page: their way back to it
        if not turns.is_address(gm_email):
            raise Refusal(N_("{email} is not an e-mail address."), email=shown(gm_email))
        gm_email = turns.get_or_create_player(session, gm_email).email
    league = League(name=name.strip() or "League", slug=slug, game_slug=game_slug, options=opts, policy=pol,
                    timezone=pol["timezone"], hours=hours or 24.0, gm_email=gm_email, **settings)
    session.add(league)
    session.flush()
    new_gm_page(league)
    new_invitation(league)
    session.add(league)
    return league


def add_member(session: Session, league: League, email: str) -> LeagueMember:
    """Add a player by address (joining twice is harmless)."""
    if not turns.is_address(email):
        raise Refusal(N_("{email} is not an e-mail address."), email=shown(email))
    player = turns.get_or_create_player(session, email)
    member = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id,
                                                     LeagueMember.player_id == player.id)).first()
    if member is None:
        member = LeagueMember(league_id=league.id, player_id=player.id)
    member.active = True
    session.add(member)
    session.flush()
    return member


def members(session: Session, league: League) -> list[tuple[LeagueMember, Player]]:
    rows = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id,
                                                   LeagueMember.active == True)  # noqa: E712
                        .order_by(LeagueMember.id)).all()
    return [(m, session.get(Player, m.player_id)) for m in rows]


def table_range(league: League) -> tuple[int, int]:
    """Smallest and largest table for the league's game."""
    rules = get_rules(league.game_slug)
    if "players" in league.options:
        return max(2, int(league.options.get("min_players", 3))), int(league.options["players"])
    size = len(rules.seats(league.options))
    return size, size


def start_season(session: Session, league: League, now: datetime | None = None,
                 rounds: int | None = None) -> Season:
    """Open the next season and its first round of games.

    :raises ValueError: not enough members for a game.
    """
    now = now or utcnow()
    people = [p.id for _m, p in members(session, league)]
    small, large = table_range(league)
    if len(people) < small:
        raise Refusal(N_("a season needs at least {small} members ({n} so far)"), small=small, n=len(people))
    last = session.exec(select(Season).where(Season.league_id == league.id)
                        .order_by(Season.number.desc())).first()  # type: ignore[attr-defined]
    if last is not None and last.status == SeasonStatus.RUNNING:
        raise Refusal(N_("season {n} is still running"), n=last.number)
    if rounds is None:
        rounds = len(pairing.round_robin(people)) if large == 2 else 3
    season = Season(league_id=league.id, number=(last.number + 1) if last else 1, rounds=rounds, created_at=now)
    session.add(season)
    session.flush()
    _open_round(session, league, season, now)
    return season


def _round_tables(session: Session, league: League, season: Season) -> list[list[int]]:
    people = [p.id for _m, p in members(session, league)]
    small, large = table_range(league)
    if large == 2 and small == 2:
        schedule = pairing.round_robin(people)
        return schedule[(season.round_no - 1) % len(schedule)] if schedule else []
    history: dict[frozenset, int] = {}
    for lg in session.exec(select(LeagueGame).where(LeagueGame.league_id == league.id)).all():
        seated = [s.player_id for s in session.exec(select(Seat).where(Seat.game_id == lg.game_id)).all()
                  if s.player_id]
        for i, a in enumerate(seated):
            for b in seated[i + 1:]:
                key = frozenset((a, b))
                history[key] = history.get(key, 0) + 1
    rng = random.Random(f"{league.id}:{season.number}:{season.round_no}:{secrets.token_hex(4)}")
    return pairing.tables(people, small, large, rng, history)


def _open_round(session: Session, league: League, season: Season, now: datetime) -> list[Game]:
    season.round_no += 1
    session.add(season)
    session.flush()
    made = []
    for table in _round_tables(session, league, season):
        emails = [session.get(Player, pid).email for pid in table]  # type: ignore[union-attr]
        options = dict(league.options)
        options.pop("min_players", None)
        if "players" in options:
            options["players"] = len(table)
        game = turns.create_game(session, league.game_slug, emails, options=options, hours=league.hours,
                                 gm_email=league.gm_email, policy=league.policy, league_id=league.id,
                                 now=now).game
        session.add(LeagueGame(league_id=league.id, season_id=season.id, round_no=season.round_no,
                               game_id=game.id))
        made.append(game)
    session.flush()
    return made


def record_result(session: Session, lg: LeagueGame) -> bool:
    """Feed a finished league game into ratings and standings (once)."""
    game = session.get(Game, lg.game_id)
    if game is None or lg.recorded or game.status != GameStatus.FINISHED:
        return False
    result = get_rules(game.slug).outcome(game.state) or []
    seats = {s.seat: s for s in session.exec(select(Seat).where(Seat.game_id == game.id)).all()}
    rows = [(seats[r["seat"]].player_id, int(r.get("rank", i + 1))) for i, r in enumerate(result)
            if r["seat"] in seats and seats[r["seat"]].player_id]
    if not rows:
        lg.recorded = True
        session.add(lg)
        return False
    mems = {}
    for pid, _rank in rows:
        mems[pid] = session.exec(select(LeagueMember).where(LeagueMember.league_id == lg.league_id,
                                                            LeagueMember.player_id == pid)).first()
    new = ratings.update([(mems[p].mu, mems[p].sigma) for p, _r in rows], [r for _p, r in rows])
    ranks = [r for _p, r in rows]
    for (pid, rank), (mu, sigma) in zip(rows, new, strict=True):
        member = mems[pid]
        member.mu, member.sigma = mu, sigma
        session.add(member)
        session.add(Rating(league_id=lg.league_id, player_id=pid, game_id=game.id, rank=rank,
                           points=ratings.points(rank, len(rows), ranks.count(rank)), mu=mu, sigma=sigma,
                           created_at=game.finished_at or utcnow()))
    lg.recorded = True
    session.add(lg)
    return True


def advance(session: Session, now: datetime | None = None) -> dict[str, int]:
    """Record finished league games; open the next round when a round is over."""
    now = now or utcnow()
    counts = {"recorded": 0, "rounds": 0, "seasons_finished": 0}
    for lg in session.exec(select(LeagueGame).where(LeagueGame.recorded == False)).all():  # noqa: E712
        counts["recorded"] += int(record_result(session, lg))
    for season in session.exec(select(Season).where(Season.status == SeasonStatus.RUNNING)).all():
        games = session.exec(select(LeagueGame).where(LeagueGame.season_id == season.id,
                                                      LeagueGame.round_no == season.round_no)).all()
        if games and not all(g.recorded for g in games):
            continue
        league = session.get(League, season.league_id)
        if season.round_no < season.rounds and league is not None:
            _open_round(session, league, season, now)
            counts["rounds"] += 1
        else:
            season.status = SeasonStatus.FINISHED
            session.add(season)
            counts["seasons_finished"] += 1
    return counts


def member_numbers(session: Session, league: League) -> dict[int, int]:
    """Each member's number in the league, by joining order (1 first; kept when others leave): a player who
    has chosen no name is shown by it on the league's pages ("Player 3"), never by their address."""
    ids = session.exec(select(LeagueMember.player_id).where(LeagueMember.league_id == league.id)
                       .order_by(LeagueMember.id)).all()
    return {pid: i + 1 for i, pid in enumerate(ids)}


def standings(session: Session, league: League) -> list[dict[str, Any]]:
    """One row per member, best first: games, wins, points, rating; ``player`` is the name the player chose
    (may be empty: then ``number`` names them)."""
    rows = []
    numbers = member_numbers(session, league)
    for member, player in members(session, league):
        results = session.exec(select(Rating).where(Rating.league_id == league.id,
                                                    Rating.player_id == player.id)).all()
        rows.append({
            "player": player.name, "number": numbers.get(player.id or 0, 0), "player_id": player.id,
            "games": len(results), "wins": sum(1 for r in results if r.rank == 1),
            "points": round(sum(r.points for r in results), 3),
            "mu": round(member.mu, 2), "sigma": round(member.sigma, 2),
            "rating": round(ratings.ordinal(member.mu, member.sigma), 2),
        })
    rows.sort(key=lambda r: (-r["points"], -r["rating"], r["player"], r["number"]))
    for i, row in enumerate(rows):
        row["place"] = i + 1
    return rows


def history(session: Session, league: League, player_id: int) -> list[Rating]:
    return list(session.exec(select(Rating).where(Rating.league_id == league.id, Rating.player_id == player_id)
                             .order_by(Rating.id)).all())
