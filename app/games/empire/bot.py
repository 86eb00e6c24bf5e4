"""Empire's bots: default orders, random legal orders and a bot that plays with a plan.

``default_order`` is what the spec does for a missed window; ``random_order`` draws
random legal orders (``randomplay``); ``plan`` is the planning bot, whose reasoning reads
as a list of rules of thumb, one function each:

- *pay the upkeep first*: it keeps the Gold its troops cost at Maintenance (turn 7) through
  the market and its builds, sells surplus goods for Gold when short, buys Food for a hungry
  population, and routes population into troops only as far as next round's Gold will pay
  for them (``affordable_recruits``), raised nearest an objective's goal; a standing LOSSES
  order names the troops to give up first;
- *the build before the margin*: the market's one deal a round buys the good a build lacks
  most before Food kept only as a margin, and before the population's Food when that buy
  completes the build this turn (``build_before_bread``);
- *diplomacy* (``bot_deals``): trade surplus for need, only hard bargains (one for three)
  while Guild master is in play, starve a rival near the Guild master's goal, pacts only
  against a threat and none for a usurper;
- *march on*: a home guard in Defence, the other troops move toward provinces it does not
  control, in Conquest where nobody stands and in Attack where enemies stand;
- *build toward its objectives* (Walls for O2, Infrastructure for O3, heavy troops for O1, O4,
  O5, O7 and O8, raised nearest the objective's goal: a heavy troop adds 1 to a conquest roll);
- *a conqueror first*: a realm of two provinces or fewer with no heavy troop builds one whatever
  its objective, buying its goods without the build margin (``conqueror_first``);
- *a builder's thin margin*: with O2 or O3, one Gold is kept over the upkeep, not two, so that
  its Gold buys its builds' goods (``gold_margin``).
"""

from __future__ import annotations

import random
from typing import Any

from app.games.empire import bot_deals, data, randomplay, tribute
from app.games.empire.bot_march import conqueror_first, home_of, march_on, nearest_to_goal, wanted_build
from app.games.empire.prompts import ORDER_TYPE
from app.games.empire.state import (
    State,
    active,
    controlled,
    default_loss,
    name,
    troops_of,
)

Line = dict[str, Any]
Order = dict[str, Any]


def default_order(state: State, seat: str) -> Order:
    """What the spec does for a missed window: nothing, or the T9 default payment."""
    kind = ORDER_TYPE[state["phase"]]
    if state["phase"] == "T9":
        return {"type": "PAY", "lines": tribute.default_lines(state, seat)}
    return {"type": kind, "lines": []}


def random_order(state: State, seat: str, rng: random.Random) -> Order:
    """Random legal lines for the open window."""
    return randomplay.random_order(state, seat, rng)


# ------------------------------------------------------------------ the planning bot

#: Gold kept beyond the upkeep through turn 4: Embezzlement (S05) takes 2.
GOLD_MARGIN = 2
#: A builder's margin (Walls for O2, Infrastructure for O3): its Gold buys the goods of its builds.
BUILDER_MARGIN = 1
#: Objectives won by builds, not by troops.
BUILDERS = {"O2", "O3"}
#: Gold kept beyond that when buying a build's goods: Soldiers' arrears (S16) cost 2 more.
BUILD_MARGIN = 1
#: Food kept beyond the population's: Blight (S01) and Bandits (S07) take some.
FOOD_MARGIN = 1
#: Food bought up to beyond the population's: Harsh winter (S15) asks 2 more.
FOOD_STOCK = 3


def gold_margin(state: State, seat: str) -> int:
    """Gold kept beyond the upkeep: a thin margin for a builder, whose spare Gold buys the goods
    of the builds that win (a short upkeep costs it a troop, not its objective)."""
    return BUILDER_MARGIN if BUILDERS & set(state["players"][seat]["objectives"]) else GOLD_MARGIN


def upkeep(state: State, seat: str) -> int:
    """Gold due at Maintenance: one per troop in play."""
    return len(troops_of(state, seat))


def gold_income(state: State, seat: str) -> int:
    """Gold produced in turn 2: each administrative centre controlled."""
    return data.CENTRE_GOLD * sum(1 for p in controlled(state, seat) if state["provinces"][str(p)]["centre"])


def income(state: State, seat: str, what: str) -> int:
    """What turn 2 will produce of ``what`` from the provinces held now."""
    n = 0
    for p in controlled(state, seat):
        info, prov = data.PROVINCES[p], state["provinces"][str(p)]
        if info["res"] == what:
            n += info["amount"] + (1 if prov["building"] == "INF" else 0)
        if what == "POP":
            n += data.POP_PER_PROVINCE + (data.CENTRE_POP if prov["centre"] else 0)
    return n


def gold_for_food(state: State, seat: str) -> int:
    """Gold the market will take next round to feed the population (one Food per Pop)."""
    res = state["players"][seat]["res"]
    short = income(state, seat, "POP") + FOOD_MARGIN - res["FOOD"] - income(state, seat, "FOOD")
    return max(0, int(short + 1) // data.MARKET_BUY_RATE)


def spare_gold(state: State, seat: str, res: dict[str, int]) -> int:
    """Gold that may be spent in turn 4 and still pay this round's upkeep."""
    return res["GOLD"] - upkeep(state, seat) - gold_margin(state, seat)


def market_for_upkeep(state: State, seat: str, res: dict[str, int]) -> Line | None:
    """Short of this round's upkeep: sell the good held most, in lots of 3, for Gold."""
    short = upkeep(state, seat) + gold_margin(state, seat) - res["GOLD"]
    if short <= 0:
        return None
    good = max(data.MARKET_GOODS, key=lambda r: res[r] - (res["POP"] if r == "FOOD" else 0))
    spare = res[good] - (res["POP"] if good == "FOOD" else 0)
    lots = min((short + 0), spare // data.MARKET_SELL_LOT)
    if lots <= 0:
        return None
    res[good] -= lots * data.MARKET_SELL_LOT
    res["GOLD"] += lots
    return {"op": "MARKET", "side": "SELL", "res": good, "n": lots * data.MARKET_SELL_LOT}


def market_for_food(state: State, seat: str, res: dict[str, int]) -> Line | None:
    """Food for the population (Maintenance takes one Food per Pop) and a stock against setbacks,
    with Gold to spare."""
    need = res["POP"] + FOOD_STOCK - res["FOOD"]
    n = min((need + 1) // data.MARKET_BUY_RATE, spare_gold(state, seat, res))
    if need <= 0 or n <= 0:
        return None
    res["GOLD"] -= n
    res["FOOD"] += data.MARKET_BUY_RATE * n
    return {"op": "MARKET", "side": "BUY", "res": "FOOD", "n": n}


def market_for_hunger(state: State, seat: str, res: dict[str, int]) -> Line | None:
    """Food before builds when the population's Food and its margin are not there: a stock is
    bought at once, so that the next rounds' market is free for builds."""
    return market_for_food(state, seat, res) if res["FOOD"] < res["POP"] + FOOD_MARGIN else None


def build_margin(state: State, seat: str, what: str) -> int:
    """Gold kept back when buying a build's goods: none for the first conqueror of a small realm
    (each round without it is a round of conquest rolls at one chance in three)."""
    return 0 if what == "HEAVY" and conqueror_first(state, seat) else BUILD_MARGIN


def build_toward_objectives(state: State, seat: str, res: dict[str, int], market: bool) -> list[Line]:
    """The wanted build, buying the good it lacks most when Gold is spare (the build follows when
    that was the only one missing); a heavy troop only when its upkeep is covered."""
    want = wanted_build(state, seat)
    if not want:
        return []
    what, where = want
    if what == "HEAVY" and spare_gold(state, seat, res) < 1:
        return []
    lines: list[Line] = []
    cost = data.BUILD_COST[what]
    missing = {r: n - res[r] for r, n in cost.items() if res[r] < n}
    if missing and not market:
        r = max(sorted(missing), key=lambda g: missing[g])
        gold = (missing[r] + 1) // data.MARKET_BUY_RATE
        if spare_gold(state, seat, res) >= gold + build_margin(state, seat, what) + (1 if what == "HEAVY" else 0):
            lines.append({"op": "MARKET", "side": "BUY", "res": r, "n": gold})
            res["GOLD"] -= gold
            res[r] += data.MARKET_BUY_RATE * gold
            del missing[r]
    if not missing:
        lines.append({"op": "BUILD", "what": what, "province": where})
        for r, n in cost.items():
            res[r] -= n
    return lines


def losses_to_give_up(state: State, seat: str, res: dict[str, int]) -> Line | None:
    """When the upkeep may fall short, a standing order: simple troops away from home go first."""
    if res["GOLD"] >= upkeep(state, seat) + gold_margin(state, seat):
        return None
    home = home_of(state, seat)
    mine = troops_of(state, seat)
    first = sorted(mine, key=lambda t: (state["troops"][t]["kind"] == "H", state["troops"][t]["province"] == home,
                                        -state["troops"][t]["num"]))[:3]
    if not first or first == state["players"][seat]["losses"][:3]:
        return None
    return {"op": "LOSSES", "troops": first}


def build_before_bread(state: State, seat: str, res: dict[str, int]) -> list[Line]:
    """While the Food held feeds the population, the wanted build, when it can be made this turn
    (buying the good it lacks with spare Gold), takes the market's one deal before the Food
    margin: a setback may cost a Pop, while a build put off waits a whole round."""
    if res["FOOD"] < res["POP"]:
        return []
    trial = dict(res)
    lines = build_toward_objectives(state, seat, trial, market=False)
    if not any(ln["op"] == "BUILD" for ln in lines):
        return []
    res.update(trial)
    return lines


def _admin(state: State, seat: str, rng: random.Random) -> list[Line]:
    res = dict(state["players"][seat]["res"])
    market = market_for_upkeep(state, seat, res)
    lines = [] if market else build_before_bread(state, seat, res)
    if not lines:
        market = market or market_for_hunger(state, seat, res)
        lines = ([market] if market else []) + build_toward_objectives(state, seat, res, market=bool(market))
    if not any(ln["op"] == "MARKET" for ln in lines):
        food = market_for_food(state, seat, res)
        lines = ([food] if food else []) + lines
    lines += march_on(state, seat, rng)
    losses = losses_to_give_up(state, seat, res)
    return lines + ([losses] if losses else [])


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


def affordable_recruits(state: State, seat: str) -> int:
    """New troops whose upkeep next round's Gold covers: Gold now + the Pop routed into Gold +
    the centres' Gold, less a tribute, a margin and the Food to buy, must pay every troop."""
    res = state["players"][seat]["res"]
    budget = (res["GOLD"] + res["POP"] + gold_income(state, seat) - 1 - gold_margin(state, seat) - upkeep(state, seat)
              - gold_for_food(state, seat))
    return max(0, int(budget) // 2)


def wanted_army(state: State, seat: str) -> int:
    """O7's troops for O7; otherwise three per province held, at least six."""
    if "O7" in state["players"][seat]["objectives"]:
        return data.OBJECTIVE_NEED["O7"]
    return max(6, 3 * len(controlled(state, seat)))


def _route(state: State, seat: str, rng: random.Random) -> list[Line]:
    res = state["players"][seat]["res"]
    pop = res["POP"]
    lines: list[Line] = []
    home = home_of(state, seat)
    room = data.MAX_SIMPLE - len(troops_of(state, seat, kind="S"))
    want = max(0, wanted_army(state, seat) - len(troops_of(state, seat)))
    troops = min(pop, room, want, affordable_recruits(state, seat)) if home is not None else 0
    if troops:
        where = nearest_to_goal(state, seat, controlled(state, seat)) or home
        lines.append({"op": "ROUTE_TROOPS", "n": troops, "province": where})
    if pop - troops:
        lines.append({"op": "ROUTE_GOLD", "n": pop - troops})
    most = sorted(data.SIMPLE_TIE_ORDER, key=lambda r: -res[r])
    lines.append({"op": "TRIBUTE_FREE", "res": most[0]})
    lines.append({"op": "TRIBUTE_SIMPLE", "res": [most[0], most[0] if res[most[0]] >= 2 else most[1]]})
    return lines


def _pay(state: State, seat: str, rng: random.Random) -> list[Line]:
    return tribute.default_lines(state, seat)


PLANS = {"T3A": bot_deals.propose, "T3B": bot_deals.answer, "T4": _admin, "T7A": _lose, "T7B": _lose,
         "T8": _route, "T9": _pay}


def plan(state: State, seat: str, rng: random.Random) -> dict[str, Any]:
    """The bot's order (callers check it and fall back to the default)."""
    ph = state["phase"]
    if seat not in active(state) or ph not in PLANS:
        return {"type": "PASS", "lines": []}
    return {"type": ORDER_TYPE[ph], "lines": PLANS[ph](state, seat, rng)}
