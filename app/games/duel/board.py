"""SVG drawing of both player areas, readable in black-and-white print.

Terrains carry a pattern as well as a colour (forest: tree dots, grain:
hatching, village: house blocks, meadow: plain pale); rails are black lines
with cross ties, rivers are double blue lines.  Task markers show their type
and value with their state (open: white disc, done: tick, cancelled: cross),
flags show the scoring-pad letter (A green, B yellow, C red).
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from app.games.duel.geometry import FACES, TILES
from app.games.duel.text import TEXT, edge_runs, seat_name, tile_name
from app.games.text import Render, msg, name

S = 24.0  # hex radius
R3 = math.sqrt(3)

FILL = {
    "F": "url(#duel-F)",
    "G": "url(#duel-G)",
    "V": "url(#duel-V)",
    "M": "#dcefc8",
    "R": "#ecebe4",
    "W": "#ecebe4",
}
FLAG_FILL = {"F": "#2e7d32", "G": "#f2c200", "V": "#c62828"}
FLAG_LETTER = {"F": "A", "G": "B", "V": "C"}

DEFS = """<defs>
<pattern id="duel-F" width="8" height="8" patternUnits="userSpaceOnUse">
<rect width="8" height="8" fill="#6fae5a"/><circle cx="4" cy="4" r="2" fill="#1f4d1a"/></pattern>
<pattern id="duel-G" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="6" height="6" fill="#f3dc7a"/>
<line x1="0" y1="0" x2="0" y2="6" stroke="#8a6d00" stroke-width="1.2"/></pattern>
<pattern id="duel-V" width="8" height="8" patternUnits="userSpaceOnUse">
<rect width="8" height="8" fill="#e49a84"/><rect x="1.5" y="2" width="4" height="4" fill="#6d1f12"/></pattern>
</defs>"""


def center(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of cell (q, r) (y grows downward, §2.1)."""
    return 1.5 * S * q, R3 * S * (r + q / 2)


def _corner(x: float, y: float, i: int, s: float) -> tuple[float, float]:
    a = math.radians(60 * i)
    return x + s * math.cos(a), y + s * math.sin(a)


def _edge_corners(x: float, y: float, d: int, s: float) -> tuple[tuple[float, float], tuple[float, float]]:
    # Edge d (N=0 ... NW=5) runs between the corners at 240+60d and 300+60d degrees.
    return _corner(x, y, 4 + d, s), _corner(x, y, 5 + d, s)


def _pts(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)


def hex_points(x: float, y: float, s: float = S) -> str:
    return _pts([_corner(x, y, i, s) for i in range(6)])


def tile_svg(tile: str, rot: int, x: float, y: float, s: float = S) -> list[str]:
    """The SVG elements of one tile face centred at (x, y)."""
    f = FACES[tile][rot]
    out = []
    for d in range(6):
        a, b = _edge_corners(x, y, d, s)
        out.append(f'<polygon points="{_pts([(x, y), a, b])}" fill="{FILL[f.facing[d]]}" stroke="none"/>')
    for line in ("W", "R"):
        for d in range(6):
            if f.facing[d] != line:
                continue
            a, b = _edge_corners(x, y, d, s)
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            seg = f'x1="{x:.1f}" y1="{y:.1f}" x2="{mx:.1f}" y2="{my:.1f}"'
            if line == "W":
                out.append(f'<line {seg} stroke="#1e5bbf" stroke-width="{s * 0.28:.1f}" stroke-linecap="round"/>')
                out.append(f'<line {seg} stroke="#ffffff" stroke-width="{s * 0.08:.1f}"/>')
            else:
                out.append(f'<line {seg} stroke="#111" stroke-width="{s * 0.3:.1f}" stroke-dasharray="1.5 2.5"/>')
                out.append(f'<line {seg} stroke="#111" stroke-width="{s * 0.1:.1f}"/>')
    out.append(f'<polygon points="{hex_points(x, y, s)}" fill="none" stroke="#333" stroke-width="0.8"/>')
    t = TILES[tile]
    if t.flag is not None:
        terrain = t.segments[t.flag][0]
        dirs = f.seg_dirs[t.flag]
        d = dirs[len(dirs) // 2]
        a, b = _edge_corners(x, y, d, s)
        fx, fy = x + 0.55 * ((a[0] + b[0]) / 2 - x), y + 0.55 * ((a[1] + b[1]) / 2 - y)
        out.append(
            f'<line x1="{fx:.1f}" y1="{fy + 7:.1f}" x2="{fx:.1f}" y2="{fy - 10:.1f}" stroke="#000" stroke-width="1.3"/>'
        )
        out.append(
            f'<polygon points="{_pts([(fx, fy - 10), (fx + 12, fy - 6), (fx, fy - 2)])}" '
            f'fill="{FLAG_FILL[terrain]}" stroke="#000" stroke-width="0.8"/>'
        )
        out.append(
            f'<text x="{fx + 1.5:.1f}" y="{fy - 3.8:.1f}" font-size="6.5" font-weight="bold" fill="#fff" '
            f'stroke="#000" stroke-width="0.3">{FLAG_LETTER[terrain]}</text>'
        )
    return out


def _marker(x: float, y: float, marker: str, status: str, tr: Render) -> list[str]:
    code, value = marker.split("-")
    code = tr(name("abbr", code))
    fill = {"open": "#ffffff", "done": "#d9d9d9", "cancelled": "#ffffff"}[status]
    out = [
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="11" fill="{fill}" stroke="#000" stroke-width="1.2"'
        + (' stroke-dasharray="2 1.5"' if status == "cancelled" else "")
        + "/>",
        f'<text x="{x:.1f}" y="{y - 1.5:.1f}" font-size="6.5" text-anchor="middle">{escape(code)}</text>',
        f'<text x="{x:.1f}" y="{y + 7:.1f}" font-size="9" font-weight="bold" '
        f'text-anchor="middle">{escape(value)}</text>',
    ]
    if status == "done":
        out.append(f'<path d="M{x + 5:.1f},{y - 11:.1f} l3,3 l6,-7" stroke="#000" stroke-width="1.8" fill="none"/>')
    elif status == "cancelled":
        out.append(
            f'<path d="M{x - 10:.1f},{y - 10:.1f} L{x + 10:.1f},{y + 10:.1f} M{x + 10:.1f},{y - 10:.1f} '
            f'L{x - 10:.1f},{y + 10:.1f}" stroke="#000" stroke-width="1.4"/>'
        )
    return out


def _bounds(cells: list[tuple[int, int]]) -> tuple[float, float, float, float]:
    pts = [center(q, r) for q, r in cells] or [(0.0, 0.0)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs) - S * 1.2, min(ys) - S * 1.1, max(xs) + S * 1.2, max(ys) + S * 1.1


def area_svg(
    area: dict[str, Any],
    title: str,
    ox: float,
    oy: float,
    candidates: list[dict[str, Any]],
    last: dict[str, Any] | None,
    tr: Render = TEXT.english,
    link: bool = False,
    ghost: dict[str, Any] | None = None,
) -> tuple[list[str], float, float]:
    """Draw one area with its top-left at (ox, oy); return elements, width, height.

    ``link``: each numbered candidate is a link choosing it (``?at=q,r``, no script needed);
    ``ghost``: ``{"tile", "pos", "rot"}`` draws the revealed tile placed at that candidate
    (every rotation is drawn, only ``rot`` shown, so that a script may switch them).
    """
    cells = [(c["q"], c["r"]) for c in area["cells"]] + [(c["q"], c["r"]) for c in candidates]
    x0, y0, x1, y1 = _bounds(cells)
    dx, dy = ox - x0, oy - y0 + 16
    out = [f'<text x="{ox:.1f}" y="{oy + 11:.1f}" font-size="11" font-weight="bold">{escape(title)}</text>']
    for c in area["cells"]:
        x, y = center(c["q"], c["r"])
        tip = tr(msg("board.cell", tile=tile_name(c["tile"]), code=c["tile"], q=c["q"], r=c["r"], rot=c["rot"]))
        out.append(f"<g><title>{escape(tip)}</title>")
        out.extend(tile_svg(c["tile"], c["rot"], x + dx, y + dy))
        out.append("</g>")
    if last and last.get("cell"):
        q, r = (int(v) for v in last["cell"].split(","))
        x, y = center(q, r)
        out.append(
            f'<polygon points="{hex_points(x + dx, y + dy, S - 1.5)}" fill="none" stroke="#000" stroke-width="2.2"/>'
        )
    for e in area["active"]:
        q, r = (int(v) for v in e["cell"].split(","))
        x, y = center(q, r)
        out.extend(_marker(x + dx, y + dy, e["marker"], "open", tr))
    for e in area.get("finished", []):
        q, r = (int(v) for v in e["cell"].split(","))
        x, y = center(q, r)
        out.extend(_marker(x + dx, y + dy, e["marker"], e["status"], tr))
    for c in candidates:
        x, y = center(c["q"], c["r"])
        pos = escape(f"{c['q']},{c['r']}")
        shape = (
            f'<polygon points="{hex_points(x + dx, y + dy, S - 2)}" fill="#ffffff" fill-opacity="0.6" '
            f'stroke="#000" stroke-width="1.2" stroke-dasharray="3 2"/>'
            f'<text x="{x + dx:.1f}" y="{y + dy + 5:.1f}" font-size="14" font-weight="bold" '
            f'text-anchor="middle">{c["n"]}</text>'
        )
        if link:
            shape = f'<a href="?at={pos}#duel-place">{shape}</a>'
        out.append(
            f'<g class="duel-cand" data-pos="{pos}" data-n="{c["n"]}" '
            f'data-x="{x + dx:.1f}" data-y="{y + dy:.1f}">{shape}</g>'
        )
    if ghost:
        out.extend(_ghost(ghost, candidates, dx, dy, tr))
    return out, x1 - x0, y1 - y0 + 16


def _ghost(ghost: dict[str, Any], candidates: list[dict[str, Any]], dx: float, dy: float,
           tr: Render) -> list[str]:
    """The revealed tile drawn at a chosen candidate position (the form's preview)."""
    at = next((c for c in candidates if c["position"] == ghost.get("pos")), None)
    x, y = center(at["q"], at["r"]) if at else (0.0, 0.0)
    out = [f'<g id="duel-ghost" pointer-events="none" transform="translate({x + dx:.1f} {y + dy:.1f})"'
           + ("" if at else ' display="none"') + ">"
           f"<title>{escape(tr(msg('board.here')))}</title>"]
    for k in range(6):
        shown = "inline" if k == ghost.get("rot") else "none"
        out.append(f'<g class="duel-ghost-rot" data-rot="{k}" display="{shown}">')
        out.extend(tile_svg(str(ghost["tile"]), k, 0, 0))
        out.append("</g>")
    out.append(f'<polygon points="{hex_points(0, 0, S - 1)}" fill="none" stroke="#c00000" stroke-width="3"/></g>')
    return out


def legend(x: float, y: float, tr: Render = TEXT.english) -> list[str]:
    out = []
    lx = x
    for t in "FGVMRW":
        label = tr(name("terrain", t))
        if t in "RW":
            stroke = "#111" if t == "R" else "#1e5bbf"
            dash = ' stroke-dasharray="1.5 2.5"' if t == "R" else ""
            out.append(
                f'<line x1="{lx:.1f}" y1="{y + 5:.1f}" x2="{lx + 14:.1f}" y2="{y + 5:.1f}" '
                f'stroke="{stroke}" stroke-width="5"{dash}/>'
            )
        else:
            out.append(f'<rect x="{lx:.1f}" y="{y:.1f}" width="14" height="10" fill="{FILL[t]}" stroke="#333"/>')
        out.append(f'<text x="{lx + 17:.1f}" y="{y + 9:.1f}" font-size="8">{escape(label)}</text>')
        lx += max(50.0, 17 + 5.2 * len(label) + 8)  # room for a longer (translated) label
    out.append(f'<text x="{x:.1f}" y="{y + 22:.1f}" font-size="7">{escape(tr(msg("board.legend")))}</text>')
    return out


def preview_svg(tile: str, rot: int, tr: Render = TEXT.english) -> str:
    """One tile at one rotation (the form's previews; the page writes the caption beside it)."""
    body = tile_svg(tile, rot, 30, 28)
    label = tr(msg("choice.rotation_named", k=rot, edges=edge_runs(FACES[tile][rot].facing)))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="2 2 56 52" role="img" '
        f'aria-label="{escape(label)}"><title>{escape(label)}</title>{DEFS}{"".join(body)}</svg>'
    )


def board_svg(view: dict[str, Any], seat: str | None, tr: Render = TEXT.english) -> str:
    """Both areas (the viewer's first), with legend; or one tile when ``view`` is
    ``{"preview": {"tile": id, "rot": k}}`` (used by the form's rotation previews).

    Optional keys of ``view``: ``"legend": False`` leaves the legend out (the page writes it
    in HTML); ``"links": True`` makes the numbered positions links; ``"ghost"``: the
    revealed tile drawn at a chosen position (see ``area_svg``).  A drawing of one area
    (``"seats": [s]``) is kept from growing past twice its natural size; ``--zoom-w`` (CSS) is
    its full size, 1.5 times its natural one, where a page lets a player zoom in.
    """
    if "preview" in view:
        return preview_svg(str(view["preview"]["tile"]), int(view["preview"]["rot"]), tr)
    seats = list(view["seats"])
    if seat in seats:
        seats.remove(seat)
        seats.insert(0, seat)
    parts: list[str] = []
    x, height = 6.0, 0.0
    for s in seats:
        area = view["areas"][s]
        sc = area["score"]["total"]
        kind = "board.title_you" if s == seat else ("board.title_opponent" if seat in view["seats"] else "board.title")
        title = tr(msg(kind, seat=seat_name(s), points=sc, active=len(area["active"])))
        cands = view.get("candidates", []) if s == seat else []
        elems, w, h = area_svg(area, title, x, 4, cands, view.get("last", {}).get(s), tr,
                               link=bool(view.get("links")), ghost=view.get("ghost") if s == seat else None)
        parts.extend(elems)
        x += max(w, 200, 6.5 * len(title)) + 14  # room for the title, translated ones too
        height = max(height, h)
    with_legend = view.get("legend", True)
    if with_legend:
        parts.extend(legend(6, height + 10, tr))
    width, total_h = (max(x, 380), height + 38) if with_legend else (x, height + 6)
    label = escape(tr(msg("board.areas")))
    # one area: at most twice its natural size when fitted to the width; 1.5 times it when zoomed in
    style = f' style="max-width: {width * 2:.0f}px; --zoom-w: {width * 1.5:.0f}px"' if len(seats) == 1 else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {total_h:.0f}"{style} '
        f'font-family="sans-serif" role="img" aria-label="{label}">{DEFS}{"".join(parts)}</svg>'
    )
