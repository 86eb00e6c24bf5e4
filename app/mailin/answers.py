"""What the inbound mail handler answers: the result of a mail, and the player's reply in their language.

Every answer is written in the language of the seat's player (``Player.language``);
the game's own words in it (the prompt title, the game's reason for refusing an
order) are rendered like on the pages (``app.i18n.gametext``).  The quoted order
and the link placeholder are never translated.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.i18n import game_text_filter, game_title_filter, gettext, player_locale, seat_name_filter, turn_label_filter
from app.i18n.terms import N_
from app.kinds import GameStatus
from app.mail import clean_header
from app.mailin import REPLY_KIND, max_bytes
from app.mailin.text import quote
from app.models import Game, Player, Seat, iso
from app.tokens import LINK_PLACEHOLDER

_T = TypeVar("_T")


SMTP_REPLIES = {
    "unknown": "550 5.1.1 No valid reply address in this mail: reply to your latest turn mail",
    "unreadable": "554 5.6.0 This mail could not be read",
    "too_large": "552 5.3.4 Message too big",
}


@dataclass
class Result:
    """What became of one inbound mail."""

    status: str  # accepted, rejected, closed, empty, too_large, unknown, auto, bounce, duplicate, unreadable
    detail: str = ""
    seat_id: int | None = None
    game_id: int | None = None
    step_no: int | None = None
    answered_to: str = ""  # the address our answer is queued for ("" for none)
    mails: list[dict[str, Any]] = field(default_factory=list, repr=False)
    bounced_player: int | None = field(default=None, repr=False)

    @property
    def smtp_reply(self) -> str:
        return SMTP_REPLIES.get(self.status, "250 2.0.0 OK")


@dataclass
class Context:
    game: Game
    seat: Seat
    player: Player
    key: str
    reply_addr: str
    replied_step: int | None
    sender: str

    @property
    def name(self) -> str:
        """The game's title in the current language, and its number."""
        return f"{game_title_filter(self.game.title, self.game.slug)} #{self.game.id}"

    @property
    def seat_label(self) -> str:
        """The seat as the game names it, in the current language."""
        return seat_name_filter(self.seat.seat, self.game.slug, self.game.state)

    def answer(self, status: str, detail: str, step_no: int, body: tuple[str, str]) -> Result:
        subject, text = body
        with player_locale(self.player.language):
            prefix = f"[{self.name}] {self.seat_label}"
        mail = dict(game_id=self.game.id, step_no=step_no, seat=self.seat.seat,
                    kind=f"{REPLY_KIND}{self.key[:16]}", to_addr=self.player.email,
                    subject=f"{prefix}: {subject}", text=text + _footer(self),
                    html="", report_id=None, thread=f"g{self.game.id}.{self.seat.seat}")
        return Result(status, detail=detail, seat_id=self.seat.id, game_id=self.game.id, step_no=step_no,
                      answered_to=self.player.email, mails=[mail])


# --------------------------------------------------------------------------- answers

#: the reasons for refusing an order that are ours, not the game's
TOO_LONG = N_("The order is too long.")
UNREADABLE = N_("This order could not be read.")
_OWN_PROBLEMS = (TOO_LONG, UNREADABLE)


def _in_players_language(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Write the answer (``fn(ctx, ...)``) in the language of ``ctx.player``."""

    @functools.wraps(fn)
    def wrapper(ctx: Context, *args: Any, **kwargs: Any) -> _T:
        with player_locale(ctx.player.language):
            return fn(ctx, *args, **kwargs)

    return wrapper


def _game_text(ctx: Context, text: Any) -> str:
    """A text of the game (a message id with parameters) in the current language."""
    return game_text_filter(text, ctx.game.slug)


def _title(ctx: Context, prompt: dict[str, Any], default: str) -> str:
    return _game_text(ctx, prompt["title"]) if "title" in prompt else default


def _problem(ctx: Context, problem: Any) -> str:
    return gettext(problem) if isinstance(problem, str) and problem in _OWN_PROBLEMS else _game_text(ctx, problem)


def _your_page() -> str:
    return gettext("Your page:") + " " + LINK_PLACEHOLDER


def _step_words(game: Game, step_no: int) -> str:
    if game.turn_key and step_no == game.step_no:
        return gettext("step %(step)s (%(turn)s)", step=step_no, turn=turn_label_filter(game.turn_key, game.slug))
    return gettext("step %(step)s", step=step_no)


def _deadline(game: Game) -> str:
    if game.deadline is None:
        return ""
    return (iso(game.deadline) or "").replace("T", " ").replace("Z", " UTC")


def _how_to(ctx: Context, prompt: dict[str, Any], anytime: bool = False) -> str:
    title = _title(ctx, prompt, gettext("a decision"))
    if anytime:
        lines = [gettext("You owe nothing now; at any time you may send: %(title)s.", title=title)]
    else:
        lines = [gettext("You owe: %(title)s (%(step)s).", title=title, step=_step_words(ctx.game, ctx.game.step_no))]
    if ctx.game.deadline is not None and not anytime:
        lines.append(gettext("Deadline: %(deadline)s.", deadline=_deadline(ctx.game)))
    if prompt.get("example"):
        lines += ["", gettext("Write one order in the game's notation, for example:"), "", f"    {prompt['example']}"]
    lines += ["", gettext("Send it to your order address (or reply to your latest turn mail):"),
              f"    {ctx.reply_addr}", gettext("or use your personal page:"), f"    {LINK_PLACEHOLDER}"]
    return "\n".join(lines)


@_in_players_language
def _footer(ctx: Context) -> str:
    sender = clean_header(ctx.sender)[:200] or gettext("an unknown sender")
    return ("\n\n--\n"
            + gettext("This answers a mail from %(sender)s to the order address of seat %(seat)s.",
                      sender=sender, seat=ctx.seat_label)
            + "\n" + gettext("It is an automatic answer: replies to it are not read.") + "\n")


@_in_players_language
def accepted_text(ctx: Context, prompt: dict[str, Any], text: str, step_no: int,
                   resolved: bool) -> tuple[str, str]:
    game = ctx.game
    title = _title(ctx, prompt, gettext("your decision"))
    lines = [gettext("Your order for %(game)s, seat %(seat)s, is on file for step %(step)s (%(title)s):",
                     game=ctx.name, seat=ctx.seat_label, step=step_no, title=title),
             "", quote(text), ""]
    if ctx.replied_step is not None and ctx.replied_step != step_no:
        lines += [gettext("Your mail answered the mail of step %(replied)s; the order was applied to step %(step)s, "
                          "the decision open when it arrived.", replied=ctx.replied_step, step=step_no), ""]
    if resolved:
        lines += [gettext("Every order was in, so the step was resolved at once; your next turn mail follows."), ""]
    else:
        if game.deadline:
            lines.append(gettext("You can change it until the deadline (%(deadline)s) by sending another order by "
                                 "mail or on your personal page; the last order received counts.",
                                 deadline=_deadline(game)))
        else:
            lines.append(gettext("You can change it until the deadline by sending another order by mail or on "
                                 "your personal page; the last order received counts."))
        lines += ["", _your_page()]
    return gettext("order received for step %(step)s", step=step_no), "\n".join(lines)


@_in_players_language
def rejected_text(ctx: Context, prompt: dict[str, Any], text: str, problem: str,
                   anytime: bool = False) -> tuple[str, str]:
    problem = _problem(ctx, problem)
    lines = [gettext("Your mail for %(game)s, seat %(seat)s, was read, but no order was stored:",
                     game=ctx.name, seat=ctx.seat_label), "",
             quote(text), "", gettext("Problem: %(problem)s", problem=problem), "",
             _how_to(ctx, prompt, anytime)]
    return gettext("order NOT accepted"), "\n".join(lines)


@_in_players_language
def anytime_text(ctx: Context, prompt: dict[str, Any], text: str) -> tuple[str, str]:
    title = _title(ctx, prompt, gettext("a decision you may send at any time"))
    lines = [gettext("Your order for %(game)s, seat %(seat)s, was applied at once (%(title)s):",
                     game=ctx.name, seat=ctx.seat_label, title=title),
             "", quote(text), "",
             gettext("The game log on your page shows what followed: %(link)s", link=LINK_PLACEHOLDER)]
    return gettext("order applied"), "\n".join(lines)


@_in_players_language
def empty_text(ctx: Context, prompt: dict[str, Any]) -> tuple[str, str]:
    lines = [gettext("Your mail for %(game)s, seat %(seat)s, was read, but no order was found in it "
                     "(quoted text, signatures and lines starting with # are ignored).",
                     game=ctx.name, seat=ctx.seat_label), "", _how_to(ctx, prompt)]
    return gettext("no order found"), "\n".join(lines)


@_in_players_language
def closed_text(ctx: Context, text: str) -> tuple[str, str]:
    game = ctx.game
    if game.status == GameStatus.FINISHED:
        why = gettext("the game is over.")
    elif game.status != GameStatus.RUNNING:
        status = gettext(game.status)
        why = gettext("the game is %(status)s.", status=status)
    else:
        waiting = ", ".join(sorted(game.owed)) or gettext("nobody")
        why = gettext("you owe no decision now (waiting for %(who)s).", who=waiting)
    lines = [gettext("Your mail for %(game)s, seat %(seat)s, was read, but no order was stored: %(why)s",
                     game=ctx.name, seat=ctx.seat_label, why=why)]
    if text:
        lines += ["", quote(text)]
    lines += ["", gettext("Your next turn mail tells you when you owe a decision again."), _your_page()]
    return gettext("no order stored"), "\n".join(lines)


@_in_players_language
def too_large_text(ctx: Context) -> tuple[str, str]:
    limit = max_bytes() // 1024
    lines = [gettext("Your mail for %(game)s, seat %(seat)s, was too large to read (at most %(limit)s KB); "
                     "nothing was stored.", game=ctx.name, seat=ctx.seat_label, limit=limit), "",
             gettext("Send only your order as plain text, without attachments or pictures, to:"),
             f"    {ctx.reply_addr}", gettext("or use your personal page:") + " " + LINK_PLACEHOLDER]
    return gettext("mail too large, no order stored"), "\n".join(lines)
