"""The board drawn narrow, for a phone: two columns of regions, larger type, wrapped labels.

Same content and conventions as ``board.py`` (hatched tokens are exhausted, the
blockaded connection is crossed), laid out 400 units wide so that at 390 px every
label stays about as large as the page's own text.
"""

from __future__ import annotations

from html import escape
from typing import Any

from app.games.dual_powers.text import msg
from app.games.text import Render

W = 400
BOX_W, BOX_H = 182, 196
COLS = (8, 210)
TOP = 92
GAP = 26
POS = {"RED": (0, 0), "GRN": (1, 0), "BLU": (1, 1), "WHT": (1, 2), "BRN": (0, 2), "PUR": (0, 1)}
PER_ROW, MAX_TOKENS = 3, 9
#: a token's width, the step from one to the next and the first one's left margin: three in a row stay
#: inside the inner frame of a region in unrest (5 px in from the box)
TOKEN_W, TOKEN_STEP, TOKEN_LEFT = 54, 56, 9
FILL = {"RED": "#f6d2d2", "GRN": "#d5ecd2", "BLU": "#d4e2f5", "WHT": "#ffffff", "BRN": "#e8dccb",
        "PUR": "#e6d6ee"}
OWNER_STROKE = {"SOV": "#b00000", "GOV": "#1f3f8f", "OPP": "#000000", "NEU": "#2e7d32"}


def _t(x: float, y: float, text: Any, size: int = 14, anchor: str = "start", weight: str = "normal",
       fill: str = "#000") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}" font-family="sans-serif">{escape(str(text))}</text>')


def wrap(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most about ``width`` characters, at spaces."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def _lines(x: float, y: float, text: str, width: int, size: int, weight: str = "normal",
           step: int = 0) -> tuple[str, float]:
    out = []
    step = step or size + 4
    for i, line in enumerate(wrap(text, width)):
        out.append(_t(x, y + i * step, line, size, weight=weight))
    return "".join(out), y + len(out) * step


def _box(region: str) -> tuple[int, int]:
    col, row = POS[region]
    return COLS[col], TOP + row * (BOX_H + GAP)


def _connection(conn: dict[str, Any]) -> str:
    a, b = conn["ends"]
    (ax, ay), (bx, by) = _box(a), _box(b)
    x1: float
    x2: float
    y1: float
    y2: float
    if ay == by:
        x1, x2 = min(ax, bx) + BOX_W, max(ax, bx)
        y1 = y2 = ay + BOX_H / 2
    else:
        x1 = x2 = ax + BOX_W / 2
        y1, y2 = min(ay, by) + BOX_H, max(ay, by)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if not conn["blockaded"]:
        return (f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#555" stroke-width="8">'
                f'<title>{escape(conn["id"])}</title></line>')
    return (f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#000" stroke-width="5" '
            f'stroke-dasharray="4 4"/><path d="M{mx - 8:.0f} {my - 8:.0f} L{mx + 8:.0f} {my + 8:.0f} '
            f'M{mx + 8:.0f} {my - 8:.0f} L{mx - 8:.0f} {my + 8:.0f}" stroke="#000" stroke-width="4">'
            f'<title>{escape(conn["id"])}</title></path>')


def _token(x: float, y: float, tok: dict[str, Any], tr: Render) -> str:
    stroke = OWNER_STROKE.get(tok["owner"], "#000")
    fill, dash = ("#fff", "") if tok["fresh"] else ("url(#dp-hatch-n)", ' stroke-dasharray="4 3"')
    short = tok.get("short") or tok["id"]
    label = tr(short) if isinstance(short, dict) else str(short)
    return (f'<rect x="{x:.0f}" y="{y:.0f}" width="{TOKEN_W}" height="27" rx="4" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="2.5"{dash}><title>{escape(tr(tok["name"]))} ({escape(tok["id"])})</title></rect>'
            + _t(x + 4, y + 19, label, 13 if len(label) <= 3 else 11, weight="bold")
            + _t(x + TOKEN_W - 4, y + 19, tok["strength"], 14, "end", "bold"))


def _region(reg: dict[str, Any], tr: Render) -> str:
    x, y = _box(reg["id"])
    out = [f'<g class="dp-region" data-region="{reg["id"]}">',
           f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="9" fill="{FILL[reg["id"]]}" '
           f'stroke="#000" stroke-width="{4 if reg["unrest"] else 1.5}"><title>{reg["id"]}</title></rect>']
    if reg["unrest"]:
        out.append(f'<rect x="{x + 5}" y="{y + 5}" width="{BOX_W - 10}" height="{BOX_H - 10}" rx="6" '
                   'fill="none" stroke="#000" stroke-width="1.5"/>')
    title = tr(reg["name"])  # a long name (Greek) in a smaller face, so that it stays inside the box
    text, ty = _lines(x + 9, y + 21, title, 20, 15 if len(title) <= 15 else 13, "bold", 17)
    out.append(text)
    for side, (strength, count) in reg["strength"].items():
        out.append(_t(x + 9, ty, tr(msg("board.strength", seat=msg(f"seat.{side}"), strength=strength,
                                        tokens=count)), 12))
        ty += 15
    if reg["greater"]:
        out.append(_t(x + 9, ty, "> " + tr(msg(f"seat.{reg['greater']}")), 12, weight="bold"))
    ty = y + 96
    shown = reg["tokens"][:MAX_TOKENS]
    for i, tok in enumerate(shown):
        out.append(_token(x + TOKEN_LEFT + (i % PER_ROW) * TOKEN_STEP, ty - 18 + (i // PER_ROW) * 30, tok, tr))
    tags = [tr(msg("board.unrest"))] if reg["unrest"] else []
    tags += [tr(msg("board.objective", marker=m)) for m in reg["markers"]]
    if len(reg["tokens"]) > len(shown):
        tags.insert(0, tr(msg("board.more", n=len(reg["tokens"]) - len(shown))))
    if tags:
        out.append(_t(x + BOX_W - 8, y + BOX_H - 8, " | ".join(tags), 12, "end", "bold"))
    out.append("</g>")
    return "".join(out)


def _calendar(view: dict[str, Any], y: float, tr: Render) -> tuple[str, float]:
    text, y = _lines(8, y, tr(msg("board.calendar", day=view["day"], month=view["month_name"],
                                   vp=view["unrest_vp"])), 46, 14, "bold")
    out = [text]
    y -= 8
    for i, name in enumerate(view["months"]):
        x, top = 8 + (i % 3) * 128, y + (i // 3) * 26
        now = i == view["month"]
        out.append(f'<rect x="{x}" y="{top:.0f}" width="124" height="22" fill="{"#000" if now else "#fff"}" '
                   'stroke="#000"/>')
        label = tr(name)
        out.append(_t(x + 62, top + 16, label, 11 if len(label) <= 16 else 9, "middle", "bold",
                      "#fff" if now else "#000"))
    y += 58
    for d in range(1, 32):
        x, top = 8 + ((d - 1) % 16) * 24, y + ((d - 1) // 16) * 26
        now, special = d == view["day"], d in (15, 31)
        out.append(f'<rect x="{x}" y="{top:.0f}" width="22" height="22" fill="{"#000" if now else "#fff"}" '
                   f'stroke="#000" stroke-width="{2.5 if special else 1}"/>')
        out.append(_t(x + 11, top + 16, d, 12, "middle", "bold" if special else "normal",
                      "#fff" if now else "#000"))
    return "".join(out), y + 52 + 22


def _track(view: dict[str, Any], y: float, tr: Render) -> tuple[str, float]:
    end = view["track_end"]
    gov, sov = view["gov_side"], view["sov_side"]
    text, y = _lines(8, y, tr(msg("board.track", s=f"{view['s']:+d}", gov=msg(f"seat.{gov}"), end=end,
                                   sov=msg(f"seat.{sov}"), wotp=msg(f"seat.{view['wotp']}"))), 46, 14, "bold")
    out = [text]
    y -= 8
    step = 384 / (2 * end + 1)
    for i in range(2 * end + 1):
        v = i - end
        x = 8 + i * step
        now = v == view["s"]
        fill = "#000" if now else ("#d5ecd2" if v == 0 else "#fff")
        out.append(f'<rect x="{x:.1f}" y="{y:.0f}" width="{step - 1.5:.1f}" height="22" fill="{fill}" stroke="#000"/>')
        if now or v % 6 == 0:
            out.append(_t(x + step / 2, y + (16 if now else 38), v, 11, "middle", "bold",
                          "#fff" if now else "#000"))
    return "".join(out), y + 50


def board_svg_phone(view: dict[str, Any], tr: Render, heading: str, status: str, blockade: str) -> str:
    """The narrow board; ``heading``, ``status`` and ``blockade`` are already rendered."""
    parts = [_t(8, 22, heading, 16, weight="bold")]
    y = 42.0
    for text in (status, blockade):
        if text:
            block, y = _lines(8, y, text, 48, 13)
            parts.append(block)
    shift = max(0.0, y - TOP + 8)
    body = [_connection(c) for c in view["connections"]] + [_region(r, tr) for r in view["regions"]]
    parts.append(f'<g transform="translate(0 {shift:.0f})">{"".join(body)}</g>')
    y = TOP + 3 * BOX_H + 2 * GAP + shift + 26
    for key in ("board.legend", "board.legend2"):
        block, y = _lines(8, y, tr(msg(key)), 58, 12)
        parts.append(block)
    block, y = _calendar(view, y + 14, tr)
    parts.append(block)
    block, y = _track(view, y + 10, tr)
    parts.append(block)
    h = int(y + 10)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" role="img" '
            f'aria-label="{escape(tr(msg("board.aria")))}">'
            '<defs><pattern id="dp-hatch-n" width="6" height="6" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/>'
            '<line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="2"/></pattern></defs>'
            f'<rect x="0" y="0" width="{W}" height="{h}" fill="#fff"/>' + "".join(parts) + "</svg>")
