"""The board as one SVG: the 4 x 3 map with owners, troops, constructions,
pacts, and a stock strip per player.  Readable in black-and-white print:
every owner has a text label and its own hatch pattern beside the colour."""

from __future__ import annotations

from html import escape
from typing import Any

from app.games.empire.text import TEXT, tribute_name, troops_by_group
from app.games.text import Render, msg, name

CELL_W, CELL_H, GAP, PAD = 196, 216, 8, 10
#: Font sizes in map units: the map is 828 units wide, about 350 px on a phone (x 0.42) and
#: 180 mm on A4, so 20 units read as about 8.5 px on a phone and 10 pt on paper.
BIG, TEXT_SIZE, SMALL = 24, 20, 18
TINT = {"BLUE": "#cfe0ff", "GREEN": "#d4f2d0", "YELLOW": "#fff3b0", "RED": "#ffd3cf"}
INK = {"BLUE": "#1f4fa8", "GREEN": "#1d7a2a", "YELLOW": "#6b5500", "RED": "#a82a1f"}
PATTERN = {
    "BLUE": '<path d="M0 8 L8 0" stroke="#1f4fa8" stroke-width="1"/>',
    "GREEN": '<circle cx="4" cy="4" r="1.2" fill="#1d7a2a"/>',
    "YELLOW": '<path d="M0 4 H8" stroke="#8a6d00" stroke-width="1"/>',
    "RED": '<path d="M0 0 L8 8 M0 8 L8 0" stroke="#a82a1f" stroke-width="0.8"/>',
}
MODES = ["ATTACK", "DEFENCE", "CONQUEST"]


def _english(text: Any) -> str:
    return TEXT.english(text)


def _t(x: float, y: float, text: str, size: int = TEXT_SIZE, weight: str = "normal",
       anchor: str = "start", fill: str = "#000") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}" font-family="Helvetica, Arial, sans-serif">'
            f"{escape(text)}</text>")


def _fit(text: str, size: int, width: float) -> int:
    """A font size at most ``size`` at which ``text`` fits ``width`` (bold Helvetica, Greek capitals
    included, averages under 0.68 em)."""
    return max(12, min(size, int(width / (0.68 * max(len(text), 1)))))


def _wrap(text: str, size: int, width: float) -> list[str]:
    """``text`` in lines that fit ``width`` at ``size`` (at most two; the second shrinks if it must)."""
    room = max(10, int(width / (0.62 * size)))
    lines: list[str] = []
    line = ""
    words = text.split()
    for w in words:
        if line and len(line) + 1 + len(w) > room and len(lines) == 0:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    return lines + [line] if line else lines


def _troop_label(t: dict[str, Any], tr: Render) -> str:
    """``BLUE 2 ATK>R``: the troop by its colour and number (``BLUE 1 heavy DEF``), its mode, its target."""
    mark = tr(name("mode_short", t["mode"]))
    if t.get("target"):
        mark += ">" + tr(name("colour_short", t["target"]))
    return f"{tr(msg('board.troop.' + t['kind'], colour=name('colour', t['colour']), n=t['num']))} {mark}"


def _troop_lines(troops: list[dict[str, Any]], tr: Render) -> list[tuple[str, str, bool]]:
    """(colour, text, heavy) lines: each troop while they fit (3), else a count per owner and mode."""
    if len(troops) <= 3:
        return [(t["colour"], _troop_label(t, tr), t["kind"] == "H") for t in troops]
    rows = []
    for colour in sorted({t["colour"] for t in troops}):
        mine = [t for t in troops if t["colour"] == colour]
        counts = [f"{sum(t['mode'] == m for t in mine)} {tr(name('mode_short', m))}" for m in MODES
                  if any(t["mode"] == m for t in mine)]
        heavy = sum(t["kind"] == "H" for t in mine)
        rows.append((colour, f"{tr(name('colour', colour))}: " + " ".join(counts)
                     + (f" ({tr(msg('board.heavy', n=heavy))})" if heavy else ""), False))
    return rows[:3]


def _cell(p: dict[str, Any], troops: list[dict[str, Any]], x: float, y: float, tr: Render) -> list[str]:
    """One province: number and name, production, owner; its troops; constructions and pact below.
    Every line has its own band, so nothing overlaps whatever the language."""
    out = []
    colour = p.get("owner_colour")
    fill = f"url(#pat-{colour})" if colour else "#ffffff"
    here = tr(troops_by_group([t["id"] for t in troops])) if troops else ""
    out.append(f'<g><title>{escape(tr(p["name"]))}{": " + escape(here) if here else ""}</title>')
    out.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="6" fill="{fill}" '
               f'stroke="#000" stroke-width="{3 if p.get("centre") else 1.2}"/>')
    out.append(f'<rect x="{x + 4}" y="{y + 4}" width="{CELL_W - 8}" height="{CELL_H - 8}" rx="4" '
               'fill="#fff" fill-opacity="0.82"/>')
    inner = CELL_W - 16
    title = f"{p['id']} {tr(p['name'])}"
    size = _fit(title, BIG, inner)
    lines = [title] if size >= TEXT_SIZE else _wrap(title, TEXT_SIZE, inner)
    size = min(_fit(line, BIG if len(lines) == 1 else BIG - 2, inner) for line in lines)
    y_at = y + 2
    for line in lines:
        y_at += 26
        out.append(_t(x + 8, y_at, line, size, "bold"))
    prod = f"{tr(name('resource', p['res']))} {p['amount']}" + ("+1" if p.get("building") == "INF" else "")
    y_at += 25
    out.append(_t(x + 8, y_at, prod, _fit(prod, TEXT_SIZE, inner)))
    owner = tr(name("colour", colour)) if colour else tr(msg("board.neutral"))
    if p.get("centre") and p["centre"] == colour:
        owner += " · " + tr(msg("board.centre_own"))
    elif p.get("centre"):
        owner += " · " + tr(msg("board.centre", colour=name("colour", p["centre"])))
    y_at += 25
    out.append(_t(x + 8, y_at, owner, _fit(owner, SMALL, inner), "bold" if colour else "normal",
                  fill=INK.get(colour or "", "#333")))
    for who, text, heavy in _troop_lines(troops, tr):
        y_at += 22
        out.append(_t(x + 8, y_at, text, _fit(text, SMALL, inner), "bold" if heavy else "normal",
                      fill=INK.get(who, "#000")))
    badges = [tr(b) for b in (name("board.building", p["building"]) if p.get("building") else None,
                              msg("board.pact") if p.get("peace") else None) if b]
    bx = x + 8
    for b in badges:
        size = _fit(b, SMALL, 90)
        w = max(40, int(0.8 * size * len(b)) + 12)
        out.append(f'<rect x="{bx}" y="{y + CELL_H - 30}" width="{w}" height="24" fill="#000" rx="3"/>')
        out.append(_t(bx + w / 2, y + CELL_H - 12, b, size, "bold", "middle", "#fff"))
        bx += w + 6
    out.append("</g>")
    return out


def board_svg(view: dict[str, Any], seat: str | None = None, tr: Render | None = None) -> str:
    """The board; ``tr`` renders a message in the reader's language (English by default).

    The map, then a key: one line per player (its pattern, its name); stocks are in the page's table.
    """
    tr = tr or _english
    width = PAD * 2 + 4 * CELL_W + 3 * GAP
    map_h = PAD + 3 * CELL_H + 2 * GAP
    players = view.get("players", [])
    rows = (len(players) + 1) // 2
    height = map_h + 110 + 32 * rows + PAD
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
    y0 = map_h + 30
    title = tr(msg("board.title", round=view.get("round"), turn=view.get("turn"),
                   tribute=tribute_name(view.get("tribute"))))
    out.append(_t(PAD, y0, title, _fit(title, TEXT_SIZE, width - 2 * PAD), "bold"))
    legend = _wrap(tr(msg("board.legend")), SMALL, width - 2 * PAD)
    for i, line in enumerate(legend):
        out.append(_t(PAD, y0 + 28 + 24 * i, line, _fit(line, SMALL, width - 2 * PAD)))
    half = (width - 2 * PAD) / 2
    for i, pl in enumerate(players):
        r, c = divmod(i, 2)
        px, py = PAD + c * half, y0 + 38 + 24 * len(legend) + 32 * r
        out.append(f'<rect x="{px:.0f}" y="{py - 19}" width="24" height="24" fill="url(#pat-{pl["colour"]})" '
                   'stroke="#000"/>')
        who: Any = name("colour", pl["colour"])
        if pl["seat"] == seat:
            who = msg("board.you", seat=who)
        if pl["eliminated"]:
            who = msg("board.out", seat=who)
        line = tr(who) + " · " + tr(msg("board.key", provinces=pl["provinces"], troops=pl["troops"]))
        out.append(_t(px + 32, py, line, _fit(line, TEXT_SIZE, half - 40), "bold", fill=INK[pl["colour"]]))
    out.append("</svg>")
    return "".join(out)
