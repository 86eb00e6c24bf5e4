"""Prompts and views (rules spec §5.2, §8).

Nothing in the state is private to one seat: both areas, the revealed tile and
marker, stack sizes and the multiset of unrevealed pieces are public; the
stack order and the 3 boxed tiles are hidden from everyone until the end; a
seat's sealed order lives on the platform, not in the state.
"""

from __future__ import annotations

from typing import Any

from app.games.duel import data
from app.games.duel.geometry import FACES, TILES, cell_key, key_cell
from app.games.duel.notation import format_order
from app.games.duel.placement import grid_of, legal_placements, measure, score
from app.games.duel.text import (
    alternatives,
    edge_runs,
    marker,
    markers,
    seat_name,
    semicolons,
    tile_name,
    tile_text,
)
from app.games.text import Msg, listing, msg, name


def candidates(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """Numbered candidate positions for ``seat`` now, each with its legal rotations."""
    cur = state.get("current")
    if state.get("over") or not cur or seat in state["passing"] or seat not in state["areas"]:
        return []
    by_cell: dict[str, list[int]] = {}
    for cell, k in legal_placements(grid_of(state["areas"][seat]), cur["tile"], cur["marker"]):
        by_cell.setdefault(cell_key(cell), []).append(k)
    return [
        {"n": i, "q": key_cell(key)[0], "r": key_cell(key)[1], "position": key, "rotations": rots,
         "label": _position_label(i, key_cell(key), rots)}
        for i, (key, rots) in enumerate(by_cell.items(), start=1)
    ]


def _position_label(n: int, cell: tuple[int, int], rots: list[int]) -> Msg:
    """``3: (1,-1) rotation 0 or 4`` (``rotation any`` when all six fit)."""
    q, r = cell
    if len(rots) == 6:
        return msg("choice.position_any", n=n, q=q, r=r)
    return msg("choice.position", n=n, q=q, r=r, rots=alternatives(rots))


def prompt(state: dict[str, Any], seat: str) -> dict[str, Any]:
    """The "place" prompt for ``seat``: the numbered positions, then the rotations legal at each.

    The rotation field depends on the position (``depends_on``): each rotation lists in
    ``when`` the positions where it is legal, so a form offers only legal placements.
    Everything here is public (the seat's own area and the revealed tile).
    """
    cur = state["current"]
    cands = candidates(state, seat)
    first = cands[0]
    example = format_order(
        {
            "type": "PLACE",
            "tile": cur["tile"],
            "position": first["position"],
            "rotation": first["rotations"][0],
        }
    )
    faces = FACES[cur["tile"]]
    hours = int(state["options"].get("deadline_hours", data.DEADLINE_HOURS))
    tile = tile_name(cur["tile"])
    when = {k: [c["position"] for c in cands if k in c["rotations"]] for k in range(6)}
    return {
        "kind": "place",
        "title": (
            msg("prompt.place.title_marker", turn=state["turn"], tile=tile, marker=marker(cur["marker"]))
            if cur["marker"]
            else msg("prompt.place.title", turn=state["turn"], tile=tile)
        ),
        "text": msg("prompt.place.text", tile=tile_text(cur["tile"], cur["marker"])),
        "example": example,
        "seconds": hours * 3600,
        "forms": [
            {
                "label": msg("form.place"),
                "base": {"type": "PLACE", "tile": cur["tile"]},
                "fields": [
                    {
                        "name": "position",
                        "label": msg("field.position"),
                        "type": "choice",
                        "choices": [
                            {"value": c["position"], "label": msg("choice.place", n=c["n"], q=c["q"], r=c["r"])}
                            for c in cands
                        ],
                    },
                    {
                        "name": "rotation",
                        "label": msg("field.rotation"),
                        "type": "choice",
                        "depends_on": "position",
                        "choices": [
                            {"value": k, "when": when[k],
                             "label": msg("choice.rotation_named", k=k, edges=edge_runs(faces[k].facing))}
                            for k in range(6) if when[k]
                        ],
                    },
                ],
            }
        ],
    }


def _area_view(area: dict[str, Any]) -> dict[str, Any]:
    grid = grid_of(area)
    cells = [
        {"q": key_cell(k)[0], "r": key_cell(k)[1], "tile": v["tile"], "rot": v["rot"], "turn": v["turn"]}
        for k, v in area["cells"].items()
    ]
    active = []
    for e in area["active"]:
        m = measure(grid, key_cell(e["cell"]), e["marker"])
        if "halves" in m:
            a, b = (
                msg("now.half_dead" if h["dead"] else "now.half", terrain=name("terrain", h["terrain"]), n=h["n"])
                for h in m["halves"]
            )
            now = msg("now.double", a=a, b=b)
        elif "c" in m:
            now = msg("now.neighbours", n=m["c"])
        else:
            now = msg("now.tiles_closed" if m["closed"] else "now.tiles", n=m["n"])
        active.append({"marker": e["marker"], "cell": e["cell"], "now": now, "name": marker(e["marker"])})
    return {
        "cells": cells,
        "active": active,
        "completed": list(area["completed"]),
        "cancelled": list(area["cancelled"]),
        "passed": list(area["passed"]),
        "boxed_markers": list(area["boxed_markers"]),
        "finished": [dict(e) for e in area.get("finished", [])],
        "auto_run": area["auto_run"],
        "score": score(area),
        # display strings (messages, rendered by the game_text filter)
        "active_text": semicolons(
            [msg("page.active_task", marker=e["name"], cell=e["cell"], now=e["now"]) for e in active]
        ) if active else msg("page.none"),
        "completed_text": markers(area["completed"]),
        "cancelled_text": markers(area["cancelled"]),
        "passed_text": listing(tile_name(t) for t in area["passed"]),
    }


def _numbers(tiles: list[str]) -> Any:
    """Tile ids as their numbers, in order (``["L03", "L17"]`` -> "3, 17"); "none" when empty."""
    return listing(int(t[1:]) for t in sorted(tiles)) if tiles else msg("page.none")


def _last_text(last: dict[str, Any]) -> Msg:
    """A seat's last placement in words."""
    if last.get("pass"):
        return msg("page.last_passed")
    text = msg("page.last_placed", tile=tile_name(last["tile"]), cell=last["cell"], rot=last["rot"])
    return msg("page.last_auto", text=text) if last.get("auto") else text


def view(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """Everything ``seat`` may see (all of it public, see the module docstring)."""
    cur = state.get("current")
    markers_left = sorted(m for pile in state["piles"].values() for m in pile)
    out: dict[str, Any] = {
        "seats": list(state["seats"]),
        "seat": seat,
        "turn": state["turn"],
        "over": bool(state.get("over")),
        "current": None,
        "passing": list(state.get("passing", [])),
        "forfeited": list(state.get("forfeited", [])),
        "areas": {s: _area_view(state["areas"][s]) for s in state["seats"]},
        "last": dict(state.get("last", {})),
        "stacks": {
            "landscape": len(state["land_stack"]),
            "task": len(state["task_stack"]),
            "box": len(state["box"]),
            "markers": {code: len(p) for code, p in state["piles"].items()},
        },
        "unrevealed": {
            "landscape": sorted(state["land_stack"] + state["box"]),
            "task": sorted(state["task_stack"]),
            "markers": markers_left,
        },
        "candidates": [],
        "seat_names": {s: seat_name(s) for s in state["seats"]},
        "passing_text": listing(seat_name(s) for s in state.get("passing", [])),
        "forfeited_text": listing(seat_name(s) for s in state.get("forfeited", [])),
        "unrevealed_text": markers(markers_left),
        # tile numbers by kind, in words: "landscape tiles 1, 4, 9"
        "unrevealed_land_text": _numbers(state["land_stack"] + state["box"]),
        "unrevealed_task_text": _numbers(state["task_stack"]),
        "last_text": {s: _last_text(v) for s, v in state.get("last", {}).items() if v},
        "stacks_text": msg(
            "page.stacks",
            land=msg("count.landscape", n=len(state["land_stack"])),
            task=msg("count.task", n=len(state["task_stack"])),
            box=len(state["box"]),
        ),
    }
    if cur:
        t = TILES[cur["tile"]]
        out["current"] = {
            "tile": cur["tile"],
            "marker": cur["marker"],
            "task": t.task,
            "text": tile_text(cur["tile"], cur["marker"]),
            "name": tile_name(cur["tile"]),
            "marker_name": marker(cur["marker"]) if cur["marker"] else None,
            "facings": [FACES[cur["tile"]][k].facing for k in range(6)],
            "faces_text": semicolons(
                [msg("choice.rotation_named", k=k, edges=edge_runs(FACES[cur["tile"]][k].facing)) for k in range(6)]
            ),
        }
    if seat is not None and seat in state["seats"]:
        out["candidates"] = candidates(state, seat)
    if state.get("over"):
        out["final"] = state.get("final")
        # Revealed after scoring together with the seed (§8).
        out["hidden_revealed"] = {
            "box": list(state["box"]),
            "box_text": listing(tile_name(t) for t in state["box"]),
            "land_text": listing(int(t[1:]) for t in state["land_stack"]) if state["land_stack"] else msg("page.empty"),
            "task_text": listing(int(t[1:]) for t in state["task_stack"]) if state["task_stack"] else msg("page.empty"),
            "land_stack": list(state["land_stack"]),
            "task_stack": list(state["task_stack"]),
            "piles": {k: list(v) for k, v in state["piles"].items()},
        }
    return out
