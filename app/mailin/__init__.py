"""Orders by e-mail reply (inbound mail).

Every mail to a player's seat carries a per-seat Reply-To address::

    orders+<seat id>.<mac>@<domain>

where ``<mac>`` is 128 bits of an HMAC of the server key, the seat and its
link salt and version (``derive_token(SECRET_KEY, "reply", ...)``), written in
lower-case base32 so that mail systems that change the case of addresses do
not break it.  The address is checked by recomputing the HMAC (constant-time
compare); rotating a seat's link changes its salt and version and so kills its
old reply address too.  A seat is never identified from the From header.

Configuration (all optional):

``INBOUND_ADDRESS``
    the base address, default ``orders@<MAIL_DOMAIN>``; reply addresses add
    ``<delimiter><seat id>.<mac>`` to its local part.
``INBOUND_DELIMITER``
    sub-address delimiter, default ``+`` (Postfix ``recipient_delimiter``).
``INBOUND_NOREPLY``
    Reply-To of our automatic answers, default ``no-reply@<domain>``.
``INBOUND_BOUNCE_ADDRESS``
    where delivery reports arrive, default the address of ``MAIL_FROM``.
``INBOUND_MAX_BYTES``
    size limit of an inbound mail, default 1 MiB.
"""

from __future__ import annotations

import base64
import hmac
import re
from collections.abc import Iterable
from email.utils import parseaddr
from typing import Any

from flask import current_app
from sqlmodel import Session, select

from app.models import OutboxMail, Seat
from app.tokens import derive_token

MAC_CHARS = 26  # base32 of 16 bytes: 128 bits
DEFAULT_MAX_BYTES = 1024 * 1024
REPLY_KIND = "reply-"
PRESS_MARK = "press."  # orders+press.<seat id>.<mac>@domain: the seat's press address


def _cfg(name: str, default: Any = None) -> Any:
    return current_app.config.get(name, default)


def mail_domain() -> str:
    domain = str(_cfg("MAIL_DOMAIN", "") or "")
    if not domain:
        domain = parseaddr(str(_cfg("MAIL_FROM", "") or ""))[1].rpartition("@")[2]
    return domain or "pbem.localhost"


def inbound_address() -> tuple[str, str]:
    """(local part, domain) of the base inbound address."""
    addr = str(_cfg("INBOUND_ADDRESS", "") or "") or f"orders@{mail_domain()}"
    local, _, domain = parseaddr(addr)[1].rpartition("@")
    return (local or "orders"), (domain or mail_domain())


def delimiter() -> str:
    return str(_cfg("INBOUND_DELIMITER", "+") or "+")


def noreply_address() -> str:
    return str(_cfg("INBOUND_NOREPLY", "") or "") or f"no-reply@{mail_domain()}"


def bounce_address() -> str:
    return str(_cfg("INBOUND_BOUNCE_ADDRESS", "") or "") or parseaddr(str(_cfg("MAIL_FROM", "") or ""))[1]


def verp_enabled() -> bool:
    return str(_cfg("INBOUND_VERP", True)).lower() not in ("0", "false", "no", "off", "")


def _address_mark(token: str) -> str:
    """128 bits of a derived token, spelled for an address's local part (lower-case base32)."""
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    return base64.b32encode(raw[:16]).decode().lower().rstrip("=")


def _bounce_mac(message_id: str) -> str:
    return _address_mark(derive_token(str(current_app.config["SECRET_KEY"]), "bounce", 0, message_id))


def return_path(message_id: str) -> str | None:
    """The envelope sender of an outgoing mail: the bounce address with a mark of this mail.

    ``bounces+b<mac>@domain`` (VERP), where the mac is an HMAC of the mail's
    Message-ID: a delivery report counts only when it comes back to the return
    path of the very mail it reports on, so nobody can forge one to mark a
    player's address as bouncing.  None when ``INBOUND_VERP`` is off (the
    envelope sender is then ``MAIL_FROM``) or there is no bounce address.
    """
    addr = bounce_address()
    if not verp_enabled() or "@" not in addr:
        return None
    local, _, domain = addr.rpartition("@")
    return f"{local}{delimiter()}b{_bounce_mac(message_id)}@{domain}"


def is_return_path(address: str) -> bool:
    """Shaped like a return path of ours (its mark is checked against a Message-ID later)."""
    return _return_mark(address) is not None


def _return_mark(address: str) -> str | None:
    addr = parseaddr(address)[1].lower()
    bounce = bounce_address().lower()
    if "@" not in addr or "@" not in bounce:
        return None
    local, _, domain = bounce.rpartition("@")
    a_local, _, a_domain = addr.rpartition("@")
    prefix = f"{local}{delimiter()}b"
    if a_domain != domain or not a_local.startswith(prefix):
        return None
    mark = a_local[len(prefix):]
    return mark if re.fullmatch(r"[a-z2-7]{26}", mark) else None


def returned_to_us(addresses: Iterable[str], message_id: str) -> bool:
    """Whether one of ``addresses`` is the return path of the mail ``message_id`` (constant-time)."""
    expected = _bounce_mac(message_id).encode()
    return any(hmac.compare_digest(mark.encode(), expected)
               for mark in (_return_mark(a) for a in addresses) if mark is not None)


def max_bytes() -> int:
    return int(_cfg("INBOUND_MAX_BYTES", DEFAULT_MAX_BYTES) or DEFAULT_MAX_BYTES)


def reply_mac(seat: Seat) -> str:
    """The 128-bit secret part of a seat's reply address (lower-case base32)."""
    return _address_mark(derive_token(str(current_app.config["SECRET_KEY"]), "reply", seat.id or 0,
                                      seat.token_salt, seat.token_version))


def seat_reply_address(seat: Seat) -> str:
    local, domain = inbound_address()
    return f"{local}{delimiter()}{seat.id}.{reply_mac(seat)}@{domain}"


def seat_press_address(seat: Seat) -> str:
    """The seat's press address: its reply address marked ``press.`` (mail to it is press, ``app.press_mail``)."""
    local, domain = inbound_address()
    return f"{local}{delimiter()}{PRESS_MARK}{seat.id}.{reply_mac(seat)}@{domain}"


def to_press_address(texts: Iterable[str]) -> bool:
    """Whether these addresses/headers hold a press address (valid or not: the seat is checked apart)."""
    local, _domain = inbound_address()
    marked = (local + delimiter() + PRESS_MARK).lower()
    return any(marked in str(t or "").lower() for t in texts)


def _token_pattern() -> re.Pattern[str]:
    local, _domain = inbound_address()
    return re.compile(
        r"(?<![A-Za-z0-9._%+=-])" + re.escape(local) + re.escape(delimiter())
        + r"(?:" + re.escape(PRESS_MARK) + r")?(\d{1,12})\.([A-Za-z2-7]{" + str(MAC_CHARS) + r"})@",
        re.IGNORECASE,
    )


def reply_tokens(texts: Iterable[str]) -> list[tuple[int, str]]:
    """Every (seat id, mac) that looks like a reply address in these strings, in order."""
    pattern = _token_pattern()
    found: list[tuple[int, str]] = []
    for text in texts:
        for m in pattern.finditer(str(text or "")[:20000]):
            item = (int(m.group(1)), m.group(2).lower())
            if item not in found:
                found.append(item)
    return found


def has_reply_token(address: str) -> bool:
    """Whether an address is shaped like a reply address (valid or not)."""
    return bool(reply_tokens([address]))


def verify(session: Session, seat_id: int, mac: str) -> Seat | None:
    """The seat whose reply address this is, or None (constant-time compare)."""
    seat = session.get(Seat, seat_id)
    if seat is None or not seat.token_salt or not seat.player_id:
        return None
    if not hmac.compare_digest(reply_mac(seat).encode(), mac.lower().encode()):
        return None
    return seat


def seat_from_addresses(session: Session, texts: Iterable[str]) -> Seat | None:
    """The first seat with a valid reply address in these addresses/headers, or None."""
    for seat_id, mac in reply_tokens(texts)[:20]:
        seat = verify(session, seat_id, mac)
        if seat is not None:
            return seat
    return None


def is_base_address(address: str) -> bool:
    """The plain inbound address (no token) or the bounce address."""
    addr = parseaddr(address)[1].lower()
    local, domain = inbound_address()
    bases = {f"{local}@{domain}".lower(), bounce_address().lower()}
    return bool(addr) and addr in bases


def reply_address(session: Session, mail: OutboxMail) -> str:
    """The Reply-To address of an outgoing mail ("" for none).

    A seat's mails get its reply address; our own answers to inbound mail get
    the no-reply address (so that answering them cannot loop); mails to the
    GM or to no seat get none.
    """
    if mail.kind.startswith(REPLY_KIND):
        return noreply_address()
    if mail.game_id is None or not mail.seat or mail.seat == "GM":
        return ""
    seat = session.exec(select(Seat).where(Seat.game_id == mail.game_id, Seat.seat == mail.seat)).first()
    if seat is None or not seat.player_id or not seat.token_salt:
        return ""
    if mail.kind.startswith("press"):  # an answer to press is press
        return seat_press_address(seat)
    return seat_reply_address(seat)
