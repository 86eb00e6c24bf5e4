"""A simple bot that plays with a plan: keep a home guard, expand with
Conquest troops, attack where enemies stand, build toward its objectives."""

from __future__ import annotations

import random
from typing import Any

from app.games.empire import data, tribute
from app.games.empire.prompts import ORDER_TYPE
from app.games.empire.state import (
    State,
    active,
    controlled,
    default_loss,
    name,
    owner,
    right_of,
    troops_of,
)
from app.games.empire.windows import open_to

Line = dict[str, Any]


def _home(state: State, seat: str) -> int | None:
    home = data.HOME[state["colour"][seat]]
    if owner(state, home) == seat:
        return home
    mine = controlled(state, seat)
    return mine[0] if mine else None


def _propose(state: State, seat: str, rng: random.Random) -> list[Line]:
    res = state["players"][seat]["res"]
    lines: list[Line] = []
    surplus = max(data.SIMPLE, key=lambda r: res[r])
    lacking = min(data.SIMPLE, key=lambda r: res[r])
    if res[surplus] >= 5 and res[lacking] == 0:
        lines.append({"op": "OFFER", "give_n": 2, "give": surplus, "get_n": 1, "get": lacking})
    home = _home(state, seat)
    right = right_of(state, seat)
    if home is not None and right != seat:
        lines.append({"op": "PACT", "with": name(state, right), "province": home})
    return lines


def _answer(state: State, seat: str, rng: random.Random) -> list[Line]:
    res = state["players"][seat]["res"]
    offers, pacts = open_to(state, seat)
    lines: list[Line] = []
    for o in offers:
        if res[o["get"]] >= o["get_n"] + 3 and res[o["give"]] < 3:
            lines.append({"op": "ACCEPT_OFFER", "id": o["id"]})
            res = dict(res, **{o["get"]: res[o["get"]] - o["get_n"]})
    home = _home(state, seat)
    for p in pacts:
        if home is not None:
            lines.append({"op": "ACCEPT_PACT", "id": p["id"], "province": home})
    return lines


def _wanted_build(state: State, seat: str) -> tuple[str, int] | None:
    objs = state["players"][seat]["objectives"]
    home = _home(state, seat)
    mine = controlled(state, seat)
    free = [p for p in mine if not state["provinces"][str(p)]["building"]]
    order = ["HEAVY"] if "O7" in objs else []
    order += ["WALL"] if "O2" in objs else []
    order += ["INF"] if "O3" in objs else []
    order += ["INF", "HEAVY", "WALL"]
    for what in order:
        if what == "HEAVY" and home is not None and len(troops_of(state, seat, kind="H")) < data.MAX_HEAVY:
            return what, home
        spots = [p for p in free if not (what == "INF" and p in data.NO_INF)]
        if what != "HEAVY" and spots:
            return what, (home if home in spots else spots[0])
    return None


def _admin(state: State, seat: str, rng: random.Random) -> list[Line]:
    res = dict(state["players"][seat]["res"])
    lines: list[Line] = []
    want = _wanted_build(state, seat)
    if want:
        cost = data.BUILD_COST[want[0]]
        missing = {r: n - res[r] for r, n in cost.items() if res[r] < n}
        if len(missing) == 1:
            r, m = next(iter(missing.items()))
            gold = (m + 1) // 2
            if res["GOLD"] >= gold + 1:
                lines.append({"op": "MARKET", "side": "BUY", "res": r, "n": gold})
                res["GOLD"] -= gold
                res[r] += 2 * gold
                missing = {}
        if not missing:
            lines.append({"op": "BUILD", "what": want[0], "province": want[1]})
    home = _home(state, seat)
    mine = troops_of(state, seat)
    guard = next((t for t in mine if state["troops"][t]["province"] == home), None)
    for tid in mine:
        t = state["troops"][tid]
        here = t["province"]
        enemies = any(v["province"] == here and v["owner"] != seat for v in state["troops"].values())
        mode = "DEFENCE"
        if tid == guard:
            mode = "DEFENCE"
        elif enemies:
            mode = "ATTACK"
        elif owner(state, here) != seat:
            mode = "CONQUEST"
        else:
            targets = [p for p in data.PROVINCES[here]["adj"] if owner(state, p) != seat]
            if targets:
                dest = rng.choice(targets)
                lines.append({"op": "MOVE", "troop": tid, "province": dest})
                busy = any(v["province"] == dest and v["owner"] != seat for v in state["troops"].values())
                mode = "ATTACK" if busy else "CONQUEST"
        if mode != t["mode"] or t.get("target"):
            lines.append({"op": "MODE", "troop": tid, "mode": mode})
    return lines


def _lose(state: State, seat: str, rng: random.Random) -> list[Line]:
    chooser = state["phase"] == "T7B"
    victim = state["choosers"][seat] if chooser else seat
    need = state["maint"][victim]
    if chooser:
        ids = sorted(troops_of(state, victim), key=lambda t: state["troops"][t]["kind"] != "H")[:need]
        return [{"op": "LOSE_FOR", "player": name(state, victim), "troops": ids}]
    scratch = {"troops": dict(state["troops"])}
    ids = []
    for _ in range(need):
        tid = default_loss(scratch, victim)
        if tid is None:
            break
        ids.append(tid)
        del scratch["troops"][tid]
    return [{"op": "LOSE", "troops": ids}]


def _route(state: State, seat: str, rng: random.Random) -> list[Line]:
    res = state["players"][seat]["res"]
    pop = res["POP"]
    lines: list[Line] = []
    home = _home(state, seat)
    room = data.MAX_SIMPLE - len(troops_of(state, seat, kind="S"))
    troops = min((pop + 1) // 2, room) if len(troops_of(state, seat)) < 10 and home else 0
    if troops:
        lines.append({"op": "ROUTE_TROOPS", "n": troops, "province": home})
    if pop - troops:
        lines.append({"op": "ROUTE_GOLD", "n": pop - troops})
    most = sorted(data.SIMPLE_TIE_ORDER, key=lambda r: -res[r])
    lines.append({"op": "TRIBUTE_FREE", "res": most[0]})
    lines.append({"op": "TRIBUTE_SIMPLE", "res": [most[0], most[0] if res[most[0]] >= 2 else most[1]]})
    return lines


def _pay(state: State, seat: str, rng: random.Random) -> list[Line]:
    return tribute.default_lines(state, seat)


PLANS = {"T3A": _propose, "T3B": _answer, "T4": _admin, "T7A": _lose, "T7B": _lose,
         "T8": _route, "T9": _pay}


def plan(state: State, seat: str, rng: random.Random) -> dict[str, Any]:
    """The bot's order (callers check it and fall back to the default)."""
    ph = state["phase"]
    if seat not in active(state) or ph not in PLANS:
        return {"type": "PASS", "lines": []}
    return {"type": ORDER_TYPE[ph], "lines": PLANS[ph](state, seat, rng)}
