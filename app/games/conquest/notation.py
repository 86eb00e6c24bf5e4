"""Plain-text order notation: ``parse(format(o)) == o`` for every legal order.

Examples::

    TRADE c12 c30 c41 BONUS Germany
    PLACE 3 Moscow, 2 Ukraine        (also: PLACE MOS 3)
    ATTACK Egypt Libya REPEAT=CONQUER STOP=3 ADVANCE=MAX
    ADVANCE 3
    END_MOBILISATION / END_OFFENSIVE / END_TURN
    MOVE 2 Ukraine Caucasus           (also: MOVE UKR CAU 2)
    RESUME_COMMAND / AUTO_COMMAND / ABANDON CONFIRM

``TIMEOUT`` (a missed deadline) is written in reports but is the server's order only:
``parse`` refuses it from a player.

Territories may be written by name or by id, in any case; cards as c1..c44, or as the
spec writes them, by the id of the territory they picture (``TRADE GER ITA J1 BONUS=ITA``);
J1 and J2 are the jokers c43 and c44.
"""

from __future__ import annotations

import re
from typing import Any

from app.games.conquest import data
from app.games.conquest.text import TEXT
from app.games.text import InvalidOrder, name

_LOOKUP: dict[str, str] = {}
for _t in data.TERRITORIES:
    _LOOKUP[_t.lower()] = _t
    _LOOKUP[data.NAME[_t].lower()] = _t
#: A card is written by its id (c1..c44), as the spec writes it by the territory it pictures
#: (``GER`` is the card picturing Germany), or J1/J2 for the jokers.
_CARDS = ({c.lower(): c for c in data.DECK} | {"j1": "c43", "j2": "c44"}
          | {t.lower(): c for c, t in data.CARD_TERRITORY.items() if t})
_SIMPLE = {
    "END_MOBILISATION": "END_MOBILISATION",
    "END_OFFENSIVE": "END_OFFENSIVE",
    "END_TURN": "END_TURN",
    "RESUME_COMMAND": "RESUME",
    "RESUME": "RESUME",
    "AUTO_COMMAND": "AUTO",
}
#: Orders only the server gives (a missed deadline); written in reports, refused from a player.
RESERVED = {"TIMEOUT"}
_SIMPLE_OUT = {"RESUME": "RESUME_COMMAND", "AUTO": "AUTO_COMMAND"}


def _bad(text: str) -> InvalidOrder:
    return TEXT.unreadable("unreadable.order", text=text[:80])


def _territory(words: list[str], text: str) -> str:
    key = " ".join(words).lower()
    if key not in _LOOKUP:
        raise TEXT.unreadable("refuse.unknown_code", value=" ".join(words)[:60])
    return _LOOKUP[key]


def _two_territories(words: list[str], text: str) -> tuple[str, str]:
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]).lower(), " ".join(words[i:]).lower()
        if a in _LOOKUP and b in _LOOKUP:
            return _LOOKUP[a], _LOOKUP[b]
    raise TEXT.unreadable("unreadable.two_territories", text=" ".join(words)[:80])


def _int(word: str, text: str) -> int:
    if not re.fullmatch(r"\d{1,6}", word):
        raise _bad(text)
    return int(word)


def _count_and_rest(words: list[str], text: str) -> tuple[int, list[str]]:
    """A count written first ('3 Moscow') or last ('MOS 3')."""
    if len(words) >= 2 and words[0].isdigit():
        return _int(words[0], text), words[1:]
    if len(words) >= 2 and words[-1].isdigit():
        return _int(words[-1], text), words[:-1]
    raise _bad(text)


def parse(text: Any) -> dict[str, Any]:
    if not isinstance(text, str):
        raise TEXT.unreadable("unreadable.not_text")
    line = " ".join(text.replace(",", " , ").split())
    words = line.split(" ")
    if not line or len(line) > 600:
        raise _bad(text)
    head = words[0].upper()
    rest = words[1:]
    if head in RESERVED:
        raise TEXT.unreadable("unreadable.reserved", order=head)
    if head in _SIMPLE and not rest:
        return {"type": _SIMPLE[head]}
    if head == "ABANDON":
        if [w.upper() for w in rest] == ["CONFIRM"]:
            return {"type": "ABANDON", "confirm": True}
        raise TEXT.unreadable("refuse.confirm")
    if head == "ADVANCE" and len(rest) == 1:
        return {"type": "ADVANCE", "count": _int(rest[0], text)}
    if head == "TRADE":
        return _parse_trade(rest, text)
    if head == "PLACE":
        where: dict[str, int] = {}
        for part in " ".join(rest).split(" , "):
            n, words = _count_and_rest(part.split(), text)
            t = _territory(words, text)
            if t in where:
                raise TEXT.unreadable("unreadable.twice", territory=name("territory.the", t))
            where[t] = n
        return {"type": "PLACE", **{t: where[t] for t in sorted(where, key=data.NUMBER.__getitem__)}}
    if head == "MOVE":
        n, names = _count_and_rest(rest, text)
        a, b = _two_territories(names, text)
        return {"type": "MOVE", "pair": f"{a}-{b}", "count": n}
    if head == "ATTACK":
        return _parse_attack(rest, text)
    raise _bad(text)


def _parse_trade(rest: list[str], text: str) -> dict[str, Any]:
    bonus = None
    upper = [w.upper() for w in rest]
    if "BONUS" in upper:
        i = upper.index("BONUS")
        bonus, rest = _territory(rest[i + 1 :], text), rest[:i]
    elif rest and upper[-1].startswith("BONUS="):
        bonus, rest = _territory([rest[-1][6:]], text), rest[:-1]
    if len(rest) != 3 or any(w.lower() not in _CARDS for w in rest):
        raise TEXT.unreadable("refuse.trade_three")
    order: dict[str, Any] = {"type": "TRADE", "cards": [_CARDS[w.lower()] for w in rest]}
    if bonus:
        order["bonus"] = bonus
    return order


def _parse_attack(rest: list[str], text: str) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    names = []
    for w in rest:
        if "=" not in w:
            names.append(w)
            continue
        key, _, value = w.upper().partition("=")
        if key == "REPEAT":
            opts["repeat"] = "CONQUER" if value == "CONQUER" else _int(value, text)
        elif key == "STOP":
            opts["stop"] = _int(value, text)
        elif key == "ADVANCE":
            opts["advance"] = value if value in ("ASK", "MAX") else _int(value, text)
        else:
            raise TEXT.unreadable("refuse.bad_option", option=w)
    a, b = _two_territories(names, text)
    return {"type": "ATTACK", "pair": f"{a}-{b}", **opts}


def _pair(value: Any) -> tuple[str, str]:
    a, b = str(value).split("-")
    return data.NAME.get(a, a), data.NAME.get(b, b)


def format_order(order: dict[str, Any]) -> str:
    kind = order.get("type")
    if kind in ("END_MOBILISATION", "END_OFFENSIVE", "END_TURN", "TIMEOUT", "RESUME", "AUTO"):
        return str(_SIMPLE_OUT.get(kind, kind))
    if kind == "ABANDON":
        return "ABANDON CONFIRM"
    if kind == "ADVANCE":
        return f"ADVANCE {order['count']}"
    if kind == "TRADE":
        text = "TRADE " + " ".join(order["cards"])
        return text + (f" BONUS {data.NAME[order['bonus']]}" if order.get("bonus") else "")
    if kind == "PLACE":
        parts = [f"{n} {data.NAME.get(t, t)}" for t, n in order.items() if t != "type" and n]
        return "PLACE " + ", ".join(parts)
    if kind == "MOVE":
        a, b = _pair(order["pair"])
        return f"MOVE {order['count']} {a} {b}"
    if kind == "ATTACK":
        a, b = _pair(order["pair"])
        opts = "".join(f" {k.upper()}={order[k]}" for k in ("repeat", "stop", "advance") if k in order)
        return f"ATTACK {a} {b}{opts}"
    raise TEXT.unreadable("unreadable.write", order=repr(order))
