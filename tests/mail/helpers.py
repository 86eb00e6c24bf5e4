"""Helpers for inbound mail tests: games, reply addresses, sending real mail through the receiver."""

from __future__ import annotations

import json
import smtplib
from email.message import EmailMessage

from sqlmodel import Session, select

from app.db import get_engine
from app.mailin import seat_reply_address
from app.models import Game, InboundMail, Order, OutboxMail, Player, Seat


def create_game(runner, slug="toy", players=("a@example.org", "b@example.org"), *extra) -> dict:
    args = ["game", "create", slug]
    for p in players:
        args += ["--player", p]
    result = runner.invoke(args=args + list(extra))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def seat_row(app, game_id: int, seat: str) -> Seat:
    with Session(get_engine(app)) as s:
        return s.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).one()


def reply_addr(app, game_id: int, seat: str) -> str:
    with app.app_context():
        return seat_reply_address(seat_row(app, game_id, seat))


def orders(app, game_id: int, source: str | None = None) -> list[Order]:
    with Session(get_engine(app)) as s:
        q = select(Order).where(Order.game_id == game_id).order_by(Order.id)
        if source:
            q = q.where(Order.source == source)
        return list(s.exec(q).all())


def outbox(app, prefix: str = "reply-") -> list[OutboxMail]:
    with Session(get_engine(app)) as s:
        rows = s.exec(select(OutboxMail).order_by(OutboxMail.id)).all()
        return [r for r in rows if r.kind.startswith(prefix)]


def inbound(app) -> list[InboundMail]:
    with Session(get_engine(app)) as s:
        return list(s.exec(select(InboundMail).order_by(InboundMail.id)).all())


def game_row(app, game_id: int) -> Game:
    with Session(get_engine(app)) as s:
        return s.get(Game, game_id)


def player(app, email: str) -> Player:
    with Session(get_engine(app)) as s:
        return s.exec(select(Player).where(Player.email == email)).one()


def reply(to: str, body: str = "PICK 2", *, sender: str = "Alice <a@example.org>", subject: str = "Re: your turn",
          msgid: str | None = None, in_reply_to: str | None = None, charset: str = "utf-8") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    if msgid:
        msg["Message-ID"] = msgid
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body, charset=charset)
    return msg


def send(port: int, msg, *, to: list[str] | None = None, mail_from: str = "a@example.org") -> dict:
    """Send a mail to the receiver by SMTP; the refused recipients (smtplib's dict)."""
    raw = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")) if hasattr(msg, "as_bytes") else msg
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as conn:
        return conn.sendmail(mail_from, to or [str(msg["To"])], raw)


def set_aside_turn_mails(app) -> None:
    """Mark the pending turn mails as sent, so that ``mail deliver`` sends only our answers (fast)."""
    from app.db import write_session

    with write_session(get_engine(app)) as s:
        for row in s.exec(select(OutboxMail).where(OutboxMail.status == "pending")).all():
            if not row.kind.startswith(("reply-", "bounce-")):
                row.status = "sent"
                s.add(row)


def deliver(runner) -> dict:
    out = runner.invoke(args=["mail", "deliver"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)
