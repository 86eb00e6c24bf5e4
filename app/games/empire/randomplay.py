"""Random legal orders for Empire (bots, fuzzing): each window's lines drawn with ``rng``."""

from __future__ import annotations

import random
from typing import Any

from app.games.empire import data, tribute
from app.games.empire.notation import parse_line
from app.games.empire.prompts import ORDER_TYPE, build_choices, market_choices
from app.games.empire.state import State, active, clone, controlled, name, troops_of
from app.games.empire.windows import apply_admin, apply_answer, open_to

Order = dict[str, Any]


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
