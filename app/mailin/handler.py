"""One handler for every way mail comes in (SMTP/LMTP receiver, IMAP poller).

``handle_message(raw)``:

1. refuses nothing silently: every mail gets a row in ``InboundMail`` keyed by
   its Message-ID and the seat it is for, so a re-delivered mail is handled once;
2. recognises delivery reports (RFC 3464: the player's address is marked as
   bouncing and the GM told) and automatic mail (RFC 3834 Auto-Submitted,
   Precedence bulk/junk/list, X-Autoreply, null sender), which are never
   answered;
3. finds the seat from a per-seat reply address in the envelope recipients or
   the Delivered-To / X-Original-To / To / Cc headers, never from From;
4. reads the text the player wrote (no quoted text, no signature; HTML-only
   mail as text; any charset; attachments ignored), parses it with the game's
   ``parse`` and hands it to ``app.turns.take_order`` like a page does (an
   order of the seat's anytime prompt, or any order while the seat owes
   nothing in a game with that extra, is applied at once);
5. answers the player at the address on file (never the From or Reply-To of
   the inbound mail) with a confirmation or the errors, through the outbox, in
   the player's language (``Player.language``; the words are in ``app.mailin.answers``).
"""

from __future__ import annotations

import email
import hashlib
import logging
import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage, Message
from email.utils import parseaddr
from typing import Any

from flask import current_app
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app import press_mail, turns
from app.db import get_engine, write_session
from app.games import get_rules
from app.kinds import OrderSource
from app.mail import clean_header, queue_mail
from app.mailin import (
    max_bytes,
    returned_to_us,
    seat_from_addresses,
    seat_reply_address,
    to_press_address,
    verp_enabled,
)
from app.mailin.answers import (
    TOO_LONG,
    UNREADABLE,
    Context,
    Result,
    accepted_text,
    anytime_text,
    closed_text,
    empty_text,
    rejected_text,
    too_large_text,
)
from app.mailin.models import InboundMail
from app.mailin.text import (
    MAX_ORDER_CHARS,
    auto_reason,
    body_text,
    header,
    headers,
    is_delivery_report,
    order_text,
)
from app.models import Game, OutboxMail, Player, Seat, utcnow

log = logging.getLogger(__name__)

#: A mail still "processing" after this long was interrupted (crash): handle it again.
STALE = timedelta(minutes=10)


def parse_message(raw: bytes, headers_only: bool = False) -> EmailMessage | None:
    try:
        if headers_only:
            end = raw.find(b"\r\n\r\n")
            end = raw.find(b"\n\n") if end < 0 else end
            raw = raw[: min(end if end >= 0 else 65536, 65536)]
        return email.message_from_bytes(raw, policy=policy.default)  # type: ignore[return-value]
    except Exception:
        log.exception("unreadable inbound mail")
        return None


def handle_message(raw: bytes, *, rcpt_tos: Sequence[str] = (), mail_from: str | None = None,
                   too_large: bool = False, now: datetime | None = None) -> Result:
    """Handle one inbound mail (the raw RFC 5322 bytes); what became of it.

    ``rcpt_tos`` and ``mail_from`` are the SMTP envelope when known (the
    receiver), else the headers are used (the IMAP poller).  ``too_large``:
    ``raw`` is only the header of a mail over the size limit.
    """
    now = now or utcnow()
    engine = get_engine()
    too_large = too_large or len(raw) > max_bytes()
    msg = parse_message(raw, headers_only=too_large)
    if msg is None:
        return Result("unreadable")
    mid = header(msg, "Message-ID")[:300]
    key = dedup_key(engine, msg, mid, raw, list(rcpt_tos))
    from_addr = clean_header(parseaddr(header(msg, "From"))[1])[:200]
    claim = _claim(engine, key, mid, from_addr, now)
    if claim is None:
        return Result("duplicate", detail=mid)
    claim_id, since = claim
    try:
        result = _handle(engine, msg, key, list(rcpt_tos), mail_from, too_large, since, now)
    except Exception as exc:
        _release(engine, claim_id, f"{type(exc).__name__}: {exc}")
        raise
    _finish(engine, claim_id, result, now)
    log.info("inbound mail %s: %s %s", key[:16], result.status, result.detail[:200])
    return result


# --------------------------------------------------------------------------- bookkeeping


def _candidates(msg: Message, rcpt_tos: list[str]) -> list[str]:
    """The addresses a mail may have been sent to (envelope first, then the headers)."""
    candidates = list(rcpt_tos)
    for name in ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To", "Cc"):
        candidates += headers(msg, name)
    return candidates


def dedup_key(engine: Any, msg: Message, mid: str, raw: bytes, rcpt_tos: list[str]) -> str:
    """What makes an inbound mail the same mail again: its Message-ID and the seat it is for.

    The same Message-ID sent to two seats' reply addresses is two mails (one for each seat);
    re-delivered to the same seat, it is handled once.  A mail without a Message-ID is
    known by its bytes.
    """
    if not mid:
        return hashlib.sha256(b"raw:" + raw).hexdigest()
    seat = None
    if not is_delivery_report(msg):
        with Session(engine) as session:
            seat = seat_from_addresses(session, _candidates(msg, rcpt_tos))
    ident = mid if seat is None else f"{mid}|seat:{seat.id}"
    return hashlib.sha256(ident.encode("utf-8", "replace")).hexdigest()


def _claim(engine: Any, key: str, mid: str, from_addr: str, now: datetime) -> tuple[int, datetime | None] | None:
    """Take this mail for handling: (row id, when an interrupted earlier attempt began) or None if done."""
    try:
        with write_session(engine) as session:
            row = session.exec(select(InboundMail).where(InboundMail.key == key)).first()
            if row is not None:
                received = row.received_at
                if received.tzinfo is None:
                    received = received.replace(tzinfo=now.tzinfo)
                if row.status == "error" or (row.status == "processing" and received < now - STALE):
                    since = received
                    row.status = "processing"
                    row.received_at = now
                    session.add(row)
                    session.flush()
                    return row.id or 0, since
                return None
            row = InboundMail(key=key, message_id=mid, from_addr=from_addr, received_at=now)
            session.add(row)
            session.flush()
            return row.id or 0, None
    except IntegrityError:
        return None


def _release(engine: Any, claim_id: int, error: str) -> None:
    with write_session(engine) as session:
        row = session.get(InboundMail, claim_id)
        if row is not None:
            row.status = "error"
            row.detail = error[:2000]
            session.add(row)


def _finish(engine: Any, claim_id: int, result: Result, now: datetime) -> None:
    """Record the outcome, queue our answers and mark a bouncing address, in one transaction."""
    with write_session(engine) as session:
        row = session.get(InboundMail, claim_id)
        if row is not None:
            row.status = result.status
            row.detail = result.detail[:2000]
            row.seat_id = result.seat_id
            row.game_id = result.game_id
            row.step_no = result.step_no
            row.handled_at = now
            session.add(row)
        if result.bounced_player is not None:
            player = session.get(Player, result.bounced_player)
            if player is not None:
                player.bounced = True
                session.add(player)
        for mail in result.mails:
            queue_mail(session, now=now, **mail)


# --------------------------------------------------------------------------- handling


def _handle(engine: Any, msg: EmailMessage, key: str, rcpt_tos: list[str], mail_from: str | None,
            too_large: bool, since: datetime | None, now: datetime) -> Result:
    if is_delivery_report(msg):
        return _delivery_report(engine, msg, key, rcpt_tos)
    reason = auto_reason(msg, mail_from)
    if reason:
        return Result("auto", detail=reason)
    with Session(engine) as session:
        seat = seat_from_addresses(session, _candidates(msg, rcpt_tos))
        if seat is None:
            return Result("unknown", detail="no valid reply address")
        game = session.get(Game, seat.game_id)
        player = session.get(Player, seat.player_id) if seat.player_id else None
        if game is None or player is None:
            return Result("unknown", detail="seat without player")
        reply_addr = seat_reply_address(seat)
    ctx = Context(game=game, seat=seat, player=player, key=key, reply_addr=reply_addr,
                   replied_step=_replied_step(msg, game, seat), sender=header(msg, "From"))
    if too_large:
        return ctx.answer("too_large", f"{max_bytes()} bytes at most", game.step_no, too_large_text(ctx))
    body = body_text(msg)
    pressed = press_mail.handle(engine, game, seat, player, body, now,
                                addressed=to_press_address(_candidates(msg, rcpt_tos)),
                                refs=f"{header(msg, 'In-Reply-To')} {header(msg, 'References')}")
    if pressed is not None:
        status, detail, step_no, answer = pressed
        return ctx.answer(status, detail, step_no, answer)
    text = order_text(body)
    taken = turns.take_order(seat, text, OrderSource.MAIL, engine=engine, max_chars=MAX_ORDER_CHARS, since=since,
                             max_attempts=int(current_app.config.get("MAX_ATTEMPTS", 5)))
    return _answer_taken(ctx, taken, text)


def _answer_taken(ctx: Context, taken: turns.Taken, text: str) -> Result:
    """The answer to a mailed order, from what the turn processor made of it."""
    ctx.game = taken.game
    step_no, prompt = taken.step_no, taken.prompt or {}
    if taken.outcome is turns.Outcome.CLOSED:
        detail = "game not running" if taken.anytime else "nothing owed"
        return ctx.answer("closed", detail, step_no, closed_text(ctx, text))
    if taken.outcome is turns.Outcome.EMPTY:
        return ctx.answer("empty", "no order found", step_no, empty_text(ctx, prompt))
    if taken.outcome is turns.Outcome.REFUSED:
        if taken.problem is turns.Problem.TOO_LONG:
            detail, problem = "too long", TOO_LONG
        elif taken.problem is turns.Problem.UNREADABLE:  # the parser failed, not in the game's words
            detail, problem = "unreadable", UNREADABLE
        else:
            problem = taken.message
            detail = problem if isinstance(problem, str) else get_rules(ctx.game.slug).text.english(problem)
        return ctx.answer("rejected", detail, step_no,
                          rejected_text(ctx, prompt, text, problem, anytime=taken.anytime))
    detail = "stored before an interruption" if taken.stored_before else text
    if taken.anytime:
        return ctx.answer("accepted", detail, step_no, anytime_text(ctx, prompt, text))
    return ctx.answer("accepted", detail, step_no, accepted_text(ctx, prompt, text, step_no, taken.resolved))


def _replied_step(msg: Message, game: Game, seat: Seat) -> int | None:
    """The step of our mail this one answers (from In-Reply-To / References), if any."""
    pattern = re.compile(r"<g" + str(game.id) + r"\." + re.escape(seat.seat) + r"(?:\.s(\d+)\.[^@>\s]*)?@")
    for name in ("In-Reply-To", "References"):
        matches = pattern.findall(header(msg, name))
        if matches:
            last = matches[-1]
            return int(last) if last else 1
    return None



# --------------------------------------------------------------------------- delivery reports


def _report_fields(msg: EmailMessage) -> tuple[list[dict[str, str]], str]:
    """(per-recipient fields of a DSN, Message-ID of the returned message)."""
    recipients: list[dict[str, str]] = []
    original = ""
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype == "message/delivery-status":
            payload = part.get_payload()
            blocks: list[Any] = payload if isinstance(payload, list) else []
            if not blocks and isinstance(payload, str):
                blocks = [email.message_from_string(b, policy=policy.compat32)
                          for b in re.split(r"\r?\n\r?\n", payload) if b.strip()]
            for block in blocks[1:] if len(blocks) > 1 else blocks:
                fields = {k.lower(): " ".join(str(v).split()) for k, v in block.items()}
                if "action" in fields or "final-recipient" in fields:
                    recipients.append(fields)
        elif ctype == "message/rfc822" and not original:
            inner: Any = part.get_payload()
            if isinstance(inner, list) and inner:
                original = header(inner[0], "Message-ID")
        elif ctype == "text/rfc822-headers" and not original:
            inner_msg = email.message_from_string(part.get_content() if hasattr(part, "get_content")
                                                  else str(part.get_payload()), policy=policy.compat32)
            original = header(inner_msg, "Message-ID")
    return recipients, original.strip()


def _delivery_report(engine: Any, msg: EmailMessage, key: str, rcpt_tos: Sequence[str] = ()) -> Result:
    """A delivery status notification (RFC 3464): a failure marks the address as bouncing.

    Only a report that came back to the return path of the very mail it names
    counts (``mailin.return_path``: an HMAC of that mail's Message-ID); any
    other is recorded and changes nothing, so a forged report cannot silence a
    player.  With ``INBOUND_VERP`` off no report marks an address.
    """
    try:
        recipients, original = _report_fields(msg)
    except Exception:
        log.exception("unreadable delivery report")
        return Result("bounce", detail="unreadable report")
    failed = [r for r in recipients if r.get("action", "").lower() == "failed"]
    if not failed:
        return Result("bounce", detail="not a failure")
    if not original:
        return Result("bounce", detail="failure for an unknown message")
    with Session(engine) as session:
        out = session.exec(select(OutboxMail).where(OutboxMail.message_id == original)).first()
        if out is None:
            return Result("bounce", detail="failure for a message we did not send")
        envelope = [*rcpt_tos, *(header(msg, name) for name in ("Delivered-To", "X-Original-To", "Envelope-To", "To"))]
        if not verp_enabled() or not returned_to_us(envelope, original):
            return Result("bounce", detail=f"failure report for {original[:80]} not sent to its return path: ignored")
        player = session.exec(select(Player).where(Player.email == out.to_addr)).first()
        game = session.get(Game, out.game_id) if out.game_id is not None else None
        seat = session.exec(select(Seat).where(Seat.game_id == out.game_id, Seat.seat == out.seat)).first()
    result = Result("bounce", detail=f"{out.to_addr} failed kind={out.kind}", game_id=out.game_id, step_no=out.step_no,
                    seat_id=seat.id if seat is not None else None)  # (``app.bounces``: an excused deadline)
    if player is None:
        return result
    result.bounced_player = player.id
    if game is not None and game.gm_email and out.seat != "GM":
        first = failed[0]
        status = first.get("status", "")
        diagnostic = first.get("diagnostic-code", "")[:300]
        text = (f"A mail of {game.title} #{game.id} to seat {out.seat} ({out.to_addr}) could not be delivered"
                f"{': ' + status if status else ''}.\n"
                + (f"The receiving server said: {diagnostic}\n" if diagnostic else "")
                + "\nThe address is now marked as bouncing. Please ask the player for a working address.\n")
        result.mails.append(dict(game_id=game.id, step_no=game.step_no, seat="GM", kind=f"bounce-{key[:16]}",
                                 to_addr=game.gm_email,
                                 subject=f"[{game.title} #{game.id}] mail to {out.seat} bounced",
                                 text=text, html="", report_id=None, thread=f"g{game.id}.GM"))
    return result
