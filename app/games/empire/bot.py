"""Bot players: default orders, random legal orders and a bot that plays with a plan.

``default_order`` is what the spec does for a missed window; ``random_order`` draws
random legal orders (bots, fuzzing); ``plan`` keeps a home guard, expands with
Conquest troops, attacks where enemies stand and builds toward its objectives.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.empire import data, tribute
from app.games.empire.notation import parse_line
from app.games.empire.prompts import ORDER_TYPE, build_choices, market_choices
from app.games.empire.state import (
    State,
    active,
    clone,
    controlled,
    default_loss,
    name,
    owner,
    right_of,
    troops_of,
)
from app.games.empire.windows import apply_admin, apply_answer, open_to

Line = dict[str, Any]
Order = dict[str, Any]


def default_order(state: State, seat: str) -> Order:
    """What the spec does for a missed window: nothing, or the T9 default payment."""
    kind = ORDER_TYPE[state["phase"]]
    if state["phase"] == "T9":
        return {"type": "PAY", "lines": tribute.default_lines(state, seat)}
    return {"type": kind, "lines": []}


def random_order(state: State, seat: str, rng: random.Random) -> Order:
    ph = state["phase"]
    return {"type": ORDER_TYPE[ph], "lines": RANDOM[ph](state, seat, rng)}


def _random_propose(state: State, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    res = state["players"][seat]["res"]
    others = [name(state, s) for s in active(state) if s != seat]
    lines: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 3)):
        give = [r for r in data.TRADE_GOODS if res[r] > 0]
        if not give:
            break
        g = rng.choice(give)
        w = rng.choice([r for r in data.TRADE_GOODS if r != g])
        d: dict[str, Any] = {"op": "OFFER", "give_n": rng.randint(1, min(res[g], 3)), "give": g,
                             "get_n": rng.randint(1, 3), "get": w}
        if others and rng.random() < 0.3:
            d["to"] = rng.choice(others)
        lines.append(d)
    mine = controlled(state, seat)
    if mine and others and rng.random() < 0.3:
        lines.append({"op": "PACT", "with": rng.choice(others), "province": rng.choice(mine)})
    return lines


def _random_answer(state: State, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    offers, pacts = open_to(state, seat)
    lines: list[dict[str, Any]] = []
    for o in offers:
        x = rng.random()
        if x < 0.4:
            lines.append({"op": "ACCEPT_OFFER", "id": o["id"]})
        elif x < 0.7:
            lines.append({"op": "DECLINE_OFFER", "id": o["id"]})
    for p in pacts:
        mine = controlled(state, seat)
        if mine and rng.random() < 0.5:
            lines.append({"op": "ACCEPT_PACT", "id": p["id"], "province": rng.choice(mine)})
        elif rng.random() < 0.5:
            lines.append({"op": "DECLINE_PACT", "id": p["id"]})
    scratch = clone(state)
    return [d for d in lines if not apply_answer(scratch, seat, [d])]


def _random_admin(state: State, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    scratch = clone(state)
    if rng.random() < 0.5:
        options = market_choices(state, seat)
        if options:
            choice = rng.choice(options)["value"]
            d = parse_line(choice)
            if not apply_admin(scratch, seat, [d]):
                lines.append(d)
    if rng.random() < 0.6:
        opts = [c["value"] for c in build_choices(scratch, seat) if c["value"]]
        rng.shuffle(opts)
        for value in opts[:4]:
            d = parse_line(value)
            trial = clone(state)
            if not apply_admin(trial, seat, lines + [d]):
                lines.append(d)
                break
    others = [name(state, s) for s in active(state) if s != seat]
    mine = troops_of(state, seat)
    for tid in mine:
        here = state["troops"][tid]["province"]
        if rng.random() < 0.5:
            lines.append({"op": "MOVE", "troop": tid, "province": rng.choice(data.PROVINCES[here]["adj"])})
        if rng.random() < 0.5:
            mode = rng.choice(data.MODES)
            d = {"op": "MODE", "troop": tid, "mode": mode}
            if mode == "ATTACK" and others and rng.random() < 0.3:
                d["target"] = rng.choice(others)
            lines.append(d)
    if mine and rng.random() < 0.2:
        lines.append({"op": "LOSSES", "troops": rng.sample(mine, min(len(mine), rng.randint(1, 3)))})
    return lines


def _random_lose(state: State, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    if rng.random() < 0.3:
        return []
    chooser = state["phase"] == "T7B"
    victim = state["choosers"][seat] if chooser else seat
    ids = rng.sample(troops_of(state, victim), state["maint"][victim])
    if chooser:
        return [{"op": "LOSE_FOR", "player": name(state, victim), "troops": ids}]
    return [{"op": "LOSE", "troops": ids}]


def _random_route(state: State, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    pop = state["players"][seat]["res"]["POP"]
    lines: list[dict[str, Any]] = []
    n = rng.randint(0, pop)
    g = rng.randint(0, n)
    if g:
        lines.append({"op": "ROUTE_GOLD", "n": g})
    room = data.MAX_SIMPLE - len(troops_of(state, seat, kind="S"))
    provs = controlled(state, seat)
    t = min(n - g, room)
    if t and provs:
        lines.append({"op": "ROUTE_TROOPS", "n": t, "province": rng.choice(provs)})
    if rng.random() < 0.3:
        lines.append({"op": "TRIBUTE_FREE", "res": rng.choice(data.RESOURCES)})
    if rng.random() < 0.3:
        lines.append({"op": "TRIBUTE_SIMPLE", "res": [rng.choice(data.SIMPLE), rng.choice(data.SIMPLE)]})
    return lines


def _random_pay(state: State, seat: str, rng: random.Random) -> list[dict[str, Any]]:
    res = dict(state["players"][seat]["res"])
    out = []
    for _ in range(state["pay_window"][seat]):
        form = list(rng.choice(tribute.options(res, state["tribute"])[1]))
        rng.shuffle(form)
        for r in form:
            res[r] -= 1
        out.append({"op": "PAY", "res": form})
    return out


RANDOM = {"T3A": _random_propose, "T3B": _random_answer, "T4": _random_admin, "T7A": _random_lose, "T7B": _random_lose,
          "T8": _random_route, "T9": _random_pay}


# ------------------------------------------------------------------ the planning bot


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
