"""Bot players: the AI of spec section 9 and random legal orders.

The AI (``next_order``) plays AI seats, full auto-command, timeouts and bots.
It reasons on ``seen(view)``: the board rebuilt from the seat's view, so it
knows only the seat's own hand and objective.  It is deterministic from the
view and consumes no random numbers (D22).  Ties
go to the lowest territory number unless the spec says otherwise.

``random_turn_order`` draws a random legal order (bots, fuzzing and the
conformance test).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.conquest import bot_goals, bot_tactics, data
from app.games.conquest.prompts import attack_pairs, move_pairs
from app.games.conquest.state import State, enemy_neighbours, pool_total, territories_of, valid_sets

NUM = data.NUMBER


def threat(state: State, t: str) -> int:
    return sum(int(state["armies"][n]) for n in enemy_neighbours(state, t))


def pressure(state: State, t: str) -> int:
    """p(t) = threat(t) - armies(t)."""
    return threat(state, t) - int(state["armies"][t])


def borders(state: State, seat: str) -> list[str]:
    return [t for t in territories_of(state, seat) if enemy_neighbours(state, t)]


def _share(state: State, seat: str, h: str) -> float:
    return sum(1 for t in data.IN_THEATRE[h] if state["owner"][t] == seat) / len(data.IN_THEATRE[h])


def priority_set(state: State, seat: str) -> list[str]:
    """PS of spec 9.1."""
    goal = state["objective"][seat]["goal"]
    obj = data.OBJECTIVES.get(goal, {})
    order = data.THEATRES.index
    if "theatres" in obj and not obj.get("plus_one"):
        return list(obj["theatres"])
    if obj.get("plus_one"):
        others = [h for h in data.THEATRES if h not in obj["theatres"]]
        best = max(others, key=lambda h: (_share(state, seat, h), -order(h)))
        return list(obj["theatres"]) + [best]
    open_ = [h for h in data.THEATRES if _share(state, seat, h) < 1]
    if not open_:
        return []
    return [max(open_, key=lambda h: (_share(state, seat, h), -len(data.IN_THEATRE[h]), -order(h)))]


def target_colour(state: State, seat: str) -> str | None:
    return data.OBJECTIVES.get(state["objective"][seat]["goal"], {}).get("destroy")


def want(state: State, seat: str, b: str, ps: list[str], k: str | None) -> int:
    h = data.THEATRE[b]
    owner = state["owner"][b]
    rest_mine = all(state["owner"][t] == seat for t in data.IN_THEATRE[h] if t != b)
    owner_all = all(state["owner"][t] == owner for t in data.IN_THEATRE[h])
    return (
        6 * (h in ps)
        + 4 * (k is not None and state["colour"][owner] == k)
        + 3 * rest_mine
        + 2 * owner_all
        - int(state["armies"][b])
    )


def choose_trade(state: State, seat: str) -> dict[str, Any] | None:
    """Spec 9.2: fewest jokers, then a set picturing a controlled territory, then deck order."""
    sets = valid_sets(state["hands"][seat])
    if not sets:
        return None

    def mine(c: str) -> bool:
        t = data.CARD_TERRITORY[c]
        return t is not None and state["owner"][t] == seat

    def key(trio: list[str]) -> tuple[int, int, list[int]]:
        jokers = sum(1 for c in trio if c in data.JOKERS)
        return (jokers, 0 if any(mine(c) for c in trio) else 1, sorted(data.DECK.index(c) for c in trio))

    best = min(sets, key=key)
    order: dict[str, Any] = {"type": "TRADE", "cards": best}
    owned = [str(data.CARD_TERRITORY[c]) for c in best if mine(c)]
    if owned:
        order["bonus"] = max(owned, key=lambda t: (pressure(state, t), -NUM[t]))
    return order


def choose_placement(state: State, seat: str) -> dict[str, int]:
    """Spec 9.3: restricted pools on their theatre's weakest border, general pool on spearhead/weak point."""
    where: dict[str, int] = {}

    def add(t: str, n: int) -> None:
        if n > 0:
            where[t] = where.get(t, 0) + n

    bord = borders(state, seat)
    for h in data.THEATRES:
        r = state["pools"].get(h, 0)
        if not r:
            continue
        inside = [t for t in bord if data.THEATRE[t] == h]
        if inside:
            add(max(inside, key=lambda t: (pressure(state, t), -NUM[t])), r)
        else:
            add(min((t for t in territories_of(state, seat) if data.THEATRE[t] == h), key=NUM.__getitem__), r)
    g = state["pools"].get("G", 0)
    if g and bord and bot_tactics.enemy_moves_first(state, seat):
        for t, n in bot_tactics.guard_the_line(state, seat, g).items():
            add(t, n)
    elif g and bord:
        ps, k = priority_set(state, seat), target_colour(state, seat)

        def spear_key(s: str) -> tuple[int, int, int]:
            return (
                max(want(state, seat, b, ps, k) for b in enemy_neighbours(state, s)),
                state["armies"][s],
                -NUM[s],
            )

        prey = bot_tactics.prey(state, seat, k)
        win = bot_goals.win_spearhead(state, seat)
        s = win or bot_tactics.hunt_spearhead(state, seat, prey) or max(bord, key=spear_key)
        w = max(bord, key=lambda t: (pressure(state, t), -NUM[t]))
        if not win and w != s and pressure(state, w) > 0:
            add(w, g // 3)
            add(s, g - g // 3)
        else:
            add(s, g)
    elif g:
        add(min(territories_of(state, seat), key=NUM.__getitem__), g)
    return where


def choose_attack(state: State, seat: str) -> tuple[str, str] | None:
    """Spec 9.4: the pair maximising (want(b), armies(a) - armies(b), -#a, -#b) with a margin of 2,
    and (beyond the spec) only at good odds: against three or more defenders a margin of 2 loses
    more often than it wins, as the defender rolls up to three dice and wins ties."""
    ps, k = priority_set(state, seat), target_colour(state, seat)
    best, best_key = None, None
    for a in territories_of(state, seat):
        for b in enemy_neighbours(state, a):
            if bot_tactics.good_odds(int(state["armies"][a]), int(state["armies"][b])):
                key = (want(state, seat, b, ps, k), state["armies"][a] - state["armies"][b], -NUM[a], -NUM[b])
                if best_key is None or key > best_key:
                    best, best_key = (a, b), key
    return best


def attack_order(state: State, a: str, b: str,
                 odds: Callable[[int, int], int] = bot_tactics.rolls_at_good_odds) -> dict[str, Any]:
    """One roll, or as many rolls as ``odds`` keeps at its odds whatever the dice (a big stack)."""
    rolls = odds(int(state["armies"][a]), int(state["armies"][b]))
    order: dict[str, Any] = {"type": "ATTACK", "pair": f"{a}-{b}"}
    if rolls > 1:
        order["repeat"] = rolls
    return order


def choose_advance(state: State, seat: str) -> int:
    """Spec 9.5: all d armies if the origin stays safe, else 1."""
    p = state["pending"]
    a, d = p["from"], p["d"]
    x = state["armies"][a]
    if not enemy_neighbours(state, a) or x - (d - 1) >= threat(state, a):
        return int(d)
    return 1


def distances(state: State, seat: str) -> dict[str, int]:
    """Steps through own territories to the nearest own border territory."""
    mine = set(territories_of(state, seat))
    dist = {t: 0 for t in mine if enemy_neighbours(state, t)}
    frontier = list(dist)
    while frontier:
        nxt = []
        for t in frontier:
            for n in data.NEIGHBOURS[t]:
                if n in mine and n not in dist:
                    dist[n] = dist[t] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def choose_move(state: State, seat: str) -> dict[str, Any] | None:
    """Spec 9.6: the next inland move towards the front, territories in ascending #."""
    dist = distances(state, seat)
    left = state["moves_left"]
    for a in territories_of(state, seat):
        if NUM[a] <= state["last_move_from"] or dist.get(a, 0) == 0:
            continue
        k = min(left[a] if left is not None else state["armies"][a], state["armies"][a] - 1)
        if k < 1:
            continue
        options = [c for c in data.NEIGHBOURS[a] if c in dist and dist[c] < dist[a]]
        if options:
            c = min(options, key=lambda c: (dist[c], -threat(state, c), NUM[c]))
            return {"type": "MOVE", "pair": f"{a}-{c}", "count": k}
    return None


def _goal(aim: dict[str, Any]) -> str:
    """The objective whose aim the view shows (``WORLD``: none)."""
    return next((g for g, o in data.OBJECTIVES.items() if o == aim), "WORLD")


def seen(view: dict[str, Any]) -> State:
    """What the AI reasons on: the board rebuilt from the seat's view (``view(state, seat)``),
    with the seat's own hand and objective and nobody else's, so it decides from what the
    seat may know."""
    seat = view["viewer"]
    me = view.get("me") or {}
    return {
        "owner": {t: v["owner"] for t, v in view["territories"].items()},
        "armies": {t: v["armies"] for t, v in view["territories"].items()},
        "colour": {c["seat"]: c["colour"] for c in view["commanders"]},
        "status": {c["seat"]: c["status"] for c in view["commanders"]},
        "hands": {seat: [c["id"] for c in me.get("hand", [])]},
        "objective": {seat: {"goal": _goal((me.get("objective") or {}).get("aim") or {})}},
        "pools": dict(view["pools"]),
        "pending": view["pending"],
        "phase": view["phase"],
        "moves_left": view["moves_left"],
        "last_move_from": view["last_move_from"],
        "round": view["round"],
        "order": [c["seat"] for c in view["commanders"]],
    }


def view_order(view: dict[str, Any], full: bool = True) -> dict[str, Any]:
    """The AI's next order for the viewing seat, from its view only."""
    return next_order(seen(view), view["viewer"], full=full)


def next_order(state: State, seat: str, full: bool = True) -> dict[str, Any]:
    """The AI's next turn order (spec 9.7); ``full=False`` is the timeout mode (no offensive)."""
    if state["pending"]:
        return {"type": "ADVANCE", "count": choose_advance(state, seat) if full else 1}
    if state["phase"] == "MOBILISATION":
        trade = choose_trade(state, seat)
        if trade:
            return trade
        if any(state["pools"].values()):
            return {"type": "PLACE", **(bot_goals.make_the_count(state, seat) or choose_placement(state, seat))}
    if not full:
        return {"type": "END_TURN"}
    if state["phase"] != "REGROUP":
        prey = bot_tactics.prey(state, seat, target_colour(state, seat))
        win = bot_goals.go_for_the_win(state, seat)
        if win:
            return attack_order(state, *win, odds=bot_goals.rolls_while_fair)
        pair = (
            bot_tactics.hunt_attack(state, seat, prey)
            or bot_tactics.finish_the_weak(state, seat)
            or choose_attack(state, seat)
        )
        if pair:
            return attack_order(state, *pair)
        return {"type": "END_OFFENSIVE"}
    goal = bot_goals.missing(state, seat) or bot_tactics.prey(state, seat, target_colour(state, seat))
    move = bot_goals.march_on(state, seat, goal) or choose_move(state, seat)
    return move or {"type": "END_TURN"}


# ------------------------------------------------------------------ random legal orders


def _trade(state: State, seat: str, rng: Any) -> dict[str, Any]:
    cards = rng.choice(valid_sets(state["hands"][seat]))
    order: dict[str, Any] = {"type": "TRADE", "cards": list(cards)}
    where = data.CARD_TERRITORY
    owned = [where[c] for c in cards if where[c] and state["owner"][where[c]] == seat]
    if owned and rng.random() < 0.5:
        order["bonus"] = rng.choice(owned)
    return order


def _place(state: State, seat: str, rng: Any) -> dict[str, Any]:
    mine = territories_of(state, seat)
    where: dict[str, int] = {}
    partial = rng.random() < 0.2
    for h, n in sorted(state["pools"].items()):
        if not n:
            continue
        spots = [t for t in mine if data.THEATRE[t] == h] if h != "G" else mine
        if partial:
            n = rng.randint(1, n)
        picks = [rng.choice(spots) for _ in range(rng.randint(1, 3))]
        for i in range(n):
            t = picks[i % len(picks)]
            where[t] = where.get(t, 0) + 1
        if partial:
            break
    return {"type": "PLACE", **where}


def _move(state: State, seat: str, rng: Any, pairs: list[list[str]]) -> dict[str, Any]:
    a, b = rng.choice(pairs)
    left = state["moves_left"][a] if state["moves_left"] is not None else state["armies"][a]
    top = min(left, state["armies"][a] - 1)
    return {"type": "MOVE", "pair": f"{a}-{b}", "count": rng.randint(1, top)}


def random_turn_order(state: State, seat: str, rng: Any) -> dict[str, Any]:
    """A random legal order; offensives end with some probability so games finish."""
    if state["status"][seat] == "FULL_AUTO":  # a state saved while such a seat owed its turn
        return {"type": "AUTO"}
    if rng.random() < 0.0005:
        return {"type": "ABANDON", "confirm": True}
    p = state["pending"]
    if p:
        return {"type": "ADVANCE", "count": rng.randint(1, p["d"])}
    phase = state["phase"]
    hand = state["hands"][seat]
    if phase == "MOBILISATION":
        if len(hand) >= 5:
            return _trade(state, seat, rng)
        if valid_sets(hand) and rng.random() < 0.4:
            return _trade(state, seat, rng)
        if pool_total(state) > 0:
            return _place(state, seat, rng)
    if phase != "REGROUP":
        pairs = attack_pairs(state, seat)
        r = rng.random()
        if pairs and r < 0.75:
            a, b = rng.choice(pairs)
            order: dict[str, Any] = {"type": "ATTACK", "pair": f"{a}-{b}"}
            if rng.random() < 0.15:
                order["repeat"] = "CONQUER"
                if rng.random() < 0.5:
                    order["stop"] = 2 + rng.randrange(2)
            if rng.random() < 0.15:
                order["advance"] = rng.choice(["MAX", 1, 2, 3])
            if state["armies"][a] < max(2, order.get("stop", 2)):
                order.pop("stop", None)
            return order
        if r < 0.9:
            return {"type": "END_OFFENSIVE"}
    mp = move_pairs(state, seat)
    if mp and rng.random() < 0.5:
        return _move(state, seat, rng, mp)
    return {"type": "END_TURN"}
