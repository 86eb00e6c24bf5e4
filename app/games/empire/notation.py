"""Plain-text order notation: one order set per window, lines split by ``;``.

An order is ``{"type": KIND, "lines": [line, ...]}`` where KIND is one of
PROPOSE, ANSWER, ADMIN, LOSE, ROUTE, PAY (or PASS, an empty set valid in any
window).  Written as ``ADMIN: MARKET BUY WOOD 1; BUILD INF 2; MOVE B-S1 6``.
"""

from __future__ import annotations

import re
from typing import Any

from app.games.base import InvalidOrder
from app.games.empire.data import COLOUR_LETTER, RESOURCES
from app.games.empire.text import TEXT, joined

KINDS = ["PROPOSE", "ANSWER", "ADMIN", "LOSE", "ROUTE", "PAY", "PASS"]
OP_KIND = {
    "OFFER": "PROPOSE", "PACT": "PROPOSE",
    "ACCEPT_OFFER": "ANSWER", "DECLINE_OFFER": "ANSWER",
    "ACCEPT_PACT": "ANSWER", "DECLINE_PACT": "ANSWER",
    "MARKET": "ADMIN", "BUILD": "ADMIN", "MOVE": "ADMIN", "MODE": "ADMIN", "LOSSES": "ADMIN",
    "LOSE": "LOSE", "LOSE_FOR": "LOSE",
    "ROUTE_GOLD": "ROUTE", "ROUTE_TROOPS": "ROUTE", "TRIBUTE_FREE": "ROUTE",
    "TRIBUTE_SIMPLE": "ROUTE",
    "PAY": "PAY",
}
TROOP_RE = re.compile(r"^(?:[BGYR]-[SH][1-9][0-9]{0,2}|NEW)$")
OFFER_RE = re.compile(r"^[BGYR]-O[1-9]$")
PACT_RE = re.compile(r"^[BGYR]-PACT$")
MAX_TEXT = 5000
#: The form's field for the mode of a heavy troop built this turn: read only with such a build.
IF_BUILT = "mode_NEW"
OFFER_FIELD = re.compile(r"^offer([1-9])_(give|get_n|get|to)$")


def _bad(line: str) -> InvalidOrder:
    return TEXT.unreadable("unreadable.E002", line=line)


def _qty(tok: str) -> int:
    if not re.fullmatch(r"[0-9]{1,4}", tok) or int(tok) < 1:
        raise TEXT.unreadable("unreadable.E006", got=tok)
    return int(tok)


def _prov(tok: str) -> int:
    if not re.fullmatch(r"[0-9]{1,2}", tok) or not 1 <= int(tok) <= 12:
        raise TEXT.unreadable("unreadable.E003", got=tok)
    return int(tok)


def _res(tok: str) -> str:
    if tok not in RESOURCES:
        raise TEXT.unreadable("unreadable.E005", got=tok)
    return tok


def _player(tok: str) -> str:
    if tok not in COLOUR_LETTER:
        raise TEXT.unreadable("unreadable.E305", got=tok)
    return tok


def _troop(tok: str) -> str:
    if not TROOP_RE.match(tok):
        raise TEXT.unreadable("unreadable.E004", got=tok)
    return tok


def parse_line(line: str) -> dict[str, Any]:
    """One line of notation as a line dict."""
    t = line.upper().split()
    if not t:
        raise _bad(line)
    w, n = t[0], len(t)
    if w == "OFFER" and n in (7, 9) and t[1] == "GIVE" and t[4] == "GET":
        d: dict[str, Any] = {"op": "OFFER", "give_n": _qty(t[2]), "give": _res(t[3]),
                             "get_n": _qty(t[5]), "get": _res(t[6])}
        if n == 9:
            if t[7] != "TO":
                raise _bad(line)
            d["to"] = _player(t[8])
        return d
    if w == "PACT" and n == 4 and t[2] == "PROVINCE":
        return {"op": "PACT", "with": _player(t[1]), "province": _prov(t[3])}
    if w in ("ACCEPT", "DECLINE") and n >= 3 and t[1] in ("OFFER", "PACT"):
        ident = t[2]
        if t[1] == "OFFER" and n == 3 and OFFER_RE.match(ident):
            return {"op": f"{w}_OFFER", "id": ident}
        if t[1] == "PACT" and PACT_RE.match(ident):
            if w == "DECLINE" and n == 3:
                return {"op": "DECLINE_PACT", "id": ident}
            if w == "ACCEPT" and n == 5 and t[3] == "PROVINCE":
                return {"op": "ACCEPT_PACT", "id": ident, "province": _prov(t[4])}
        raise _bad(line)
    if w == "MARKET" and n == 4 and t[1] in ("BUY", "SELL"):
        return {"op": "MARKET", "side": t[1], "res": _res(t[2]), "n": _qty(t[3])}
    if w == "BUILD" and n == 3 and t[1] in ("INF", "WALL", "HEAVY"):
        return {"op": "BUILD", "what": t[1], "province": _prov(t[2])}
    if w == "MOVE" and n == 3:
        return {"op": "MOVE", "troop": _troop(t[1]), "province": _prov(t[2])}
    if w == "MODE" and n in (3, 5) and re.fullmatch(r"[A-Z]{1,12}", t[2]):
        d = {"op": "MODE", "troop": _troop(t[1]), "mode": t[2]}
        if n == 5:
            if t[3] != "TARGET":
                raise _bad(line)
            d["target"] = _player(t[4])
        return d
    if w in ("LOSSES", "LOSE") and 2 <= n <= 30:
        return {"op": w, "troops": [_troop(x) for x in t[1:]]}
    if w == "LOSE-FOR" and 3 <= n <= 30:
        return {"op": "LOSE_FOR", "player": _player(t[1]), "troops": [_troop(x) for x in t[2:]]}
    if w == "ROUTE" and n == 3 and t[1] == "GOLD":
        return {"op": "ROUTE_GOLD", "n": _qty(t[2])}
    if w == "ROUTE" and n == 5 and t[1] == "TROOPS" and t[3] == "AT":
        return {"op": "ROUTE_TROOPS", "n": _qty(t[2]), "province": _prov(t[4])}
    if w == "TRIBUTE" and n == 3 and t[1] == "FREE":
        return {"op": "TRIBUTE_FREE", "res": _res(t[2])}
    if w == "TRIBUTE" and n == 4 and t[1] == "SIMPLE":
        return {"op": "TRIBUTE_SIMPLE", "res": [_res(t[2]), _res(t[3])]}
    if w == "PAY" and n == 2 and t[1] == "NONE":
        return {"op": "PAY", "res": []}
    if w == "PAY" and n in (2, 3):
        return {"op": "PAY", "res": [_res(x) for x in t[1:]]}
    raise _bad(line)


def format_line(d: dict[str, Any]) -> str:
    """A line dict as notation."""
    op = d["op"]
    if op == "OFFER":
        s = f"OFFER GIVE {d['give_n']} {d['give']} GET {d['get_n']} {d['get']}"
        return s + (f" TO {d['to']}" if "to" in d else "")
    if op == "PACT":
        return f"PACT {d['with']} PROVINCE {d['province']}"
    if op in ("ACCEPT_OFFER", "DECLINE_OFFER", "DECLINE_PACT"):
        return str(op).replace("_", " ") + f" {d['id']}"
    if op == "ACCEPT_PACT":
        return f"ACCEPT PACT {d['id']} PROVINCE {d['province']}"
    if op == "MARKET":
        return f"MARKET {d['side']} {d['res']} {d['n']}"
    if op == "BUILD":
        return f"BUILD {d['what']} {d['province']}"
    if op == "MOVE":
        return f"MOVE {d['troop']} {d['province']}"
    if op == "MODE":
        return f"MODE {d['troop']} {d['mode']}" + (f" TARGET {d['target']}" if "target" in d else "")
    if op in ("LOSSES", "LOSE"):
        return f"{op} " + " ".join(d["troops"])
    if op == "LOSE_FOR":
        return f"LOSE-FOR {d['player']} " + " ".join(d["troops"])
    if op == "ROUTE_GOLD":
        return f"ROUTE GOLD {d['n']}"
    if op == "ROUTE_TROOPS":
        return f"ROUTE TROOPS {d['n']} AT {d['province']}"
    if op == "TRIBUTE_FREE":
        return f"TRIBUTE FREE {d['res']}"
    if op == "TRIBUTE_SIMPLE":
        return f"TRIBUTE SIMPLE {d['res'][0]} {d['res'][1]}"
    if op == "PAY":
        return "PAY " + (" ".join(d["res"]) if d["res"] else "NONE")
    raise TEXT.unreadable("unreadable.E002", line=str(op))


def split_lines(text: str) -> list[str]:
    return [x.strip() for x in re.split(r"[;\n]", text) if x.strip()]


def parse_lines(text: str) -> list[dict[str, Any]]:
    """Lines of a text (PASS lines are dropped); every error listed at once."""
    if len(text) > MAX_TEXT:
        raise TEXT.unreadable("unreadable.too_long")
    out, errors = [], []
    for raw in split_lines(text):
        if raw.upper() == "PASS":
            continue
        try:
            out.append(parse_line(raw))
        except InvalidOrder as exc:
            errors.append(TEXT.unreadable("unreadable.line", line=raw, why=exc.message).msg)
    if errors:
        raise TEXT.unreadable("unreadable.rejected", errors=joined(errors))
    return out


def parse(text: Any) -> dict[str, Any]:
    """``ADMIN: MOVE B-S1 6; MODE B-S1 ATTACK`` -> an order dict."""
    if not isinstance(text, str) or not text.strip() or "\x00" in text:
        raise TEXT.unreadable("unreadable.empty")
    body = text.strip()
    kind = None
    m = re.match(r"^([A-Za-z]+)\s*:(.*)$", body, re.S)
    if m:
        kind = m.group(1).upper()
        if kind not in KINDS:
            raise TEXT.unreadable("unreadable.unknown_window", got=m.group(1))
        body = m.group(2)
    lines = parse_lines(body)
    kinds = {OP_KIND[x["op"]] for x in lines}
    if len(kinds) > 1:
        raise TEXT.unreadable("unreadable.mixed", windows=", ".join(sorted(kinds)))
    if kind is None:
        if not lines:
            if body.strip().upper() != "PASS":
                raise TEXT.unreadable("unreadable.empty")
            kind = "PASS"
        else:
            kind = kinds.pop()
    elif kinds and kinds != {kind} or (kind == "PASS" and lines):
        raise TEXT.unreadable("unreadable.other_window", kind=kind)
    return {"type": kind, "lines": lines}


def format_order(order: dict[str, Any]) -> str:
    """An order dict as notation (inverse of ``parse``)."""
    kind = order["type"]
    if kind == "PASS":
        return "PASS"
    body = "; ".join(format_line(x) for x in order["lines"]) or "PASS"
    return f"{kind}: {body}"


def canonical(order: Any) -> dict[str, Any]:
    """Any accepted order shape (notation dict, or a form's string fields) as
    ``{"type", "lines"}``; raises ``InvalidOrder`` for anything unreadable."""
    if not isinstance(order, dict) or order.get("type") not in KINDS:
        raise TEXT.unreadable("unreadable.not_an_order")
    kind = order["type"]
    if "lines" in order:
        lines = order["lines"]
        if not isinstance(lines, list) or len(lines) > 80 or set(order) != {"type", "lines"}:
            raise TEXT.unreadable("unreadable.bad_set")
        out = []
        for d in lines:
            try:
                text = format_line(d)
                again = parse_line(text)
            except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
                raise TEXT.unreadable("unreadable.bad_line", line=repr(d)) from exc
            if again != d:
                raise TEXT.unreadable("unreadable.bad_line", line=repr(d))
            out.append(again)
    else:
        texts = offer_lines(order)
        for key in sorted(k for k in order if k != "type" and not OFFER_FIELD.match(str(k))):
            if key == IF_BUILT and not str(order.get("build") or "").upper().startswith("BUILD HEAVY"):
                continue  # the new heavy troop's mode, and none is built
            texts.extend(field_lines(key, order[key]))
        out = parse_lines(";".join(texts))
    for d in out:
        if kind == "PASS" or OP_KIND[d["op"]] != kind:
            raise TEXT.unreadable("unreadable.line_window", line=format_line(d), kind=kind)
    return {"type": kind, "lines": out}


def offer_lines(order: dict[str, Any]) -> list[str]:
    """The OFFER lines of a form's ``offer<i>_give`` ("2 WOOD"), ``offer<i>_get_n``, ``offer<i>_get``
    ("IRON") and ``offer<i>_to`` ("GREEN", or empty: anyone) fields."""
    groups: dict[str, dict[str, Any]] = {}
    for key, val in order.items():
        m = OFFER_FIELD.match(str(key))
        if m:
            groups.setdefault(m.group(1), {})[m.group(2)] = val
    out = []
    for i in sorted(groups):
        g = groups[i]
        give, get, n, to = g.get("give"), g.get("get"), g.get("get_n"), g.get("to")
        if not give and not get:
            continue
        if not give or not get:
            raise TEXT.unreadable("unreadable.offer_incomplete", i=int(i))
        if n in (None, ""):
            n = 1
        if isinstance(n, bool) or not isinstance(n, int | str) or not isinstance(give, str) \
                or not isinstance(get, str) or not isinstance(to, str | None):
            raise TEXT.unreadable("unreadable.bad_value", field=f"offer{i}")
        out.append(f"OFFER GIVE {give} GET {n} {get}" + (f" TO {to}" if to else ""))
    return out


def field_lines(key: Any, val: Any) -> list[str]:
    """Notation lines of one submitted form field (see ``prompts``)."""
    k = str(key)
    if val == [] and (k == "lose" or k.startswith("lose_for_")):
        raise TEXT.unreadable("unreadable.tick")
    if val is None or val == "" or val is False or val == 0 or val == []:
        return []
    if isinstance(val, bool):
        raise TEXT.unreadable("unreadable.bad_value", field=k)
    if isinstance(val, int):
        if val < 0:
            raise TEXT.unreadable("unreadable.negative", field=k)
        if k == "route_gold":
            return [f"ROUTE GOLD {val}"]
        if k.startswith("troops_"):
            return [f"ROUTE TROOPS {val} AT {k[7:]}"]
        raise TEXT.unreadable("unreadable.bad_value", field=k)
    if isinstance(val, list) and val and all(isinstance(v, str) for v in val):
        val = " ".join(val)
    if not isinstance(val, str):
        raise TEXT.unreadable("unreadable.bad_value", field=k)
    m = re.match(r"^\s*([A-Za-z]+)\s*:(.*)$", val, re.S)
    if m and m.group(1).upper() in KINDS:
        val = m.group(2)
    prefix = {"lose": "LOSE", "losses": "LOSSES"}.get(k)
    if k.startswith("lose_for_"):
        prefix = "LOSE-FOR " + k[9:]
    if k.startswith("offer"):
        prefix = "OFFER"
    lines = split_lines(val)
    if prefix and lines and not lines[0].upper().startswith(prefix.split()[0] + " "):
        return [prefix + " " + " ".join(lines)]
    return lines
