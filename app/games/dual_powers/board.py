"""The board as one SVG, drawn from a view: the ring of six regions, tokens, calendar, track.

Readable in black and white: exhausted tokens are hatched with a dashed border,
the blockaded connection carries a cross and the word BLOCKADED, the unrest
region a heavy double frame and the word UNREST.
"""

from __future__ import annotations

from html import escape
from typing import Any

from app.games.dual_powers.board_phone import FILL, OWNER_STROKE, _t, board_svg_phone
from app.games.dual_powers.text import TEXT, msg
from app.games.text import Render

W, H = 900, 760
BOX_W, BOX_H = 256, 220
COLS = (20, 322, 624)
ROWS = (60, 340)
#: Ring order laid out as a loop: top row left to right, bottom row right to left.
POS = {"RED": (0, 0), "GRN": (1, 0), "BLU": (2, 0), "WHT": (2, 1), "BRN": (1, 1), "PUR": (0, 1)}
def _box(region: str) -> tuple[int, int]:
    col, row = POS[region]
    return COLS[col], ROWS[row]


def _centre(region: str) -> tuple[float, float]:
    x, y = _box(region)
    return x + BOX_W / 2, y + BOX_H / 2


def _edge_points(a: str, b: str) -> tuple[float, float, float, float]:
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    if ay == by:
        left, right = (a, b) if ax < bx else (b, a)
        return _box(left)[0] + BOX_W, ay, _box(right)[0], ay
    top, bottom = (a, b) if ay < by else (b, a)
    return ax, _box(top)[1] + BOX_H, ax, _box(bottom)[1]


def _connection(conn: dict[str, Any], tr: Render) -> str:
    x1, y1, x2, y2 = _edge_points(*conn["ends"])
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    out = []
    if conn["blockaded"]:
        out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#000" '
                   'stroke-width="6" stroke-dasharray="4 4"/>')
        out.append(f'<path d="M{mx - 14:.0f} {my - 14:.0f} L{mx + 14:.0f} {my + 14:.0f} M{mx + 14:.0f} '
                   f'{my - 14:.0f} L{mx - 14:.0f} {my + 14:.0f}" stroke="#000" stroke-width="5"/>')
    else:
        out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#555" '
                   'stroke-width="8"/>')
    horizontal = y1 == y2
    ly = my - 20 if horizontal else my + 5
    lx = mx if horizontal else mx + 12
    anchor = "middle" if horizontal else "start"
    if conn["blockaded"] and not horizontal:  # between the columns there is no room: the cross says it
        out.append(_t(lx, ly, tr(msg("board.blockaded")), 11, anchor, "bold"))
    out.append(f"<title>{escape(conn['id'])}</title>")
    return "".join(out)


def _token(x: float, y: float, tok: dict[str, Any], tr: Render) -> str:
    stroke = OWNER_STROKE.get(tok["owner"], "#000")
    if tok["fresh"]:
        rect = (f'<rect x="{x:.0f}" y="{y:.0f}" width="58" height="30" rx="4" fill="#fff" '
                f'stroke="{stroke}" stroke-width="2.5"/>')
    else:
        rect = (f'<rect x="{x:.0f}" y="{y:.0f}" width="58" height="30" rx="4" fill="url(#dp-hatch)" '
                f'stroke="{stroke}" stroke-width="2" stroke-dasharray="4 3"/>')
    short = tok.get("short") or tok["id"]
    label = tr(short) if isinstance(short, dict) else str(short)
    title = f"<title>{escape(tr(tok['name']))} ({escape(tok['id'])})</title>" if "name" in tok else ""
    return ("<g>" + title + rect + _t(x + 4, y + 20, label, 13 if len(label) <= 3 else 11, weight="bold")
            + _t(x + 54, y + 20, tok["strength"], 15, "end", "bold") + "</g>")


def _region(reg: dict[str, Any], sides: list[str], tr: Render) -> str:
    x, y = _box(reg["id"])
    out = [f'<g class="dp-region" data-region="{reg["id"]}">',
           f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="10" fill="{FILL[reg["id"]]}" '
           f'stroke="#000" stroke-width="{4 if reg["unrest"] else 1.5}"><title>{reg["id"]}</title></rect>']
    if reg["unrest"]:
        out.append(f'<rect x="{x + 5}" y="{y + 5}" width="{BOX_W - 10}" height="{BOX_H - 10}" rx="7" '
                   'fill="none" stroke="#000" stroke-width="1.5"/>')
    title = tr(msg("board.region", region=reg["name"], colour=reg["colour"]))
    out.append(_t(x + 10, y + 24, title, 14 if len(title) <= 26 else 12, weight="bold"))
    tags = []
    if reg["unrest"]:
        tags.append(tr(msg("board.unrest")))
    tags += [tr(msg("board.objective", marker=m)) for m in reg["markers"]]
    parts = [msg("board.strength", seat=msg(f"seat.{s}"), strength=v[0], tokens=v[1])
             for s, v in reg["strength"].items()]
    out.append(_t(x + 10, y + 42, tr(msg("board.strengths", a=parts[0], b=parts[1])), 10))
    bottom: list[str] = []
    if reg["greater"]:
        out.append(_t(x + 10, y + 56, tr(msg("board.greater", seat=msg(f"seat.{reg['greater']}"))), 10))
    if tags:
        out.append(_t(x + BOX_W - 10, y + BOX_H - 8, " | ".join(tags), 12, "end", "bold"))
    shown = reg["tokens"][:16]
    for i, tok in enumerate(shown):
        out.append(_token(x + 8 + (i % 4) * 62, y + 62 + (i // 4) * 34, tok, tr))
    if len(reg["tokens"]) > len(shown):
        bottom.insert(0, tr(msg("board.more", n=len(reg["tokens"]) - len(shown))))
    if bottom:
        out.append(_t(x + 10, y + BOX_H - 8, "; ".join(bottom), 11))
    out.append("</g>")
    return "".join(out)


def _calendar(view: dict[str, Any], y: int, tr: Render) -> str:
    out = [_t(20, y - 6, tr(msg("board.calendar", day=view["day"], month=view["month_name"], vp=view["unrest_vp"])),
              14, weight="bold")]
    for i, name in enumerate(view["months"]):
        x = 20 + i * 143
        now = i == view["month"]
        out.append(f'<rect x="{x}" y="{y}" width="139" height="22" fill="{"#000" if now else "#fff"}" '
                   'stroke="#000"/>')
        out.append(_t(x + 70, y + 16, tr(name), 10, "middle", "bold", "#fff" if now else "#000"))
    for d in range(1, 32):
        dx = 20 + (d - 1) * 27.6
        now = d == view["day"]
        special = d in (15, 31)
        fill = "#000" if now else "#fff"
        out.append(f'<rect x="{dx:.1f}" y="{y + 28}" width="26" height="22" fill="{fill}" '
                   f'stroke="#000" stroke-width="{2.5 if special else 1}"/>')
        out.append(_t(dx + 13, y + 44, d, 11, "middle", "bold" if special else "normal",
                      "#fff" if now else "#000"))
    return "".join(out)


def _track(view: dict[str, Any], y: int, tr: Render) -> str:
    end = view["track_end"]
    cells = 2 * end + 1
    step = 860 / cells
    gov, sov = view["gov_side"], view["sov_side"]
    out = [_t(20, y - 6, tr(msg("board.track", s=f"{view['s']:+d}", gov=msg(f"seat.{gov}"), end=end,
                                sov=msg(f"seat.{sov}"), wotp=msg(f"seat.{view['wotp']}"))), 14, weight="bold")]
    for i in range(cells):
        v = i - end
        x = 20 + i * step
        now = v == view["s"]
        fill = "#000" if now else ("#d5ecd2" if v == 0 else "#fff")
        out.append(f'<rect x="{x:.1f}" y="{y}" width="{step - 2:.1f}" height="22" fill="{fill}" '
                   'stroke="#000"/>')
        out.append(_t(x + step / 2 - 1, y + 16, v, 10, "middle", "bold" if now else "normal",
                      "#fff" if now else "#000"))
    return "".join(out)


def _fit(x: float, y: float, text: str, size: int = 11, room: float = W - 40) -> str:
    """A line of text squeezed into ``room`` when it would run past it (a long translation)."""
    line = _t(x, y, text, size)
    if len(text) * size * 0.55 <= room:
        return line
    return line.replace("<text ", f'<text textLength="{room:.0f}" lengthAdjust="spacingAndGlyphs" ', 1)


def board_svg(view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
    """The board; every label is a message rendered by ``tr`` (default: English)."""
    if tr is None:
        tr = TEXT.english
    turn = (msg("board.round_turn", round=view["round"], turn=view["turn"], turns=view["turns"]) if view["turns"]
            else msg("board.round", round=view["round"]))
    to_act: Any = msg("board.to_play", seat=msg(f"seat.{view['to_act']}")) if view.get("to_act") else ""
    if view["phase"] == "objective":
        to_act = msg("board.objectives")
    if view.get("winner"):
        to_act = msg("board.winner", seat=msg(f"seat.{view['winner']}"))
    blocked = next(c for c in view["connections"] if c["blockaded"])
    if view.get("layout") == "phone":
        status = tr(to_act).lstrip(", ") if to_act else ""
        return board_svg_phone(view, tr, tr(msg("board.heading", turn=turn, status="")), status,
                               tr(msg("board.blockade", connection=blocked["name"], id=blocked["id"])))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
        f'aria-label="{escape(tr(msg("board.aria")))}">',
        '<defs><pattern id="dp-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="2"/></pattern></defs>',
        f'<rect x="0" y="0" width="{W}" height="{H}" fill="#fff"/>',
        _t(20, 30, tr(msg("board.heading", turn=turn, status=to_act)), 18, weight="bold"),
        _t(20, 50, tr(msg("board.blockade", connection=blocked["name"], id=blocked["id"])), 12),
    ]
    parts += [_connection(c, tr) for c in view["connections"]]
    parts += [_region(r, view["sides"], tr) for r in view["regions"]]
    parts += [_fit(20, y, tr(msg(key))) for y, key in ((572, "board.legend"), (588, "board.legend2"))]
    parts.append(_calendar(view, 610, tr))
    parts.append(_track(view, 710, tr))
    parts.append("</svg>")
    return "".join(parts)
