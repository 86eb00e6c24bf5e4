"""The SVG board: 42 territories grouped by theatre, drawn from a view only.

Owners differ by colour, by a print pattern and by a letter; army counts use
the source's tank shorthand (one tank glyph = 10 armies: 23 = 2 tanks + 3).
"""

from __future__ import annotations

from html import escape
from typing import Any

from app.games.conquest import data
from app.games.text import Msg, Render, msg, name

W, H = 1300, 726
BW, BH = 104, 58
_X = 36  # left margin for the routes that leave the board
_TOP = [104, 189, 274, 359]
_BOT = [469, 554, 639]
_RAW: dict[str, tuple[int, int]] = {
    "ALA": (62, _TOP[0]),
    "WCA": (172, _TOP[0]),
    "WUS": (62, _TOP[1]),
    "ECA": (172, _TOP[1]),
    "EUS": (62, _TOP[2]),
    "BRA": (172, _TOP[3]),
    "ICE": (300, _TOP[0]),
    "NOR": (410, _TOP[0]),
    "GBR": (300, _TOP[1]),
    "GER": (410, _TOP[1]),
    "FRA": (300, _TOP[2]),
    "ITA": (410, _TOP[2]),
    "SPA": (300, _TOP[3]),
    "FIN": (530, _TOP[0]),
    "LEN": (640, _TOP[0]),
    "POL": (530, _TOP[1]),
    "MOS": (640, _TOP[1]),
    "STA": (750, _TOP[1]),
    "BAL": (530, _TOP[2]),
    "UKR": (640, _TOP[2]),
    "CAU": (750, _TOP[2]),
    "ALG": (250, _BOT[0]),
    "LIB": (360, _BOT[0]),
    "EGY": (470, _BOT[0]),
    "IRQ": (580, _BOT[0]),
    "IRN": (690, _BOT[0]),
    "WAF": (250, _BOT[1]),
    "EAF": (360, _BOT[1]),
    "SAF": (305, _BOT[2]),
    "MAN": (974, _TOP[2]),
    "NCH": (864, _TOP[3]),
    "OCH": (974, _TOP[3]),
    "IND": (864, _BOT[0]),
    "IDC": (974, _BOT[0]),
    "BUR": (919, _BOT[1]),
    "HAW": (1200, _TOP[0]),
    "JAP": (1090, _TOP[1]),
    "PHI": (1200, _TOP[2]),
    "MAL": (1090, _BOT[0]),
    "DEI": (1200, _BOT[0] + 20),
    "AUS": (1090, _BOT[2]),
    "NGU": (1200, _BOT[2]),
}
#: Box centres (x, y) per territory, theatre by theatre.
POS: dict[str, tuple[int, int]] = {t: (x + _X, y) for t, (x, y) in _RAW.items()}
#: Curved links: perpendicular bend of the control point, in board units.
BEND: dict[frozenset[str], int] = {frozenset(("BUR", "NCH")): -30}
#: Links drawn as two stubs that leave the board at the left and right edges.
STUBS = {frozenset(("ALA", "JAP")), frozenset(("WUS", "HAW"))}
#: Hawaii - New Guinea leaves the board at the top and comes back at the bottom.
MARGIN_ROUTES = {frozenset(("HAW", "NGU"))}
#: Iceland - Leningrad runs in the channel between the panel titles and the top row.
CHANNEL_Y = 68
#: Territories whose name the board abbreviates (``short.<id>`` in ``text.py``).
SHORT = {"WCA", "ECA", "WUS", "EUS", "GBR", "NCH", "OCH", "DEI", "WAF", "EAF", "SAF"}


def short_name(t: str) -> Msg:
    """The name printed in a territory's box."""
    return name("short" if t in SHORT else "territory", t)


_PANELS = {
    "AM": (6, 40, 228, 392),
    "WE": (244, 40, 466, 392),
    "EF": (474, 40, 806, 306),
    "AME": (194, 419, 746, 672),
    "CBI": (806, 224, 1032, 588),
    "PAC": (1034, 40, 1258, 672),
}
#: Theatre panels: (x0, y0, x1, y1) in board units.
PANELS = {h: (a + _X, b, c + _X, d) for h, (a, b, c, d) in _PANELS.items()}


def tanks(n: int) -> tuple[int, int]:
    """The tank shorthand: (tanks, units) with one tank = 10 armies."""
    return divmod(max(0, n), data.TANK)


def _patterns(prefix: str = "pat") -> str:
    out = []
    for colour, (fill, pattern, _) in data.COLOUR_STYLE.items():
        pid = f"{prefix}-{colour}"
        marks = {
            "dots": '<circle cx="4" cy="4" r="1.8" fill="#000" fill-opacity=".55"/>',
            "hatch": '<path d="M0 8 L8 0" stroke="#000" stroke-opacity=".55" stroke-width="1.6"/>',
            "cross": '<path d="M0 0 L8 8 M0 8 L8 0" stroke="#000" stroke-opacity=".5" stroke-width="1.2"/>',
            "vertical": '<path d="M4 0 L4 8" stroke="#000" stroke-opacity=".55" stroke-width="1.6"/>',
            "plain": '<path d="M0 4 L8 4" stroke="#fff" stroke-opacity=".5" stroke-width="1.4"/>'
            if colour == "Grey"
            else "",
        }[pattern]
        out.append(
            f'<pattern id="{pid}" width="8" height="8" patternUnits="userSpaceOnUse">'
            f'<rect width="8" height="8" fill="{fill}"/>{marks}</pattern>'
        )
    return "<defs>" + "".join(out) + "</defs>"


def _link(a: str, b: str, kind: str, tr: Render) -> str:
    (x1, y1), (x2, y2) = POS[a], POS[b]
    dash = {
        "land": "",
        "sea": ' stroke-dasharray="7 5"',
        "edge": ' stroke-dasharray="2 4 9 4"',
        "air": ' stroke-dasharray="2 4"',
    }[kind]
    style = f'stroke="#555" stroke-width="2.4" fill="none"{dash}'
    if frozenset((a, b)) in STUBS:
        left, right = (a, b) if x1 < x2 else (b, a)
        (lx, ly), (rx, ry) = POS[left], POS[right]
        mark = "\u2248" if kind == "edge" else "~"
        # A label that the box itself would hide goes just below the box.
        label_y = ry - 5 if rx + BW // 2 < W - 45 else ry + BH // 2 + 13
        to_right, to_left = escape(tr(short_name(right))), escape(tr(short_name(left)))
        # the left margin holds about six letters before the first box
        squeeze = ' textLength="40" lengthAdjust="spacingAndGlyphs"' if len(to_right) > 6 else ""
        return (
            f'<path d="M{lx} {ly} L0 {ly}" {style}/><path d="M{rx} {ry} L{W} {ry}" {style}/>'
            f'<text x="2" y="{ly - 5}" font-size="10"{squeeze}>{mark}{to_right}</text>'
            f'<text x="{W - 3}" y="{label_y}" font-size="11" text-anchor="end">{mark}{to_left}</text>'
        )
    if frozenset((a, b)) in MARGIN_ROUTES:
        # Up from the northern end and down from the southern one, across the map edge.
        (nx, ny), (sx, sy) = sorted([(x1, y1), (x2, y2)], key=lambda p: p[1])
        north, south = (a, b) if y1 < y2 else (b, a)
        return (
            f'<path d="M{nx} {ny} L{nx} 0" {style}/><path d="M{sx} {sy} L{sx} {H}" {style}/>'
            f'<text x="{nx + 4}" y="12" font-size="11">\u2248{escape(tr(short_name(south)))}</text>'
            f'<text x="{sx + 4}" y="{H - 3}" font-size="11">\u2248{escape(tr(short_name(north)))}</text>'
        )
    if frozenset((a, b)) == frozenset(("ICE", "LEN")):
        c = CHANNEL_Y
        return f'<path d="M{x1} {y1} L{x1} {c} L{x2} {c} L{x2} {y2}" {style}/>'
    bend = BEND.get(frozenset((a, b)), 0)
    if bend:
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5 or 1
        cx, cy = mx - dy / length * bend, my + dx / length * bend
        return f'<path d="M{x1} {y1} Q{cx:.0f} {cy:.0f} {x2} {y2}" {style}/>'
    return f'<path d="M{x1} {y1} L{x2} {y2}" {style}/>'


def _name_label(label: str, x: int, y: int, room: int) -> str:
    """A territory's name in its box: bold, squeezed to the box where a language's name is long."""
    fit = f' textLength="{room}" lengthAdjust="spacingAndGlyphs"' if len(label) * 7.6 > room else ""
    return f'<text x="{x}" y="{y}" font-size="13" font-weight="bold"{fit}>{escape(label)}</text>'


def _territory(t: str, info: dict[str, Any], colours: dict[str, str], highlight: set[str], tr: Render) -> str:
    x, y = POS[t]
    x0, y0 = x - BW // 2, y - BH // 2
    owner = str(info.get("owner"))
    colour = colours.get(owner, "Grey")
    fill, _, letter = data.COLOUR_STYLE[colour]
    dark = colour == "Black"
    armies = int(info.get("armies", 0))
    tip = msg("board.tooltip", territory=name("territory", t), seat=name("seat", owner), colour=name("colour", colour),
              armies=msg("armies", n=armies))
    edge = ' stroke="#000" stroke-width="3.5"' if t in highlight else ' stroke="#222" stroke-width="1.2"'
    parts = [
        f'<g class="t t-{t}" data-t="{t}"><title>{escape(tr(tip))}</title>',
        f'<rect x="{x0}" y="{y0}" width="{BW}" height="{BH}" rx="6" fill="url(#pat-{colour})"{edge}/>',
        f'<rect x="{x0 + 7}" y="{y0 + 6}" width="{BW - 14}" height="{BH - 12}" rx="4" fill="#fff" fill-opacity=".92"/>',
        _name_label(tr(short_name(t)), x0 + 10, y0 + 22, BW - 20),
        f'<rect x="{x0 + 10}" y="{y0 + 30}" width="20" height="17" rx="3" fill="{fill}" stroke="#000" '
        'stroke-width=".8"/>',
        f'<text x="{x0 + 20}" y="{y0 + 43}" font-size="13" font-weight="bold" text-anchor="middle" '
        f'fill="{"#fff" if dark else "#000"}">{letter}</text>',
    ]
    n_tanks, units = tanks(armies)
    tx = x0 + 35
    shown = n_tanks if n_tanks <= 2 else 1  # room for two tanks and "+ 9" beside the owner's letter
    for i in range(shown):
        parts.append(f'<path d="M{tx + i * 15} {y0 + 46} h12 v-5 h-3 v-3 h-6 v3 h-3 z" fill="#222"/>')
    after = tx + shown * 15
    more = f"\u00d7{n_tanks}+" if n_tanks > 2 else ("+ " if n_tanks else "")
    size = 16 if n_tanks <= 2 else 14
    parts.append(f'<text x="{after + 2}" y="{y0 + 47}" font-size="{size}" font-weight="bold">{more}{units}</text>')
    parts.append("</g>")
    return "".join(parts)


def _highlight(view: dict[str, Any]) -> set[str]:
    """The territories of the pending advance, else of the last roll."""
    part = view.get("pending") or view.get("last_roll")
    return {part["from"], part["to"]} if part else set()


#: The narrow board (``view["layout"] == "compact"``): theatres one under another, two boxes a row.
CW, CBW, CBH, CGAP = 400, 194, 46, 6


def _compact_box(t: str, x: int, y: int, info: dict[str, Any], colours: dict[str, str], strong: bool,
                 tr: Render) -> str:
    owner = str(info.get("owner"))
    colour = colours.get(owner, "Grey")
    fill, _, letter = data.COLOUR_STYLE[colour]
    armies = int(info.get("armies", 0))
    tip = msg("board.tooltip", territory=name("territory", t), seat=name("seat", owner), colour=name("colour", colour),
              armies=msg("armies", n=armies))
    edge = ' stroke="#000" stroke-width="3.5"' if strong else ' stroke="#222" stroke-width="1"'
    label = tr(short_name(t))
    size = 15 if len(label) <= 12 else 13 if len(label) <= 14 else 11.5  # longer names in some languages
    return (
        f'<g class="t t-{t}" data-t="{t}"><title>{escape(tr(tip))}</title>'
        f'<rect x="{x}" y="{y}" width="{CBW}" height="{CBH}" rx="5" fill="url(#cpat-{colour})"{edge}/>'
        f'<rect x="{x + 5}" y="{y + 5}" width="{CBW - 10}" height="{CBH - 10}" rx="3" fill="#fff" fill-opacity=".93"/>'
        f'<rect x="{x + 9}" y="{y + 12}" width="22" height="22" rx="3" fill="{fill}" stroke="#000" stroke-width=".8"/>'
        f'<text x="{x + 20}" y="{y + 29}" font-size="15" font-weight="bold" text-anchor="middle" '
        f'fill="{"#fff" if colour == "Black" else "#000"}">{letter}</text>'
        f'<text x="{x + 37}" y="{y + 29}" font-size="{size}">{escape(label)}</text>'
        f'<text x="{x + CBW - 10}" y="{y + 30}" font-size="18" font-weight="bold" text-anchor="end">{armies}</text>'
        "</g>"
    )


def render_compact(view: dict[str, Any], seat: str | None, tr: Render) -> str:
    """The board for a narrow screen: each theatre a block of boxes (owner, name, armies), no links."""
    colours = {c["seat"]: c["colour"] for c in view.get("commanders", [])}
    terr = view.get("territories", {})
    strong = _highlight(view)
    body: list[str] = []
    y = 6
    for h in data.THEATRES:
        title = msg("board.theatre", theatre=name("theatre", h), bonus=data.THEATRE_BONUS[h])
        body.append(f'<text x="4" y="{y + 17}" font-size="16" font-weight="bold" fill="#334">'
                    f"{escape(tr(title))}</text>")
        y += 26
        members = [t for t in data.TERRITORIES if data.THEATRE[t] == h]
        for k, t in enumerate(members):
            x = 4 + (k % 2) * (CBW + CGAP)
            body.append(_compact_box(t, x, y + (k // 2) * (CBH + CGAP), terr.get(t, {}), colours, t in strong, tr))
        y += ((len(members) + 1) // 2) * (CBH + CGAP) + 8
    for k, c in enumerate(view.get("commanders", [])):
        item = msg("board.key", letter=data.COLOUR_STYLE[c["colour"]][2], seat=name("seat", c["seat"]),
                   colour=name("colour", c["colour"]))
        body.append(f'<text x="{4 + (k % 2) * (CBW + CGAP)}" y="{y + 16 + (k // 2) * 22}" font-size="14">'
                    f"{escape(tr(item))}</text>")
    height = y + ((len(view.get("commanders", [])) + 1) // 2) * 22 + 8
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CW} {height}" width="100%" '
        f'font-family="DejaVu Sans, Arial, sans-serif" role="img" aria-label="{escape(tr(msg("board.title")))}">',
        _patterns("cpat"),
        f'<rect width="{CW}" height="{height}" fill="#f4f7fa"/>',
        *body,
        "</svg>",
    ])


def render(view: dict[str, Any], seat: str | None, tr: Render) -> str:
    """One complete <svg> of the board for ``view``, every label rendered by ``tr``.

    ``view["layout"] == "compact"`` draws the narrow board (:func:`render_compact`) instead.
    """
    if view.get("layout") == "compact":
        return render_compact(view, seat, tr)
    colours = {c["seat"]: c["colour"] for c in view.get("commanders", [])}
    terr = view.get("territories", {})
    highlight = _highlight(view)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="100%" '
        f'font-family="DejaVu Sans, Arial, sans-serif" role="img" aria-label="{escape(tr(msg("board.title")))}">',
        _patterns(),
        f'<rect width="{W}" height="{H}" fill="#f4f7fa"/>',
    ]
    for h, (x0, y0, x1, y1) in PANELS.items():
        out.append(
            f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="10" fill="#fff" '
            'stroke="#889" stroke-width="1.2"/>'
        )
        out.append(
            f'<text x="{x0 + 8}" y="{y0 + 17}" font-size="13" font-weight="bold" fill="#334">'
            f"{escape(tr(msg('board.theatre', theatre=name('theatre', h), bonus=data.THEATRE_BONUS[h])))}</text>"
        )
    for a, b, kind in data.LINKS:
        out.append(_link(a, b, kind, tr))
    for t in data.TERRITORIES:
        out.append(_territory(t, terr.get(t, {}), colours, highlight, tr))
    x = 8  # one text per commander and one for the key, so that each is translated whole
    for c in view.get("commanders", []):
        item = msg("board.key", letter=data.COLOUR_STYLE[c["colour"]][2], seat=name("seat", c["seat"]),
                   colour=name("colour", c["colour"]))
        out.append(f'<text x="{x}" y="{H - 28}" font-size="13">{escape(tr(item))}</text>')
        x += 185  # room for the longest seat and colour names in any language
    out.append(f'<text x="8" y="{H - 8}" font-size="13">{escape(tr(msg("board.legend")))}</text>')
    out.append("</svg>")
    return "".join(out)
