"""The bot's play for its objective, each a short heuristic named for what it does.

Like ``bot_tactics`` it reasons on the board that ``bot.seen`` rebuilds from the seat's view,
with the seat's own objective and nobody else's.

- ``missing``/``conquests_to_win``: what the objective still needs (the target colour's
  territories, the objective theatres' territories not held, the territories short of a count).
- ``go_for_the_win``: with the objective a conquest or two away, strike a territory it needs at
  even odds, not only at good odds: the game ends on that conquest, while waiting lets a rival
  take the target colour (the objective then turns into 24 territories) or a growing stack,
  such as an abandoned seat's under the AI, push the bot back.
- ``win_spearhead``: the general pool goes whole on the territory facing what the objective needs.
- ``make_the_count``: with 18 territories of two armies to hold, once 18 are held the pool first
  raises the territories of one army to two (the objective may be met at once).
"""

from __future__ import annotations

from typing import Any

from app.games.conquest import bot_tactics, data
from app.games.conquest.state import State, enemy_neighbours, territories_of

NUM = data.NUMBER
#: Conquests from the objective at which the bot goes for the win at even odds.
IN_REACH = 2


def objective(state: State, seat: str) -> dict[str, Any]:
    """What the seat's objective asks (``{}`` for the conquest of the world)."""
    return data.OBJECTIVES.get(state["objective"][seat]["goal"], {})


def missing(state: State, seat: str) -> list[str] | None:
    """The territories the objective still needs taken, or None for an objective of counts."""
    obj = objective(state, seat)
    if "destroy" in obj:
        return bot_tactics.colour_territories(state, obj["destroy"])
    if "theatres" not in obj:
        return None

    def not_held(h: str) -> list[str]:
        return [t for t in data.IN_THEATRE[h] if state["owner"][t] != seat]

    out = [t for h in obj["theatres"] for t in not_held(h)]
    if obj.get("plus_one"):
        nearest: list[str] = min((not_held(h) for h in data.THEATRES if h not in obj["theatres"]), key=len)
        out += nearest
    return out


def conquests_to_win(state: State, seat: str) -> int | None:
    """How many conquests the objective is away (None: not a matter of conquests)."""
    need = missing(state, seat)
    if need:
        return len(need)
    obj = objective(state, seat)
    if need is None and "territories" in obj and "min_armies" not in obj:
        return max(0, int(obj["territories"]) - len(territories_of(state, seat)))
    return None


def in_reach(state: State, seat: str) -> bool:
    left = conquests_to_win(state, seat)
    return left is not None and left <= IN_REACH


def fair_need(defenders: int) -> int:
    """The fewest attackers that take ``defenders`` about one time in two, rolling to the end
    (two more against one or two; against more, the defender's third die and its ties ask for
    seven attackers to four defenders and beyond)."""
    return defenders + 2 if defenders <= 2 else (17 * defenders) // 10 + 1


def rolls_while_fair(attackers: int, defenders: int) -> int:
    """Rolls in a row that keep the odds even whatever the dice (a roll costs at most three)."""
    return max(1, min(99, (attackers - fair_need(defenders)) // 3 + 1))


def go_for_the_win(state: State, seat: str) -> tuple[str, str] | None:
    """Strike what the objective needs at even odds once it is within reach, the best odds first."""
    if not in_reach(state, seat):
        return None
    need = missing(state, seat)
    targets = set(need) if need else None
    best, best_key = None, None
    for a in territories_of(state, seat):
        for b in enemy_neighbours(state, a):
            x, y = int(state["armies"][a]), int(state["armies"][b])
            if (targets is None or b in targets) and x >= fair_need(y):
                key = (x - fair_need(y), -NUM[a], -NUM[b])
                if best_key is None or key > best_key:
                    best, best_key = (a, b), key
    return best


def win_spearhead(state: State, seat: str) -> str | None:
    """With the objective within reach, the own territory facing a needed territory with the
    most armies to spare against it."""
    need = missing(state, seat) if in_reach(state, seat) else None
    if not need:
        return None
    best, best_key = None, None
    for a in territories_of(state, seat):
        for b in enemy_neighbours(state, a):
            if b in need:
                key = (int(state["armies"][a]) - fair_need(int(state["armies"][b])), -NUM[a])
                if best_key is None or key > best_key:
                    best, best_key = a, key
    return best


def make_the_count(state: State, seat: str) -> dict[str, int] | None:
    """18 territories of at least two armies: once 18 are held, raise those of one army to two,
    inland ones first, as far as the pools reach (a theatre's pool only in its theatre)."""
    obj = objective(state, seat)
    if "min_armies" not in obj:
        return None
    mine = territories_of(state, seat)
    low = int(obj["min_armies"])
    short = int(obj["territories"]) - sum(1 for t in mine if state["armies"][t] >= low)
    if len(mine) < int(obj["territories"]) or short <= 0:
        return None
    pools = dict(state["pools"])
    where: dict[str, int] = {}
    weak = sorted((t for t in mine if state["armies"][t] < low),
                  key=lambda t: (bool(enemy_neighbours(state, t)), NUM[t]))
    for t in weak:
        if len(where) == short:
            break
        n = low - int(state["armies"][t])
        h = data.THEATRE[t]
        from_r = min(n, pools.get(h, 0))
        if n - from_r > pools.get("G", 0):
            continue
        pools[h] = pools.get(h, 0) - from_r
        pools["G"] = pools.get("G", 0) - (n - from_r)
        where[t] = n
    return where or None


def land_steps(goal: list[str]) -> dict[str, int]:
    """Steps from each territory to the nearest of ``goal``, whoever holds the way."""
    return bot_tactics.steps_from(goal)


def march_on(state: State, seat: str, goal: list[str]) -> dict[str, Any] | None:
    """Regroup: the biggest stack that does not face the ``goal`` moves a step nearer to it through
    own territories (a conquest carries three armies at most, so a stack left behind stays out of
    the fight), if it may still move in this regroup (ascending #, armies that have not moved)."""
    if not goal:
        return None
    dist = land_steps(goal)
    mine = [t for t in territories_of(state, seat) if dist.get(t, 99) > 1]
    if not mine:
        return None
    a = max(mine, key=lambda t: (int(state["armies"][t]), -NUM[t]))
    left = state["moves_left"]
    k = min(left[a] if left is not None else state["armies"][a], state["armies"][a] - 1)
    ways = [c for c in data.NEIGHBOURS[a] if state["owner"][c] == seat and dist.get(c, 99) < dist[a]]
    if k < 3 or NUM[a] <= state["last_move_from"] or not ways:
        return None
    c = min(ways, key=lambda c: (dist[c], -int(state["armies"][c]), NUM[c]))
    return {"type": "MOVE", "pair": f"{a}-{c}", "count": int(k)}
