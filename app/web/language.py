"""The language a player chose sticks: an invitation link's ``?lang=`` sets it for later pages, mails and PDFs.

Every page behind a player's token (the seat page and its pause, history and report pages,
the settings page) reads in that player's language. A link to the seat page or the settings
page (as in an invitation) with ``?lang=pt`` stores ``pt`` as the player's language, so that
every later page, mail and report follows it (elsewhere, as on ``report.pdf?lang=el``, it
changes that one answer only). It is the only thing a GET ever stores, and it stores only
what the player's own link asks for, so a mail scanner that follows the link changes nothing
the player would not. Other pages (GM and league pages, a bad link, the front page) follow a
cookie set by the last ``?lang=``, then the browser's languages.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from flask import Flask, Response, g, request
from sqlalchemy import bindparam
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Dialect
from sqlmodel import select

from app import pg_driver, sqlite_driver
from app.db import detached, get_engine, get_session, is_sqlite, write_session
from app.i18n.lang import LANGUAGES, normalize
from app.models import Game, Player, Seat
from app.tokens import hash_token, looks_like_token

COOKIE = "lang"
SEAT_PAGES = ("play.", "consent.", "press.", "standing.")
#: The pages an invitation or a mail links to: a ``?lang=`` on them is the player's choice.
LANDING_PAGES = ("play.show", "me.settings")
ONE_YEAR = 365 * 24 * 3600


def asked_language() -> str | None:
    """The language a ``?lang=`` parameter asks for, if it names one of ours."""
    asked = (request.args.get("lang") or "").strip().lower()
    return asked if asked in LANGUAGES else None


class LinkSeat(NamedTuple):
    """What a seat's link opens: the seat, its game, and its player's id and language."""

    seat: Seat
    game: Game
    player_id: int | None
    language: str | None


_SEAT = Seat.__table__  # type: ignore[attr-defined]
_GAME = Game.__table__  # type: ignore[attr-defined]
_PLAYER = Player.__table__  # type: ignore[attr-defined]
#: the seat, its game and its player's id and language, in one statement built once
_LINK = (sa_select(_SEAT, _GAME, _PLAYER.c.id, _PLAYER.c.language)
         .join(_GAME, _GAME.c.id == _SEAT.c.game_id).outerjoin(_PLAYER, _PLAYER.c.id == _SEAT.c.player_id)
         .where(_SEAT.c.token_hash == bindparam("token_hash")))
_SEAT_KEYS = [c.key for c in _SEAT.columns]
_GAME_KEYS = [c.key for c in _GAME.columns]


def link_seat(token: str) -> LinkSeat | None:
    """The seat a link belongs to, with its game and player, in one query, read once per request (the
    language hook and the page both ask).

    Read as a plain row and made into detached seat and game objects (``db.detached``): every page
    behind a link starts here, an order's post included, and loading the two through the ORM cost more
    than everything else that post does before its write.  The statement goes through the driver alone
    (``pg_driver``, ``sqlite_driver``), as a statement of its own, as the read session reads on
    PostgreSQL."""
    found: dict[str, LinkSeat | None] = g.setdefault("link_seats", {})
    if token not in found:
        row = _link_row(hash_token(token))
        if row is None:
            found[token] = None
        else:
            n, m = len(_SEAT_KEYS), len(_SEAT_KEYS) + len(_GAME_KEYS)
            found[token] = LinkSeat(detached(Seat, dict(zip(_SEAT_KEYS, row[:n], strict=True))),
                                    detached(Game, dict(zip(_GAME_KEYS, row[n:m], strict=True))), row[m], row[m + 1])
    return found[token]


@functools.cache
def _link_sql(dialect: Dialect) -> str:
    return str(_LINK.compile(dialect=dialect))


def _link_row(token_hash: str) -> Any:
    """The link's row: seat columns, game columns, the player's id and language."""
    engine = get_engine()
    if pg_driver.direct(engine):
        return pg_driver.fetch_one(engine, _link_sql(engine.dialect), {"token_hash": token_hash})
    if is_sqlite(engine):
        return sqlite_driver.fetch_one(engine, _LINK, {"token_hash": token_hash})
    return get_session().connection().execute(_LINK, {"token_hash": token_hash}).first()


def _player(endpoint: str, token: str) -> tuple[int, str] | None:
    """(id, language) of the player whose page this is, in one query (a seat's page: the link's read, which
    the page reads on from; the read session is opened only for the settings page's query)."""
    if endpoint.startswith(SEAT_PAGES):
        seat = link_seat(token)
        row = (seat.player_id, seat.language) if seat is not None and seat.player_id is not None else None
    elif endpoint.startswith("me."):
        row = get_session().exec(
            select(Player.id, Player.language).where(Player.prefs_hash == hash_token(token))).first()
    else:
        return None  # a GM's pages follow the GM's last choice (the cookie), then the browser
    return (row[0] or 0, row[1] or "") if row is not None else None


def _remember() -> None:
    """Before a request: whose page this is and their language; store the one ``?lang=`` asks for."""
    g.player_language = None
    token = (request.view_args or {}).get("token")
    if not token or not looks_like_token(str(token)):
        return
    endpoint = request.endpoint or ""
    asked = asked_language()
    found = _player(endpoint, str(token))
    if found is None:
        return
    player_id, language = found
    current = normalize(language) if language else None
    if asked and asked != current and endpoint in LANDING_PAGES and request.method == "GET":
        with write_session(get_engine()) as session:
            live = session.get(Player, player_id)
            if live is not None:
                live.language = asked
                session.add(live)
        current = asked
    g.player_language = current


def _cookie(resp: Response) -> Response:
    asked = asked_language()
    if asked and request.cookies.get(COOKIE) != asked:
        resp.set_cookie(COOKIE, asked, max_age=ONE_YEAR, samesite="Lax", httponly=True,
                        secure=request.is_secure)
    return resp


def init_app(app: Flask) -> None:
    app.before_request(_remember)
    app.after_request(_cookie)
