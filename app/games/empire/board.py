"""The board as one SVG: the 4 x 3 map with owners, troops, constructions,
pacts, and a stock strip per player.  Readable in black-and-white print:
every owner has a text label and its own hatch pattern beside the colour."""

from __future__ import annotations

from html import escape
from typing import Any

from app.games.empire.text import TEXT, tribute_name
from app.games.text import Render, msg, name

CELL_W, CELL_H, GAP, PAD = 196, 178, 8, 10
TINT = {"BLUE": "#cfe0ff", "GREEN": "#d4f2d0", "YELLOW": "#fff3b0", "RED": "#ffd3cf"}
INK = {"BLUE": "#1f4fa8", "GREEN": "#1d7a2a", "YELLOW": "#8a6d00", "RED": "#a82a1f"}
PATTERN = {
    "BLUE": '<path d="M0 8 L8 0" stroke="#1f4fa8" stroke-width="1"/>',
    "GREEN": '<circle cx="4" cy="4" r="1.2" fill="#1d7a2a"/>',
    "YELLOW": '<path d="M0 4 H8" stroke="#8a6d00" stroke-width="1"/>',
    "RED": '<path d="M0 0 L8 8 M0 8 L8 0" stroke="#a82a1f" stroke-width="0.8"/>',
}
MODES = ["ATTACK", "DEFENCE", "CONQUEST"]
SHORT = ["GOLD", "WOOD", "STONE", "IRON", "FOOD", "POP"]


def _english(text: Any) -> str:
    return TEXT.english(text)


def _t(x: float, y: float, text: str, size: int = 13, weight: str = "normal",
       anchor: str = "start", fill: str = "#000") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}" font-family="Helvetica, Arial, sans-serif">'
            f"{escape(text)}</text>")


def _fit(text: str, size: int, width: float) -> int:
    """A font size at most ``size`` at which ``text`` fits ``width`` (bold Helvetica averages under 0.64 em)."""
    return max(8, min(size, int(width / (0.64 * max(len(text), 1)))))


def _troop_label(t: dict[str, Any], tr: Render) -> str:
    mark = tr(name("mode_short", t["mode"]))
    if t.get("target"):
        mark += ">" + t["target"][0]
    return f"{t['id']} {mark}"


def _cell(p: dict[str, Any], troops: list[dict[str, Any]], x: float, y: float, tr: Render) -> list[str]:
    out = []
    colour = p.get("owner_colour")
    fill = f"url(#pat-{colour})" if colour else "#ffffff"
    out.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="6" fill="{fill}" '
               f'stroke="#000" stroke-width="{2.5 if p.get("centre") else 1.2}"/>')
    out.append(f'<rect x="{x + 4}" y="{y + 4}" width="{CELL_W - 8}" height="40" rx="4" '
               'fill="#fff" fill-opacity="0.85"/>')
    title = f"{p['id']} {tr(p['name'])}"
    out.append(_t(x + 8, y + 20, title, _fit(title, 15, CELL_W - 16), "bold"))
    prod = f"{tr(name('resource', p['res']))} {p['amount']}" + ("+1" if p.get("building") == "INF" else "")
    out.append(_t(x + 8, y + CELL_H - 9, prod, 12))
    owner = tr(name("colour", colour)) if colour else tr(msg("board.neutral"))
    tags = [owner]
    if p.get("centre"):
        tags.append(tr(msg("board.centre", colour=name("colour", p["centre"]))))
    tag_line = " | ".join(tags)
    out.append(_t(x + 8, y + 38, tag_line, _fit(tag_line, 12, CELL_W - 16), "bold" if colour else "normal",
                  fill=INK.get(colour or "", "#333")))
    badges = [tr(b) for b in (name("board.building", p["building"]) if p.get("building") else None,
                              msg("board.pact") if p.get("peace") else None) if b]
    for i, b in enumerate(badges):
        bx = x + CELL_W - 8 - 52 * (i + 1) + 4
        out.append(f'<rect x="{bx}" y="{y + CELL_H - 22}" width="48" height="17" fill="#000" rx="3"/>')
        out.append(_t(bx + 24, y + CELL_H - 9, b, 11, "bold", "middle", "#fff"))
    box_y = y + 50
    if len(troops) > 12:  # too many to list: count them per owner and mode
        rows = []
        for colour in sorted({t["colour"] for t in troops}):
            mine = [t for t in troops if t["colour"] == colour]
            counts = [f"{sum(t['mode'] == m for t in mine)} {tr(name('mode_short', m))}" for m in MODES
                      if any(t["mode"] == m for t in mine)]
            heavy = sum(t["kind"] == "H" for t in mine)
            rows.append((colour, f"{colour[0]}: " + ", ".join(counts) + (f" ({heavy}H)" if heavy else "")))
        texts = rows
    else:
        pairs = [troops[i:i + 2] for i in range(0, len(troops), 2)]
        texts = [("", "") for _ in pairs]
    n = len(texts)
    if n:
        out.append(f'<rect x="{x + 4}" y="{box_y}" width="{CELL_W - 8}" height="{16 * n + 6}" '
                   'rx="4" fill="#fff" fill-opacity="0.85"/>')
    if len(troops) > 12:
        for i, (colour, text) in enumerate(texts):
            out.append(_t(x + 10, box_y + 16 + 16 * i, text, 12, fill=INK.get(colour, "#000")))
    else:
        for i, row in enumerate(pairs):
            for j, t in enumerate(row):
                out.append(_t(x + 10 + j * 92, box_y + 16 + 16 * i, _troop_label(t, tr), 12,
                              "bold" if t["kind"] == "H" else "normal", fill=INK.get(t["colour"], "#000")))
    return out


def board_svg(view: dict[str, Any], seat: str | None = None, tr: Render | None = None) -> str:
    """The board; ``tr`` renders a message in the reader's language (English by default)."""
    tr = tr or _english
    width = PAD * 2 + 4 * CELL_W + 3 * GAP
    map_h = PAD + 3 * CELL_H + 2 * GAP
    players = view.get("players", [])
    height = map_h + 54 + 22 * (len(players) + 1) + PAD
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{escape(tr(msg("board.aria", round=view.get("round"))))}">', "<defs>"]
    for colour, body in PATTERN.items():
        out.append(f'<pattern id="pat-{colour}" width="8" height="8" patternUnits="userSpaceOnUse">'
                   f'<rect width="8" height="8" fill="{TINT[colour]}"/>{body}</pattern>')
    out.append("</defs>")
    out.append(f'<rect width="{width}" height="{height}" fill="#fff"/>')
    by_prov: dict[int, list[dict[str, Any]]] = {}
    for t in view.get("troops", []):
        by_prov.setdefault(t["province"], []).append(t)
    for p in view.get("provinces", []):
        row, col = divmod(p["id"] - 1, 4)
        x = PAD + col * (CELL_W + GAP)
        y = PAD + row * (CELL_H + GAP)
        out += _cell(p, by_prov.get(p["id"], []), x, y, tr)
    y0 = map_h + 24
    title = tr(msg("board.title", round=view.get("round"), turn=view.get("turn"),
                   tribute=tribute_name(view.get("tribute"))))
    out.append(_t(PAD, y0 - 4, title, 13, "bold"))
    out.append(_t(PAD, y0 + 12, tr(msg("board.legend")), 11))
    y0 += 14
    cols = [tr(msg(f"board.col.{c}")) for c in ["player", *SHORT, "prov", "troops", "spoils", "trade", "setback"]]
    xs = [PAD, 150, 195, 240, 285, 330, 375, 425, 480, 545, 605, 660]
    for cx, c in zip(xs, cols, strict=True):
        out.append(_t(cx, y0 + 22, c, 12, "bold"))
    for i, pl in enumerate(players):
        yy = y0 + 44 + 22 * i
        out.append(f'<rect x="{PAD}" y="{yy - 13}" width="14" height="14" fill="url(#pat-{pl["colour"]})" '
                   'stroke="#000"/>')
        who: Any = name("colour", pl["colour"])
        if pl["seat"] == seat:
            who = msg("board.you", seat=who)
        if pl["eliminated"]:
            who = msg("board.out", seat=who)
        setback = pl["setback"]
        cells = [tr(who)] + [str(pl["res"][r]) for r in SHORT] + [
            str(pl["provinces"]), f"{pl['troops']} ({pl['heavy']}H)", str(pl["spoils"]),
            str(pl["trade_markers"]), tr(setback["name"]) if setback else "-"]
        for j, (cx, c) in enumerate(zip(xs, cells, strict=True)):
            out.append(_t(cx + (20 if j == 0 else 0), yy, c, 12, "bold" if j == 0 else "normal"))
    out.append("</svg>")
    return "".join(out)
