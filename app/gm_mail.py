"""Mail to a game's GM, in the GM's language, always with the way back to the GM's pages.

A GM's links are never written into a stored mail: the mail carries the GM's home
page (``%%PREFS_LINK%%``, filled when the mail is sent, as a player's own link is),
which lists every game the GM runs with its GM page.  So a GM who created a game
from the web and closed the tab, or lost the page's address, finds it again in the
first mail, or asks for it on "resend my link" like any player.
"""

from __future__ import annotations

from datetime import datetime

from flask import render_template
from sqlmodel import Session

from app.i18n import game_title_filter, gettext, player_locale
from app.i18n.terms import N_
from app.models import Game, Player
from app.outbox import queue_mail
from app.tokens import PREFS_PLACEHOLDER
from app.turns.store import player_by_address


def _language(session: Session, game: Game) -> str:
    player = player_by_address(session, game.gm_email)
    return player.language if player is not None and player.language else "en"


def _title(game: Game) -> str:
    return game_title_filter(game.title, game.slug)


def game_opened(session: Session, game: Game, now: datetime) -> None:
    """Tell the GM (if the game has one) that the game is open, and where its GM page is."""
    _to_gm(session, game, "gm-opened", N_("[%(title)s #%(id)s] you are the GM"), "mail/gm_opened.txt", now)


def game_crashed(session: Session, game: Game) -> None:
    """Tell the GM that the game stopped on an error, and how to resume it."""
    _to_gm(session, game, "crashed", N_("[%(title)s #%(id)s] stopped: needs the GM"), "mail/crashed.txt", None)


def _to_gm(session: Session, game: Game, kind: str, subject: str, template: str, now: datetime | None) -> None:
    """One mail about ``game`` to its GM (none if it has no GM), in the GM's language."""
    if not game.gm_email:
        return
    with player_locale(_language(session, game)):
        title = gettext(subject, title=_title(game), id=game.id)
        text = render_template(template, game=game, home=PREFS_PLACEHOLDER)
    queue_mail(session, game_id=game.id, step_no=game.step_no, seat="GM", kind=kind, to_addr=game.gm_email,
               subject=title, text=text, html="", report_id=None, thread=f"g{game.id}.GM", now=now)


def gm_home_link(session: Session, player: Player, now: datetime, *, kind: str) -> None:
    """Mail a GM their home page, which lists their games with each GM page (asked for on "resend")."""
    with player_locale(player.language or "en"):
        subject = gettext("Your GM page: every game and league you run")
        text = render_template("mail/gm_home.txt", home=PREFS_PLACEHOLDER)
    queue_mail(session, game_id=None, step_no=0, seat="GM", kind=kind, to_addr=player.email, subject=subject,
               text=text, html="", report_id=None, thread=f"gm-home.p{player.id}", now=now)
