"""The solo bot's look-ahead: the best few orders are played out to the round's scoring.

Against the Opposition the bot knows what the automaton does with each card, but not
which cards it holds nor (until revealed) its own objective.  So it *deals the unseen
cards*: for each of a few deals of the cards its seat has not seen (the deck, the
Opposition's pile, its own unseen objective), shuffled with the bot's own dice, the
Opposition plays its turns as the rulebook says, the bot's later turns are played
cheaply (*keep the calendar moving*), and the round is scored.  An order's worth is its
average outcome over the deals, every order being tried on the same deals: the score
after the round and, in the last round, whether the game is won.

Only the orders the greedy judgement ranks highest are played out (``SHORTLIST``); what
a deal reveals never reaches the order, which is chosen from averages over deals the
bot made up itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.base import IllegalOrder, State
from app.games.dual_powers import choices, data, position, rounds
from app.games.dual_powers.choices import clone
from app.games.dual_powers.seen import UNSEEN

Order = dict[str, Any]
#: The greedy judgement of a board (``bot.evaluate``): track points count twice.
Judge = Callable[[State, str], float]

#: How many of the greedy judgement's best orders are played out.
SHORTLIST = 8
#: How many deals of the unseen cards each of them is played out on.
DEALS = 12
#: Winning the game is worth this many points of the track (last round).
WIN_VALUE = 24.0
#: The share of the next round's prospects (units, cards, regions) counted with the round's outcome.
FUTURE_SHARE = 1.0
#: Steps of a play-out (a safety bound: a round has at most 9 turns and the unrest choice).
MAX_STEPS = 30


def deal_unseen(state: State, seat: str, rng: random.Random) -> State:
    """A copy of ``state`` with the cards ``seat`` has not seen dealt at random (*deal the unseen cards*)."""
    sim: State = clone(state)
    unseen_own = seat in sim.get(UNSEEN, [])
    pool = list(sim["deck"]) + list(sim["opp_pile"])
    if unseen_own and sim["objectives"].get(seat):
        pool.append(sim["objectives"][seat])
    rng.shuffle(pool)
    if unseen_own and sim["objectives"].get(seat):
        sim["objectives"][seat] = pool.pop()
    n = len(sim["opp_pile"])
    sim["opp_pile"], sim["deck"] = pool[:n], pool[n:]
    return sim


def keep_the_calendar_moving(state: State, seat: str) -> Order:
    """The play-out's own turns: the order a missed deadline would make (fewest days, no action)."""
    phase = state["phase"]
    if phase == "unrest":
        return {"type": "UNREST", "choice": "SCORE"}
    if phase == "part2":  # Espionage first: the leader goes where the objective it saw is
        card = state["objectives"].get(seat)
        return {"type": "PLACE", "region": data.CARDS[card]["region"] if card else state["tiles"]["unrest"]}
    return choices.default_play(state, seat)


def play_out(state: State, seat: str, rng: random.Random) -> State:
    """Play ``state`` on to the end of its round's scoring (or of the game)."""
    start = state["round"]
    events: list[dict[str, Any]] = []
    rounds.run(state, rng, events)
    for _ in range(MAX_STEPS):
        if state.get("winner") or state["round"] != start or rounds.current_seat(state) != seat:
            break
        try:
            rounds.apply_order(state, seat, keep_the_calendar_moving(state, seat), rng, events)
        except IllegalOrder:
            break
        rounds.run(state, rng, events)
    return state


def outcome_value(before: State, after: State, seat: str, judge: Judge) -> float:
    """What a played-out round brought: points on the track, and the game when it ended;
    before the last round, also how the next round starts (*save for the rounds to come*)."""
    sign = position.sign(before, seat)
    gained = float(sign * (after["s"] - before["s"]))
    if after.get("winner"):
        return gained + (WIN_VALUE if after["winner"] == seat else -WIN_VALUE)
    return gained + FUTURE_SHARE * (judge(after, seat) / 2 - float(sign * after["s"]))


def after_order(state: State, seat: str, order: Order, rng: random.Random) -> State | None:
    sim: State = clone(state)
    try:
        rounds.apply_order(sim, seat, clone(order), rng, [])
    except IllegalOrder:
        return None
    return sim


def look_ahead(state: State, seat: str, shortlist: list[tuple[float, Order]], rng: Any, judge: Judge) -> Order:
    """The shortlisted order whose played-out rounds go best on average (ties: greedy rank)."""
    seeds = [rng.random() for _ in range(DEALS)]
    deals = [deal_unseen(state, seat, random.Random(s)) for s in seeds]
    best: tuple[float, float] | None = None
    chosen = shortlist[0][1]
    for greedy, order in shortlist:
        total = 0.0
        for k, deal in enumerate(deals):
            dice = random.Random(seeds[k])
            sim = after_order(deal, seat, order, dice)
            if sim is None:
                total = float("-inf")
                break
            total += outcome_value(deal, play_out(sim, seat, dice), seat, judge)
        key = (total / DEALS, greedy)
        if best is None or key > best:
            best, chosen = key, order
    return chosen
