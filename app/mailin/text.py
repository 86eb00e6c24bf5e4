"""Reading an inbound mail: its text body, the order in it, and what kind of mail it is.

Pure functions over ``email.message.EmailMessage`` objects (no database, no Flask).
"""

from __future__ import annotations

import re
import unicodedata
from email.message import EmailMessage, Message
from html.parser import HTMLParser

from app.usertext import clean

MAX_ORDER_CHARS = 4000

_BLOCK_TAGS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
               "ul", "ol", "dl", "dt", "dd", "section", "article", "header", "footer", "hr"}
_SKIP_TAGS = {"script", "style", "head", "title", "template", "noscript"}
_QUOTE_CLASSES = ("gmail_quote", "gmail_attr", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote",
                  "x_gmail_quote", "ms-outlook-mobile-reference-message")
_QUOTE_IDS = ("divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container")


def header(msg: Message, name: str) -> str:
    """A header's value as one line of text ("" if missing or unreadable)."""
    try:
        value = msg.get(name)
    except Exception:  # a malformed header must not stop the handler
        return ""
    if value is None:
        return ""
    try:
        text = str(value)
    except Exception:
        return ""
    return " ".join(text.replace("\r", " ").replace("\n", " ").split())[:2000]


def headers(msg: Message, name: str) -> list[str]:
    try:
        values = msg.get_all(name) or []
    except Exception:
        return []
    out = []
    for value in values[:20]:
        try:
            out.append(" ".join(str(value).split())[:2000])
        except Exception:
            continue
    return out


# --------------------------------------------------------------------------- classification


def is_delivery_report(msg: Message) -> bool:
    """An RFC 3464 delivery status notification (multipart/report; report-type=delivery-status)."""
    try:
        if msg.get_content_type() != "multipart/report":
            return False
        return str(msg.get_param("report-type", "")).lower() == "delivery-status"
    except Exception:
        return False


_AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply", "auto-reply"}
_AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-AutoReply-From", "X-Mail-Autoreply", "X-FC-MachineGenerated",
                 "List-Id", "List-Unsubscribe", "Feedback-ID-Loop")


def auto_reason(msg: Message, mail_from: str | None = None) -> str:
    """Why this mail was written by a machine (RFC 3834 and common practice), or "" for a person."""
    if mail_from is not None and mail_from.strip() in ("", "<>"):
        return "null sender"
    if header(msg, "Return-Path").replace(" ", "") == "<>":
        return "null sender"
    auto = header(msg, "Auto-Submitted").split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header(msg, "Precedence").strip().lower()
    if precedence in _AUTO_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in _AUTO_HEADERS:
        if header(msg, name):
            return name
    sender = header(msg, "From").lower()
    if re.search(r"\b(mailer-daemon|postmaster)@", sender):
        return "mailer daemon"
    return ""


# --------------------------------------------------------------------------- body


def decode_part(part: Message) -> str:
    """A text part's content as str, whatever its charset (never raises)."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:
        payload = None
    if payload is None:
        raw = part.get_payload()
        return raw if isinstance(raw, str) else ""
    if not isinstance(payload, bytes):
        return str(payload)
    try:
        charset = (part.get_content_charset() or "").strip().strip('"').lower()
    except Exception:
        charset = ""
    if charset in ("", "us-ascii", "ascii", "iso-8859-1", "latin1", "latin-1", "iso_8859-1"):
        # what mail clients really mean by these (as browsers do)
        tries = ["utf-8", "cp1252"] if charset in ("", "us-ascii", "ascii") else ["cp1252"]
    else:
        tries = [charset, "utf-8"]
    for cs in tries:
        try:
            return payload.decode(cs)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("cp1252", errors="replace")


class _HtmlText(HTMLParser):
    """HTML to plain text, leaving out scripts, styles and quoted replies."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0  # depth inside skipped elements
        self.stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.lower()
        if tag in ("br", "hr", "img", "meta", "link", "input", "wbr"):
            if tag in ("br", "hr") and not self.skip:
                self.out.append("\n")
            return
        a = {k.lower(): (v or "") for k, v in attrs}
        classes = a.get("class", "").lower()
        skipped = (tag in _SKIP_TAGS or tag == "blockquote"
                   or any(c in classes for c in _QUOTE_CLASSES)
                   or a.get("id", "").lower() in _QUOTE_IDS)
        self.stack.append((tag, skipped))
        if skipped:
            self.skip += 1
        if tag in _BLOCK_TAGS and not self.skip:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for _t, skipped in self.stack[i:]:
                    if skipped:
                        self.skip -= 1
                del self.stack[i:]
                break
        if tag in _BLOCK_TAGS and not self.skip:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.out.append(data)


def html_to_text(html: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:
        pass
    text = "".join(parser.out)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(lines)


def _unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed soft line breaks."""
    out: list[str] = []
    buf = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space stuffing
        if line.endswith(" ") and line != "-- ":
            buf += line[:-1] if delsp else line
            continue
        out.append(buf + line)
        buf = ""
    if buf:
        out.append(buf)
    return "\n".join(out)


def body_text(msg: EmailMessage) -> str:
    """The text a person wrote in this mail: the plain part, else the HTML part as text.

    Attachments (and anything that is not text) are ignored.
    """
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:
        part = None
    if part is None:
        return ""
    if part.get_content_type() == "text/plain" and not decode_part(part).strip():
        try:  # an empty plain part next to the HTML one (some phone clients)
            part = msg.get_body(preferencelist=("html",)) or part
        except Exception:
            pass
    text = decode_part(part).replace("\r\n", "\n").replace("\r", "\n")
    ctype = part.get_content_type()
    if ctype == "text/html":
        return html_to_text(text)
    try:
        flowed = str(part.get_param("format", "")).lower() == "flowed"
        delsp = str(part.get_param("delsp", "")).lower() == "yes"
    except Exception:
        flowed = delsp = False
    return _unflow(text, delsp) if flowed else text


# --------------------------------------------------------------------------- the order in the text

_ATTRIBUTION = re.compile(
    r"^(on|le|am|el|il|op|em|w dniu|den|på)\b.*\b(wrote|écrit|schrieb|escribió|scritto|geschreven|escreveu|napisał|"
    r"skrev)\s*:\s*$", re.IGNORECASE)
_ATTRIBUTION_END = re.compile(r"\b(wrote|écrit|schrieb|escribió|scritto|geschreven|escreveu|napisał|skrev)\s*:\s*$",
                              re.IGNORECASE)
_STOP = re.compile(
    r"^(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|message d'origine)\s*-{2,}"
    r"|_{10,}|begin forwarded message:|-{5,}\s*)$", re.IGNORECASE)
_MOBILE_SIG = re.compile(r"^(sent from my \w+|sent from (outlook|mail|yahoo mail)|get outlook for \w+|"
                         r"envoyé de mon \w+|von meinem \w+ gesendet)\b.*$", re.IGNORECASE)
_HEADER_LINE = re.compile(r"^\*?(from|von|de|da|van)\s*:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(r"^\*?(sent|date|to|gesendet|datum|envoyé|enviado|an|à)\s*:", re.IGNORECASE)
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)


def own_lines(text: str) -> list[str]:
    """The lines the sender wrote: without quoted text, the quoted mail and the signature."""
    lines = text.translate(_INVISIBLE).replace("\u00a0", " ").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if stripped.startswith(">"):
            i += 1
            continue
        if line in ("-- ", "--") or stripped == "-- " or _STOP.match(stripped):
            break
        nxt = next((lines[j].strip() for j in range(i + 1, min(i + 8, len(lines))) if lines[j].strip()), "")
        if _HEADER_LINE.match(stripped) and _HEADER_NEXT.match(nxt):
            break  # an Outlook-style quoted mail: From: ... Sent: ...
        attribution = bool(_ATTRIBUTION.match(stripped))
        if not attribution and stripped and _ATTRIBUTION_END.search(nxt) and re.match(
                r"^(on|le|am|el|il|op|em)\b", stripped, re.IGNORECASE) and i + 1 < len(lines) \
                and lines[i + 1].strip() == nxt:
            i += 1  # an attribution wrapped over two lines
            attribution = True
            nxt = next((lines[j].strip() for j in range(i + 1, min(i + 8, len(lines))) if lines[j].strip()), "")
        if attribution:
            if nxt and not nxt.startswith(">"):
                break  # the quoted mail follows unmarked
            i += 1
            continue
        if _MOBILE_SIG.match(stripped):
            i += 1
            continue
        out.append(line)
        i += 1
    return out


def order_text(text: str) -> str:
    """The order in a reply: its own lines, without blank lines and # comments.

    One order per reply; if what remains spans several lines it is given
    whole to the game's ``parse`` (a notation may need several lines).
    """
    lines = []
    for line in own_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lines.append(unicodedata.normalize("NFKC", stripped))
    return "\n".join(lines)


def quote(text: str, limit: int = 2000) -> str:
    """Text quoted for an answer (``> `` lines), cut to ``limit`` characters (``usertext.clean``: a quoted
    placeholder fills no link, a quoted override turns no line)."""
    text = clean(text)
    if len(text) > limit:
        text = text[:limit] + " [...]"
    lines = text.split("\n")[:40] or [""]
    return "\n".join("> " + line for line in lines)
