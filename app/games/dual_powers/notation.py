"""Plain-text order notation (the grammar is in the docstring of ``rules.py``)."""

from __future__ import annotations

import re
from typing import Any

from app.games.dual_powers.text import TEXT, msg


def shown(word: object) -> str:
    """A word of the player's order quoted back in a refusal, in quotation marks, not as Python writes it."""
    return f"“{' '.join(str(word).split())}”"

Order = dict[str, Any]

_WORD = re.compile(r"^[A-Z0-9][A-Z0-9-]{0,15}$")
_MAX_WORDS = 40


def _bonus_text(order: Order) -> str:
    kind = order.get("bonus")
    if kind is None:
        return ""
    if kind == "RECRUIT":
        return f" BONUS RECRUIT {order.get('bonus_token')} IN {order.get('bonus_to')}"
    if kind == "MOVE":
        return f" BONUS MOVE {order.get('bonus_token')} TO {order.get('bonus_to')}"
    if kind == "REFRESH":
        return f" BONUS REFRESH {order.get('bonus_token')}"
    return f" BONUS {kind}"


def format_order(order: Order) -> str:
    kind = order.get("type")
    if kind == "OBJECTIVE":
        return f"OBJECTIVE {order['card']}"
    if kind == "UNREST":
        if order.get("choice") == "SCORE":
            return "UNREST SCORE"
        return "UNREST" + _bonus_text(order)
    if kind == "PLACE":
        return f"PLACE {order.get('region') or 'NONE'}" + _bonus_text(order)
    if kind != "PLAY":
        raise TEXT.unreadable("unreadable.type", kind=shown(kind))
    head = f"PLAY {order['card']}"
    action = order.get("action")
    if action == "PASS":
        body = " PASS"
    elif action == "RECRUIT":
        body = " RECRUIT " + " ".join(order.get("units") or [])
    elif action == "MOVE":
        body = f" MOVE {order.get('token')} TO {order.get('to')}"
    elif action == "DOUBLE":
        via = f" VIA {order['via']}" if order.get("via") is not None else ""
        body = f" DOUBLE {order.get('token')}{via} TO {order.get('to')}"
    elif action == "REFRESH":
        body = f" REFRESH {order.get('token')}"
    elif action == "SPY_FIRST":
        body = " SPY-FIRST"
    elif action == "LEADER":
        body = " LEADER"
        if order.get("region") is not None:
            body += f" IN {order['region']}"
        if order.get("special"):
            body += " SPECIAL-FIRST" if order.get("special_first") else " SPECIAL"
            if order.get("connection") is not None:
                body += f" {order['connection']}"
    else:
        raise TEXT.unreadable("unreadable.action", action=shown(action))
    return head + body + _bonus_text(order)


class _Words:
    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.i = 0

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def take(self, what: str) -> str:
        """The next word; ``what`` names it (a keyword, or ``what.<id>`` of the catalogue)."""
        word = self.peek()
        if word is None:
            raise TEXT.unreadable("unreadable.ends", what=msg(what) if what.startswith("what.") else what)
        self.i += 1
        return word

    def expect(self, keyword: str) -> None:
        word = self.take(keyword)
        if word != keyword:
            raise TEXT.unreadable("unreadable.expected", keyword=keyword, word=shown(word))

    def done(self) -> bool:
        return self.i >= len(self.words)


def _parse_bonus(w: _Words, order: Order) -> None:
    if w.done():
        return
    w.expect("BONUS")
    kind = w.take("what.bonus")
    if kind == "RECRUIT":
        order.update(bonus="RECRUIT", bonus_token=w.take("what.unit"))
        w.expect("IN")
        order["bonus_to"] = w.take("what.region")
    elif kind == "MOVE":
        order.update(bonus="MOVE", bonus_token=w.take("what.token"))
        w.expect("TO")
        order["bonus_to"] = w.take("what.region")
    elif kind == "REFRESH":
        order.update(bonus="REFRESH", bonus_token=w.take("what.token"))
    elif kind in ("DRAW", "ORGANIZE"):
        order["bonus"] = kind
    else:
        raise TEXT.unreadable("unreadable.bonus", kind=shown(kind))


def parse_order(text: str) -> Order:
    if not isinstance(text, str):
        raise TEXT.unreadable("unreadable.not_text")
    words = text.upper().split()
    if not words:
        raise TEXT.unreadable("unreadable.empty")
    if len(words) > _MAX_WORDS:
        raise TEXT.unreadable("unreadable.too_long")
    for word in words:
        if not _WORD.match(word):
            raise TEXT.unreadable("unreadable.word", word=shown(word[:20]))
    w = _Words(words)
    kind = w.take("what.order")
    order: Order
    if kind == "OBJECTIVE":
        order = {"type": "OBJECTIVE", "card": w.take("what.card")}
    elif kind == "UNREST":
        if w.peek() == "SCORE":
            w.take("SCORE")
            order = {"type": "UNREST", "choice": "SCORE"}
        else:
            order = {"type": "UNREST", "choice": "BONUS"}
            if w.done():
                raise TEXT.unreadable("unreadable.unrest")
            _parse_bonus(w, order)
    elif kind == "PLACE":
        region = w.take("what.region_or_none")
        order = {"type": "PLACE"} if region == "NONE" else {"type": "PLACE", "region": region}
        _parse_bonus(w, order)
    elif kind == "PLAY":
        order = {"type": "PLAY", "card": w.take("what.card")}
        _parse_action(w, order)
        _parse_bonus(w, order)
    else:
        raise TEXT.unreadable("unreadable.order", kind=shown(kind[:20]))
    if not w.done():
        raise TEXT.unreadable("unreadable.trailing", word=shown(w.peek()))
    return order


def _parse_action(w: _Words, order: Order) -> None:
    action = w.take("what.action")
    if action == "PASS":
        order["action"] = "PASS"
    elif action == "RECRUIT":
        units = []
        while not w.done() and w.peek() != "BONUS":
            units.append(w.take("what.unit"))
        if not units:
            raise TEXT.unreadable("unreadable.recruit")
        order.update(action="RECRUIT", units=units)
    elif action == "MOVE":
        order.update(action="MOVE", token=w.take("what.token"))
        w.expect("TO")
        order["to"] = w.take("what.region")
    elif action == "DOUBLE":
        order.update(action="DOUBLE", token=w.take("what.token"))
        if w.peek() == "VIA":
            w.take("VIA")
            order["via"] = w.take("what.region")
        w.expect("TO")
        order["to"] = w.take("what.region")
    elif action == "REFRESH":
        order.update(action="REFRESH", token=w.take("what.token"))
    elif action == "SPY-FIRST":
        order["action"] = "SPY_FIRST"
    elif action == "LEADER":
        order["action"] = "LEADER"
        if w.peek() == "IN":
            w.take("IN")
            order["region"] = w.take("what.region")
        order["special"] = False
        order["special_first"] = False
        if w.peek() in ("SPECIAL", "SPECIAL-FIRST"):
            order["special"] = True
            order["special_first"] = w.take("SPECIAL") == "SPECIAL-FIRST"
            if w.peek() is not None and w.peek() != "BONUS":
                order["connection"] = w.take("what.connection")
    else:
        raise TEXT.unreadable("unreadable.play_action", action=shown(action))
