"""The bot's tactics beyond the spec's section 9 AI, each a short heuristic named for what it does.

They reason on the board that ``bot.seen`` rebuilds from the seat's view (owners, armies, the
turn order and round, the seat's own objective), never on anything the seat may not see.

- ``guard_the_line``: placing while an enemy moves before our next turn and could snatch a quick
  objective (round 1 of the second commander: 24 territories is three conquests away), spread
  the armies over the border territories facing the strongest enemy stacks.
- ``hunt_spearhead``/``hunt_attack``: with a destruction objective, mass on the way to the target
  colour and strike it at smaller odds; without one, do the same to an abandoned seat.
- ``finish_the_weak``: a colour down to its last territories is taken before another commander
  can fulfil a destruction objective on it (its cards come with it).
- ``rolls_at_good_odds``: a big stack rolls as many times in one order as the odds stay good
  whatever the dice, so a turn of thousands of armies does not take thousands of orders.
"""

from __future__ import annotations

from collections.abc import Callable

from app.games.conquest import data
from app.games.conquest.state import State, enemy_neighbours, territories_of

NUM = data.NUMBER


def good_odds(attackers: int, defenders: int) -> bool:
    """Whether attacking until conquest or exhaustion wins about two times in three: a defender
    rolls as many dice as it has armies up to three and wins ties, so two armies more are enough
    against one or two, and twice as many plus one against three or more."""
    return attackers >= odds_need(defenders)


def odds_need(defenders: int) -> int:
    """The fewest attackers at good odds against ``defenders``."""
    return defenders + 2 if defenders <= 2 else 2 * defenders + 1


def rolls_at_good_odds(attackers: int, defenders: int) -> int:
    """How many rolls in a row keep the odds good whatever the dice: a roll costs the attacker at
    most three armies and never adds a defender, so a big stack rolls many times in one order
    instead of one order a roll (at most 99, the notation's REPEAT)."""
    return max(1, min(99, (attackers - odds_need(defenders)) // 3 + 1))


def striking_force(state: State, t: str) -> int:
    """The most armies one enemy neighbour of ``t`` could throw at it (all but the one that stays)."""
    return max((int(state["armies"][n]) - 1 for n in enemy_neighbours(state, t)), default=0)


def danger(state: State, t: str) -> tuple[int, int, int]:
    """How exposed an own border territory is: the strongest enemy stack that can strike it against
    its armies, then how many enemy stacks can strike it, then the lowest #."""
    strikers = sum(1 for n in enemy_neighbours(state, t) if state["armies"][n] >= 2)
    return (striking_force(state, t) - int(state["armies"][t]), strikers, -NUM[t])


def enemy_moves_first(state: State, seat: str) -> bool:
    """In round 1 only placements happen: an enemy earlier in the turn order attacks before we do."""
    order = state.get("order") or []
    return bool(state.get("round") == 1 and order and order[0] != seat)


def guard_the_line(state: State, seat: str, armies: int) -> dict[str, int]:
    """Place ``armies`` one at a time, each on the most exposed border territory."""
    bord = [t for t in territories_of(state, seat) if enemy_neighbours(state, t)]
    where: dict[str, int] = {}
    if not bord:
        return where
    armies_now = dict(state["armies"])
    probe: State = {**state, "armies": armies_now}
    for _ in range(armies):
        t = max(bord, key=lambda t: danger(probe, t))
        armies_now[t] += 1
        where[t] = where.get(t, 0) + 1
    return where


# ------------------------------------------------------------------ hunting a colour


def colour_territories(state: State, colour: str | None) -> list[str]:
    """The territories of the seat playing ``colour`` (none when nobody seated plays it)."""
    holder = next((s for s, c in state["colour"].items() if c == colour), None)
    return [] if holder is None else territories_of(state, holder)


def prey(state: State, seat: str, target: str | None) -> list[str]:
    """The territories to hunt: the target colour's while it is in the game, else those of an
    abandoned seat (played by the AI from then on, it can never win but keeps growing: stop it
    while its armies are still scattered)."""
    hunted = colour_territories(state, target)
    if hunted:
        return hunted
    return [t for t, s in state["owner"].items() if s != seat and state["status"].get(s) == "ABANDONED"]


def steps_from(goal: list[str], passable: Callable[[str], bool] = lambda _t: True) -> dict[str, int]:
    """Steps from each territory to the nearest of ``goal``; the way goes on only through ``passable`` ones."""
    dist = {t: 0 for t in goal}
    frontier = list(goal)
    while frontier:
        nxt = []
        for t in frontier:
            for n in data.NEIGHBOURS[t]:
                if n not in dist:
                    dist[n] = dist[t] + 1
                    if passable(n):
                        nxt.append(n)
        frontier = nxt
    return dist


def steps_to(state: State, goal: list[str], seat: str) -> dict[str, int]:
    """Steps from each territory to the nearest of ``goal``, going through territories not ours."""
    return steps_from(goal, lambda t: state["owner"][t] != seat)


def hunt_spearhead(state: State, seat: str, prey: list[str]) -> str | None:
    """Where to mass against the ``prey`` territories: the own border territory nearest to them,
    the strongest (against its weakest prey neighbour) among the nearest."""
    if not prey:
        return None
    dist = steps_to(state, prey, seat)
    bord = [t for t in territories_of(state, seat) if enemy_neighbours(state, t) and t in dist]
    if not bord:
        return None

    def edge(s: str) -> tuple[int, int, int]:
        weakest = min((int(state["armies"][n]) for n in data.NEIGHBOURS[s] if n in prey), default=0)
        return (-dist[s], int(state["armies"][s]) - weakest, -NUM[s])

    return max(bord, key=edge)


def hunt_attack(state: State, seat: str, prey: list[str]) -> tuple[str, str] | None:
    """Strike the ``prey`` first, else open the way towards it, at good odds only."""
    if not prey:
        return None
    best, best_key = None, None
    dist = steps_to(state, prey, seat)
    for a in territories_of(state, seat):
        for b in enemy_neighbours(state, a):
            gap = int(state["armies"][a]) - int(state["armies"][b])
            step = dist.get(b, 99)
            if good_odds(int(state["armies"][a]), int(state["armies"][b])) and step < dist.get(a, 99):
                key = (-step, gap, -NUM[a], -NUM[b])
                if best_key is None or key > best_key:
                    best, best_key = (a, b), key
    return best


def weak_colours(state: State, seat: str, at_most: int = 2) -> list[str]:
    """The territories of enemy colours down to ``at_most`` territories."""
    out: list[str] = []
    for s, c in state["colour"].items():
        if s == seat or state["status"].get(s) == "ELIMINATED":
            continue
        mine = colour_territories(state, c)
        if 0 < len(mine) <= at_most:
            out += mine
    return out


def finish_the_weak(state: State, seat: str) -> tuple[str, str] | None:
    """Take the last territories of a colour that is almost out, at good odds."""
    prey = weak_colours(state, seat)
    best, best_key = None, None
    for a in territories_of(state, seat):
        for b in enemy_neighbours(state, a):
            gap = int(state["armies"][a]) - int(state["armies"][b])
            if b in prey and good_odds(int(state["armies"][a]), int(state["armies"][b])):
                key = (gap, -NUM[a], -NUM[b])
                if best_key is None or key > best_key:
                    best, best_key = (a, b), key
    return best
