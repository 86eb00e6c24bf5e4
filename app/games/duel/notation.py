"""Order notation: ``PLACE L17 2 -1 3`` (tile, q, r, rotation) and ``PASS``.

Canonical order dicts::

    {"type": "PLACE", "tile": "L17", "position": "2,-1", "rotation": 3}
    {"type": "PASS"}

Either may carry ``"turn": n`` (written ``turn=n``); an automatic placement
made at a missed deadline carries ``"auto": True`` (written ``AUTO`` in reports; ``parse``
refuses it from a player, whose orders never count as missed deadlines).  The
spec's keyword form ``PLACE tile=L17 q=2 r=-1 rotation=3`` is read as well.
"""

from __future__ import annotations

import re
from typing import Any

from app.games.duel.placement import PlacementError
from app.games.duel.text import TEXT

_INT = re.compile(r"^[+-]?\d{1,6}$")


def bad_order() -> PlacementError:
    return PlacementError("E_BAD_ORDER", "refuse.bad_order")


def _int_or_text(token: str) -> int | str:
    return int(token) if _INT.match(token) else token


def parse(text: Any) -> dict[str, Any]:
    """Read an order; raise ``InvalidOrder`` when it cannot be read."""
    if not isinstance(text, str) or len(text) > 200:
        raise TEXT.unreadable("refuse.bad_order")
    tokens = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
    if not tokens:
        raise TEXT.unreadable("refuse.bad_order")
    verb = tokens[0].upper()
    rest = tokens[1:]
    order: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    positional: list[str] = []
    for tok in rest:
        if tok.upper() == "AUTO":  # the server's mark of a missed deadline, never a player's
            raise TEXT.unreadable("unreadable.reserved", order="AUTO")
        elif "=" in tok:
            key, _, value = tok.partition("=")
            key = key.lower()
            if key not in ("tile", "q", "r", "rotation", "rot", "turn") or not value:
                raise TEXT.unreadable("refuse.bad_order")
            extra[{"rot": "rotation"}.get(key, key)] = value
        else:
            positional.append(tok)
    if "turn" in extra:
        turn = str(extra.pop("turn")).upper().lstrip("T")
        if not _INT.match(turn):
            raise TEXT.unreadable("refuse.bad_turn")
        order_turn: int | None = int(turn)
    else:
        order_turn = None
    if verb == "PASS":
        if positional or set(extra) - {"auto"}:
            raise TEXT.unreadable("refuse.bad_order")
        order = {"type": "PASS"}
    elif verb == "PLACE":
        names = ["tile", "q", "r", "rotation"]
        fields = {k: extra[k] for k in names if k in extra}
        free = [n for n in names if n not in fields]
        if len(positional) != len(free):
            raise TEXT.unreadable("refuse.bad_order")
        fields.update(zip(free, positional, strict=True))
        q, r, rot = (_int_or_text(str(fields[k])) for k in ("q", "r", "rotation"))
        if not all(isinstance(x, int) for x in (q, r, rot)):
            raise TEXT.unreadable("refuse.bad_numbers")
        order = {
            "type": "PLACE",
            "tile": str(fields["tile"]).upper(),
            "position": f"{q},{r}",
            "rotation": rot,
        }
    else:
        raise TEXT.unreadable("refuse.bad_order")
    if order_turn is not None:
        order["turn"] = order_turn
    if extra.get("auto"):
        order["auto"] = True
    return order


def format_order(order: dict[str, Any]) -> str:
    """Write an order in the notation (``parse(format_order(o)) == o``)."""
    if not isinstance(order, dict):
        raise bad_order()
    if order.get("type") == "PASS":
        text = "PASS"
    else:
        tile = order.get("tile")
        if "position" in order:
            q, _, r = str(order["position"]).partition(",")
        else:
            q, r = str(order.get("q")), str(order.get("r"))
        text = f"PLACE {tile} {q} {r} {order.get('rotation')}"
    if "turn" in order:
        text += f" turn={order['turn']}"
    if order.get("auto"):
        text += " AUTO"
    return text


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INT.match(value.strip()):
        return int(value.strip())
    return None


def read_order(order: Any) -> dict[str, Any]:
    """Check 1 of §5.3: the shape of an order dict.

    :returns: ``{"type": "PASS"}`` or ``{"type": "PLACE", "tile", "q", "r",
        "rotation"}`` where q, r, rotation are ints or None when unreadable
        (reported later by check 5).
    :raises PlacementError: E_BAD_ORDER.
    """
    if not isinstance(order, dict):
        raise bad_order()
    turn = order.get("turn")
    if turn is not None:
        turn = _as_int(str(turn).strip().upper().lstrip("T"))
        if turn is None:
            raise bad_order()
    kind = order.get("type")
    if kind == "PASS":
        return {"type": "PASS", "turn": turn}
    if kind != "PLACE":
        raise bad_order()
    tile = order.get("tile")
    if not isinstance(tile, str) or "rotation" not in order:
        raise bad_order()
    if "position" in order:
        pos = order["position"]
        if not isinstance(pos, str) or pos.count(",") != 1:
            raise bad_order()
        q_raw, r_raw = pos.split(",")
    elif "q" in order and "r" in order:
        q_raw, r_raw = order["q"], order["r"]
    else:
        raise bad_order()
    rot = order["rotation"]
    return {
        "type": "PLACE",
        "tile": tile.strip().upper(),
        "q": _as_int(q_raw),
        "r": _as_int(r_raw),
        "rotation": _as_int(rot),
        "turn": turn,
    }
