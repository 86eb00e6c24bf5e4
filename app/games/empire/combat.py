"""Turn 6: combat with four FATE dice (spec §5), and the dice helpers."""

from __future__ import annotations

import random
from typing import Any

from app.games.empire.state import State, ev, name, owner, pact_covers, round_order, who
from app.games.empire.text import joined, province, troop
from app.games.text import msg

FACE = {-1: "-", 0: "0", 1: "+"}


def roll4df(rng: random.Random) -> list[int]:
    """Four FATE dice, each -1, 0 or +1 (tests script ``rng.randint``)."""
    return [rng.randint(-1, 1) for _ in range(4)]


def show(dice: list[int]) -> str:
    total = sum(dice)
    return "[" + " ".join(FACE[d] for d in dice) + f"]={total:+d}"


def _mods(heavy: int, fog: int) -> Any:
    """``+1 heavy -1 fog`` (either, both or none)."""
    return joined(([msg("combat.heavy")] if heavy else []) + ([msg("combat.fog")] if fog else []))


def _removal_key(state: State, tid: str) -> tuple[int, int]:
    t = state["troops"][tid]
    tier = (0 if t["mode"] != "DEFENCE" else 2) + (0 if t["kind"] == "S" else 1)
    return (tier, -t["num"])


def _in(state: State, seat: str, p: int) -> list[str]:
    return [t for t, v in state["troops"].items() if v["owner"] == seat and v["province"] == p]


def combat(state: State, rng: random.Random) -> list[dict[str, Any]]:
    """Resolve turn 6 in place; return the events (every roll is public)."""
    events: list[dict[str, Any]] = []
    order = round_order(state)
    for x in order:
        fog = -1 if "S11" in state["players"][x]["effects"] else 0
        # Step A: attacks
        for p in range(1, 13):
            attackers = [t for t in _in(state, x, p) if state["troops"][t]["mode"] == "ATTACK"]
            attackers.sort(key=lambda t: (state["troops"][t]["kind"] != "H", state["troops"][t]["num"]))
            dice: dict[str, list[int]] = {}
            for a in attackers:
                if a not in state["troops"]:
                    continue
                after_x = order[order.index(x) + 1:] + order[:order.index(x)]
                enemies = [y for y in after_x if _in(state, y, p) and not pact_covers(state, x, y, p)]
                if not enemies:
                    break
                tgt = state["troops"][a].get("target")
                want = next((y for y in enemies if name(state, y) == tgt), None) if tgt else None
                y = want or max(enemies, key=lambda s: (len(_in(state, s, p)), -after_x.index(s)))
                if y not in dice:
                    dice[y] = roll4df(rng)
                    events.append(ev(msg("event.defence_roll", province=province(p), seat=who(state, y),
                                         dice=show(dice[y]), attacker=who(state, x)),
                                     roll=dice[y], province=p))
                roll = roll4df(rng)
                heavy = 1 if state["troops"][a]["kind"] == "H" else 0
                atk = sum(roll) + heavy + fog
                k = sum(1 for t in _in(state, y, p) if state["troops"][t]["mode"] == "DEFENCE")
                wall = 1 if (state["provinces"][str(p)]["building"] == "WALL" and owner(state, p) == y) else 0
                morale = -1 if "S12" in state["players"][y]["effects"] else 0
                dfn = sum(dice[y]) + k + wall + morale
                net = atk - max(0, dfn)
                mods = _mods(heavy, fog)
                detail = joined([msg("combat.detail", dice=f"{sum(dice[y]):+d}", n=k)]
                                + ([msg("combat.wall")] if wall else [])
                                + ([msg("combat.low_morale")] if morale else []), "join.comma")
                if net >= 1:
                    victim = min(_in(state, y, p), key=lambda t: _removal_key(state, t))
                    del state["troops"][victim]
                    state["players"][x]["spoils"] += 1
                    result = msg("combat.removed", troop=troop(victim), seat=who(state, x))
                else:
                    result = msg("combat.no_effect")
                args = {"troop": troop(a), "seat": who(state, y), "province": province(p), "roll": show(roll),
                        "atk": atk, "dfn": dfn, "detail": detail, "net": net, "result": result}
                text = msg("event.attack_mods", mods=mods, **args) if mods else msg("event.attack", **args)
                events.append(ev(text, roll=roll, province=p))
        # Step B: conquests
        for p in range(1, 13):
            conq = [t for t in _in(state, x, p) if state["troops"][t]["mode"] == "CONQUEST"]
            ctrl = owner(state, p)
            if not conq or ctrl == x:
                continue
            if any(v["province"] == p and v["owner"] != x for v in state["troops"].values()):
                events.append(ev(msg("event.conquest_defended", seat=who(state, x), province=province(p)),
                                 province=p))
                continue
            if ctrl is not None and pact_covers(state, x, ctrl, p):
                events.append(ev(msg("event.conquest_pact", seat=who(state, x), province=province(p)),
                                 province=p))
                continue
            roll = roll4df(rng)
            heavy = 1 if any(state["troops"][t]["kind"] == "H" for t in conq) else 0
            con = sum(roll) + heavy + fog
            local = roll4df(rng)
            prov = state["provinces"][str(p)]
            bonus = ((1 if prov["building"] == "WALL" else 0) + (1 if prov["centre"] else 0)
                     + (-1 if ctrl is None else 0))
            loc = sum(local) + bonus
            net = con - max(0, loc)
            if net >= 1:
                prov["owner"] = x
                result = msg("combat.conquered", seat=who(state, x), province=province(p))
            else:
                result = msg("combat.fails")
            mods = _mods(heavy, fog)
            args = {"seat": who(state, x), "province": province(p), "roll": show(roll), "con": con,
                    "local": show(local), "bonus": f"{bonus:+d}", "loc": loc, "net": net, "result": result}
            text = msg("event.conquest_mods", mods=mods, **args) if mods else msg("event.conquest", **args)
            events.append(ev(text, roll=roll, local=local, province=p))
    return events
