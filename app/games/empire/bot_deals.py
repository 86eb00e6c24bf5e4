"""Empire's planning bot, turn 3's diplomacy: the offers and pacts it proposes and answers.

Rules of thumb, one function each:

- *trade what it has too much of* for what it lacks, and decline offers it does not need;
- *hand out no trade markers cheaply*: while Guild master is in play (3 and 4 players) every
  trade gives the partner a marker toward its goal, and any rival may hold the card, so the bot
  accepts trades only for its own Guild master, or from a rival whose markers (public, one a
  round at most) can no longer reach the goal before the round limit;
- *a trade must pay*: at 4 players its own offers are then hard bargains, one good it can
  spare for three of a good its wanted build lacks: the other players trade among themselves
  most rounds anyway, and three goods for one speed the build that completes its objective;
  it never accepts a hard bargain itself, even for Guild master (so bots never trade on these
  terms among themselves);
- *starve the guild master*: even then, no trade with a rival whose trade markers come near
  the Guild master's goal (its markers are public), so nobody wins on our trades; our offers
  then go to the other players by name;
- *pacts only against a threat*: a pact for its home, proposed only to the neighbour whose
  troops stand next to it, accepted only from such a neighbour, the others declined, so homes
  can be contested;
- *a usurper signs no pacts*: with O4 a pact would shield the very centre it wants to take.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.empire import data
from app.games.empire.bot_march import home_of, wanted_goods
from app.games.empire.state import State, active, name
from app.games.empire.windows import open_to

Line = dict[str, Any]

#: A rival this close to the Guild master's trade markers gets no trade from us.
GUILD_WATCH = 4


def near_guild_master(state: State, seat: str) -> set[str]:
    """Rivals whose trade markers (public) are within GUILD_WATCH of the Guild master's goal."""
    need = data.OBJECTIVE_NEED["O6"] - GUILD_WATCH
    return {s for s in active(state) if s != seat and len(state["players"][s]["trade"]) >= need}


def threats(state: State, seat: str, p: int) -> dict[str, int]:
    """Other players' troops in ``p`` or next to it, by owner."""
    out: dict[str, int] = {}
    for t in state["troops"].values():
        if t["owner"] != seat and (t["province"] == p or t["province"] in data.PROVINCES[p]["adj"]):
            out[t["owner"]] = out.get(t["owner"], 0) + 1
    return out


def guild_master_in_play(state: State) -> bool:
    """Guild master (O6) is removed from 2-player games."""
    return len(state["seats"]) > data.NO_O6_PLAYERS


def hands_out_markers(state: State, seat: str) -> bool:
    """A trade would give a rival a marker toward a Guild master it may hold, for no marker of
    use to us."""
    return guild_master_in_play(state) and "O6" not in state["players"][seat]["objectives"]


def out_of_guild_reach(state: State, rival: str) -> bool:
    """The rival's markers plus one a round left (this one included) fall short of the Guild
    master's goal before the round limit."""
    left = int(state["options"]["round_limit"]) - int(state["round"]) + 1
    return len(state["players"][rival]["trade"]) + left < data.OBJECTIVE_NEED["O6"]


def trade_partners(state: State, seat: str) -> list[str | None]:
    """Whom our offers go to: while a trade only hands out markers, by name the rivals out of the
    Guild master's reach; else everyone (None), or by name everyone but a rival near its goal."""
    if hands_out_markers(state, seat):
        return [s for s in active(state) if s != seat and out_of_guild_reach(state, s)]
    shunned = near_guild_master(state, seat)
    if not shunned:
        return [None]
    return [s for s in active(state) if s != seat and s not in shunned]


def addressed(state: State, offer: Line, partners: list[str | None]) -> list[Line]:
    """``offer`` sent to each of ``partners`` (at most the three offers a round)."""
    return [dict(offer, **({"to": name(state, p)} if p else {})) for p in partners]


#: A hard bargain: the bot gives one of a good for this many of a good its build lacks.
HARD_BARGAIN = 3
#: Hard bargains from this many players: at three, the bot keeps its fair offers by name to the
#: rivals out of the Guild master's reach (without them Usurper's holders won 0.31x the average
#: holder in bot games, against 0.52x with them).
HARD_BARGAIN_PLAYERS = 4


def hard_bargains(state: State, seat: str) -> list[Line]:
    """While any trade hands a rival a marker, a trade must at least pay: one of the good held most
    for HARD_BARGAIN of each good the wanted build lacks (whoever takes it pays three for one),
    open to everyone."""
    res = state["players"][seat]["res"]
    lacking = wanted_goods(state, seat)
    offers: list[Line] = []
    for good in lacking[:3]:
        give = max((r for r in data.SIMPLE if r != good and r not in lacking), key=lambda r: res[r], default=None)
        if give is None or res[give] < 1:
            break
        offers.append({"op": "OFFER", "give_n": 1, "give": give, "get_n": HARD_BARGAIN, "get": good})
    return offers


def trade_surplus_for_need(state: State, seat: str) -> list[Line]:
    """Offer 2 of the good held most for 1 of a good held none of (Food first when short); for
    O6 (trade markers), fair one-for-one offers every round; at 4 players, while a trade hands a
    rival a marker toward a Guild master it may hold, hard bargains only."""
    res = state["players"][seat]["res"]
    if hands_out_markers(state, seat) and len(state["seats"]) >= HARD_BARGAIN_PLAYERS:
        return hard_bargains(state, seat)
    partners = trade_partners(state, seat)
    if not partners:
        return []
    if "O6" in state["players"][seat]["objectives"]:
        goods = sorted(data.SIMPLE, key=lambda r: -res[r])
        offers = [{"op": "OFFER", "give_n": 1, "give": g, "get_n": 1, "get": goods[-1 - i]}
                  for i, g in enumerate(goods[:2]) if res[g] >= 1 and g != goods[-1 - i]]
        if partners != [None] and offers:
            offers = addressed(state, offers[0], partners[:2])
        return offers
    surplus = max(data.SIMPLE, key=lambda r: res[r])
    lacking = "FOOD" if res["FOOD"] < res["POP"] else min(data.SIMPLE, key=lambda r: res[r])
    if surplus != lacking and res[surplus] >= 5 and res[lacking] <= 1:
        offer = {"op": "OFFER", "give_n": 2, "give": surplus, "get_n": 1, "get": lacking}
        return addressed(state, offer, partners[:1])
    return []


def usurper(state: State, seat: str) -> bool:
    """O4: a pact would shield the centre it wants."""
    return "O4" in state["players"][seat]["objectives"]


def pact_against_threat(state: State, seat: str) -> Line | None:
    """A pact for the home, proposed only to the neighbour with the most troops around it."""
    home = home_of(state, seat)
    if home is None or usurper(state, seat):
        return None
    near = threats(state, seat, home)
    if not near:
        return None
    worst = max(sorted(near), key=lambda s: near[s])
    return {"op": "PACT", "with": name(state, worst), "province": home}


def propose(state: State, seat: str, rng: random.Random) -> list[Line]:
    """Turn 3A: the trade offers, then the pact."""
    lines = trade_surplus_for_need(state, seat)
    pact = pact_against_threat(state, seat)
    return lines + ([pact] if pact else [])


def worth_accepting(state: State, seat: str, offer: dict[str, Any], res: dict[str, int]) -> bool:
    """An offer we can pay (for O6, any but a hard bargain: each trade is a marker), else one we
    need that asks no more than it gives; never from a rival near the Guild master's goal, and
    while a trade only hands out markers, only from a rival out of its reach."""
    if offer["get_n"] >= HARD_BARGAIN * offer["give_n"]:
        return False  # nobody pays three for one, not even for a marker
    if hands_out_markers(state, seat) and not out_of_guild_reach(state, offer["from"]):
        return False
    if offer["from"] in near_guild_master(state, seat):
        return False
    if "O6" in state["players"][seat]["objectives"]:
        return bool(res[offer["get"]] >= offer["get_n"])
    if offer["get_n"] > offer["give_n"]:
        return False  # a hard bargain: we would pay more than we get
    return bool(res[offer["get"]] >= offer["get_n"] + 3 and res[offer["give"]] < 3)


def answer(state: State, seat: str, rng: random.Random) -> list[Line]:
    """Turn 3B: accept the offers worth it and the pacts against a threat, decline the rest."""
    res = dict(state["players"][seat]["res"])
    offers, pacts = open_to(state, seat)
    lines: list[Line] = []
    for o in offers:
        if worth_accepting(state, seat, o, res):
            lines.append({"op": "ACCEPT_OFFER", "id": o["id"]})
            res[o["get"]] -= o["get_n"]
        else:
            lines.append({"op": "DECLINE_OFFER", "id": o["id"]})
    home = home_of(state, seat)
    near = threats(state, seat, home) if home is not None else {}
    for p in pacts:
        if home is not None and p["from"] in near and not usurper(state, seat):
            lines.append({"op": "ACCEPT_PACT", "id": p["id"], "province": home})
        else:
            lines.append({"op": "DECLINE_PACT", "id": p["id"]})
    return lines
