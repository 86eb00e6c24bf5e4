"""Empire's planning bot, turn 4's troops: where each one goes and in which mode.

Rules of thumb, one function each:

- *keep a home guard*: one troop stays home in Defence (two when enemies stand next to it),
  simple ones only: heavy troops (+1 to conquer) go out, unless no simple troop is home;
- *to the frontier*: a troop with nothing to take next to it walks toward the nearest province
  not held;
- *spread the conquerors*: conquest is one roll a province whatever the number of troops, so
  each troop heads for a province no other of its troops is taking;
- *march on the objective*: for O4 every free troop walks the shortest way to the other
  players' administrative centre with the fewest defenders, for O8 to provinces 6 and 7;
- *take what it stands on*: a troop on a province not held stays to take it (on the way to an
  objective's goal, one troop a province: the others march on; at 2 or 3 players a usurper
  leaves troops behind only while those marching on outnumber the centre's guards by
  STRIKE_MARGIN);
- *one conqueror a province*: conquest is one roll a province, so on an empty province not
  held one troop (a heavy one first) stays to take it and the others walk on to free
  neighbours, one each;
- *storm a held province*: where enemies stand on a province it does not control, all troops
  attack but one (a heavy one first) that waits in Conquest to take the province once they
  are gone, in the same combat turn.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from app.games.empire import data
from app.games.empire.state import State, controlled, owner, troops_of

Line = dict[str, Any]


def enemies_in(state: State, seat: str, p: int) -> int:
    """Other players' troops standing in ``p``."""
    return sum(1 for t in state["troops"].values() if t["province"] == p and t["owner"] != seat)


def home_of(state: State, seat: str) -> int | None:
    """The seat's home while it holds it, else its first province."""
    home = data.HOME[state["colour"][seat]]
    if owner(state, home) == seat:
        return home
    mine = controlled(state, seat)
    return mine[0] if mine else None


def first_step(start: int, goals: set[int]) -> int | None:
    """The neighbour of ``start`` on a shortest way to the nearest of ``goals`` (None if there)."""
    if start in goals or not goals:
        return None
    seen = {start}
    queue: deque[tuple[int, int]] = deque((n, n) for n in data.PROVINCES[start]["adj"])
    while queue:
        p, step = queue.popleft()
        if p in seen:
            continue
        seen.add(p)
        if p in goals:
            return step
        queue.extend((n, step) for n in data.PROVINCES[p]["adj"] if n not in seen)
    return None


def distance(start: int, goal: int) -> int:
    """Steps from ``start`` to ``goal`` on the map."""
    seen, frontier, n = {start}, {start}, 0
    while goal not in frontier:
        frontier = {q for p in frontier for q in data.PROVINCES[p]["adj"] if q not in seen}
        seen |= frontier
        n += 1
    return n


def weakest_centre(state: State, seat: str) -> int | None:
    """For O4: the other players' centre that is the fewest defenders plus steps from our troops."""
    places = {t["province"] for t in state["troops"].values() if t["owner"] == seat}
    centres = [int(p) for p, v in state["provinces"].items()
               if v["centre"] not in (None, state["colour"][seat]) and v["owner"] != seat]
    if not centres or not places:
        return None
    return min(centres, key=lambda p: (enemies_in(state, seat, p) + min(distance(q, p) for q in places), p))


def objective_goals(state: State, seat: str) -> set[int]:
    """Provinces an objective sends the army to: the weakest centre of another player (O4),
    provinces 6 and 7 (O8)."""
    objs = state["players"][seat]["objectives"]
    goals: set[int] = set()
    centre = weakest_centre(state, seat) if "O4" in objs else None
    if centre is not None:
        goals.add(centre)
    if "O8" in objs:
        goals |= {p for p in (6, 7) if owner(state, p) != seat}
    return goals


def nearest_to_goal(state: State, seat: str, mine: list[int]) -> int | None:
    """Where a new heavy troop is raised: the province held nearest the objective's goal."""
    goals = objective_goals(state, seat)
    if not goals or not mine:
        return None
    return min(mine, key=lambda p: (min(distance(p, g) for g in goals), p))


def worth_taking(state: State, seat: str, p: int) -> int:
    """How much a province not held serves the objectives: another's centre for O4, enemy troops
    for O5 (war spoils), provinces 6 and 7 for O8, else neutral land before a player's."""
    objs = state["players"][seat]["objectives"]
    prov = state["provinces"][str(p)]
    enemies = enemies_in(state, seat, p)
    value = 2 if owner(state, p) is None else 1
    if "O4" in objs and prov["centre"] not in (None, state["colour"][seat]):
        value += 6
    if "O5" in objs:
        value += 2 * min(enemies, 3)
    elif enemies:
        value -= 1
    if "O8" in objs and p in (6, 7):
        value += 5
    return value


def home_guards(state: State, seat: str) -> list[str]:
    """One troop stays home in Defence, two when other players' troops stand next to it; simple
    troops only, so that the heavy ones (+1 to conquer) go out: a heavy troop guards only a home
    with no simple troop in it."""
    home = home_of(state, seat)
    at_home = sorted((t for t in troops_of(state, seat) if state["troops"][t]["province"] == home),
                     key=lambda t: state["troops"][t]["kind"] == "H")
    simple = [t for t in at_home if state["troops"][t]["kind"] == "S"]
    near = home is not None and any(enemies_in(state, seat, p) for p in data.PROVINCES[home]["adj"])
    return (simple or at_home)[:2 if near else 1]


def spread_target(state: State, seat: str, here: int, taken: set[int], rng: random.Random) -> int | None:
    """The best neighbour not held, preferring one no other troop of ours is already taking."""
    targets: list[int] = [p for p in data.PROVINCES[here]["adj"] if owner(state, p) != seat]
    if not targets:
        return None
    return max(targets, key=lambda p: (p not in taken, worth_taking(state, seat, p), rng.random()))


def to_the_frontier(state: State, seat: str, here: int) -> int | None:
    """A troop deep in its own land walks toward the nearest province it does not control."""
    return first_step(here, {p for p in data.PROVINCES if owner(state, p) != seat})


def take_on_the_way(state: State, seat: str, here: int, goals: set[int], taken: set[int]) -> bool:
    """A troop on a province not held stays to take it; on the way to a goal, only the first one
    (the others march on)."""
    return owner(state, here) != seat and not (goals and here in taken)


def one_conqueror(state: State, seat: str, here: int, taken: set[int], rng: random.Random) -> int | None:
    """Conquest is one roll a province, whatever the number of troops: where one of our troops
    already stays to take an empty province, another walks on to a neighbour not held that no
    troop of ours is taking (None: there is none, it stays)."""
    if here not in taken or enemies_in(state, seat, here) or owner(state, here) == seat:
        return None
    free = [p for p in data.PROVINCES[here]["adj"] if owner(state, p) != seat and p not in taken]
    return max(free, key=lambda p: (worth_taking(state, seat, p), rng.random())) if free else None


def storm(state: State, seat: str, moves: dict[str, int]) -> dict[str, str]:
    """Modes where our troops end on a province we do not control: attack any enemies there with
    all but one troop (heavy first), which waits in Conquest; with no enemies, all conquer."""
    modes: dict[str, str] = {}
    by_place: dict[int, list[str]] = {}
    for tid in troops_of(state, seat):
        by_place.setdefault(moves.get(tid, state["troops"][tid]["province"]), []).append(tid)
    for p, tids in by_place.items():
        if owner(state, p) == seat and not enemies_in(state, seat, p):
            continue
        if not enemies_in(state, seat, p):
            modes.update({t: "CONQUEST" for t in tids})
            continue
        tids = sorted(tids, key=lambda t: state["troops"][t]["kind"] != "H")
        waiting = tids[0] if owner(state, p) != seat and len(tids) > 1 else None
        modes.update({t: "CONQUEST" if t == waiting else "ATTACK" for t in tids})
    return modes


#: Troops a usurper brings to a centre beyond its guards.
STRIKE_MARGIN = 2


#: From this many players a usurper's strike needs no margin: rivals' homes lie two or three
#: steps apart and more rivals thin their guards (in bot games, holders of Usurper won 1.56x
#: the average at 4 players with the margin, 1.07x without).
STRIKE_MARGIN_UNTIL = 3


def spare_for_the_way(state: State, seat: str, goals: set[int], guards: set[str]) -> int | None:
    """O4 at 2 or 3 players: how many troops may stay behind to take provinces on the way to the
    centre, so that the others still outnumber its guards by STRIKE_MARGIN (None: no limit)."""
    if "O4" not in state["players"][seat]["objectives"] or not goals or len(state["seats"]) > STRIKE_MARGIN_UNTIL:
        return None
    centre = min(goals)
    marching = [t for t in troops_of(state, seat) if t not in guards and state["troops"][t]["province"] != centre]
    return max(0, len(marching) - enemies_in(state, seat, centre) - STRIKE_MARGIN)


def march_on(state: State, seat: str, rng: random.Random) -> list[Line]:
    """Home guards in Defence; the others march on the objective or spread to the next province."""
    guards = set(home_guards(state, seat))
    goals = objective_goals(state, seat)
    moves: dict[str, int] = {}
    taken: set[int] = set()
    spare = spare_for_the_way(state, seat, goals, guards)
    conquerors = sorted(troops_of(state, seat), key=lambda t: state["troops"][t]["kind"] != "H")
    for tid in conquerors:
        here = state["troops"][tid]["province"]
        if not goals and tid not in guards and (on := one_conqueror(state, seat, here, taken, rng)) is not None:
            moves[tid] = on
            taken.add(on)
            continue
        if tid in guards or here in goals:
            taken.add(here)
            continue
        if take_on_the_way(state, seat, here, goals, taken) and spare != 0:
            spare = None if spare is None else spare - 1
            taken.add(here)
            continue
        dest = first_step(here, goals) if goals else None
        if dest is None and owner(state, here) == seat:
            dest = spread_target(state, seat, here, taken, rng) or to_the_frontier(state, seat, here)
        if dest is not None:
            moves[tid] = dest
            taken.add(dest)
    modes = storm(state, seat, moves)
    lines: list[Line] = [{"op": "MOVE", "troop": t, "province": p} for t, p in moves.items()]
    for tid in troops_of(state, seat):
        t = state["troops"][tid]
        mode = "DEFENCE" if tid in guards else modes.get(tid, "DEFENCE")
        if mode != t["mode"] or t.get("target"):
            lines.append({"op": "MODE", "troop": tid, "mode": mode})
    return lines


#: A realm this small needs a conqueror before anything else.
SMALL_REALM = 2


def conqueror_first(state: State, seat: str) -> bool:
    """Held to SMALL_REALM provinces or fewer with no heavy troop: a heavy one first, whatever the
    objective, as it adds 1 to every conquest roll it joins (a neutral province falls to a simple
    troop about one time in three, to a heavy one more than half the time)."""
    return len(controlled(state, seat)) <= SMALL_REALM and not troops_of(state, seat, kind="H")


def wanted_build(state: State, seat: str) -> tuple[str, int] | None:
    """The build its objectives want next and where: heavy troops, Walls or Infrastructure."""
    objs = state["players"][seat]["objectives"]
    home = home_of(state, seat)
    mine = controlled(state, seat)
    free = [p for p in mine if not state["provinces"][str(p)]["building"]]
    wants_heavy = {"O1", "O4", "O5", "O7", "O8"} & set(objs) or conqueror_first(state, seat)
    order = ["HEAVY"] if wants_heavy else []
    order += ["WALL"] if "O2" in objs else []
    order += ["INF"] if "O3" in objs else []
    order += ["INF", "WALL", "HEAVY"]
    for what in order:
        if what == "HEAVY" and home is not None and len(troops_of(state, seat, kind="H")) < data.MAX_HEAVY:
            return what, nearest_to_goal(state, seat, mine) or home
        spots = [p for p in free if not (what == "INF" and p in data.NO_INF)]
        if what != "HEAVY" and spots:
            return what, (home if home in spots else spots[0])
    return None


def wanted_goods(state: State, seat: str) -> list[str]:
    """The goods the wanted build lacks, the most lacking first."""
    want = wanted_build(state, seat)
    if not want:
        return []
    res = state["players"][seat]["res"]
    cost = data.BUILD_COST[want[0]]
    return sorted((r for r in cost if res[r] < cost[r]), key=lambda r: (res[r] - cost[r], r))
