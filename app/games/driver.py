"""Play a game without the platform: seeded playthroughs and replays.

Used by the conformance tests, bots and benchmarks.  Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.base import ANYTIME_STEP, Event, Order, Rules, State, bot_order, step_rng


@dataclass
class Playthrough:
    """A game played from setup: its options, seed and every step's orders."""

    options: dict[str, Any]
    seed: str
    seats: list[str]
    initial: State
    state: State
    steps: list[dict[str, Order]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def start(rules: Rules, options: dict[str, Any] | None, seed: str) -> Playthrough:
    """Set a game up the way the platform does (step 0's rng)."""
    opts = {**rules.default_options(), **(options or {})}
    seats = rules.seats(opts)
    state = rules.setup(opts, seats, step_rng(seed, 0, "setup"))
    return Playthrough(opts, seed, seats, state, state)


def advance(rules: Rules, game: Playthrough, orders: dict[str, Order]) -> list[Event]:
    """Resolve one step with ``orders`` (one per owed seat) and record it.

    A step recorded by ``anytime`` (``{ANYTIME_STEP: ...}``) is applied the same way again.
    """
    step = len(game.steps) + 1
    if ANYTIME_STEP in orders:
        sent = orders[ANYTIME_STEP]
        new_state, events = rules.apply_anytime(
            game.state, sent["seat"], sent["order"], step_rng(game.seed, step, "anytime"))
    else:
        new_state, events = rules.resolve(game.state, orders, step_rng(game.seed, step))
    game.state = new_state
    game.steps.append(orders)
    game.events.extend(events)
    return events


def anytime(rules: Rules, game: Playthrough, seat: str, order: Order) -> list[Event]:
    """Apply an order ``seat`` sends at any time (the game's ``apply_anytime``) as a step of its own."""
    return advance(rules, game, {ANYTIME_STEP: {"seat": seat, "order": order}})


def random_orders(rules: Rules, game: Playthrough) -> dict[str, Order]:
    """A random legal order for every owed seat (bots)."""
    step = len(game.steps) + 1
    return {
        seat: rules.random_order(game.state, seat, step_rng(game.seed, step, f"bot:{seat}"))
        for seat in sorted(rules.owed(game.state))
    }


def ai_orders(rules: Rules, game: Playthrough) -> dict[str, Order]:
    """The game's bot order for every owed seat, from each seat's view and prompt only."""
    step = len(game.steps) + 1
    return {
        seat: bot_order(rules, game.state, seat, step_rng(game.seed, step, f"bot:{seat}"))
        for seat in sorted(rules.owed(game.state))
    }


def play_random(
    rules: Rules, options: dict[str, Any] | None, seed: str, max_steps: int = 20000
) -> Playthrough:
    """Play with random orders until the game ends or ``max_steps`` is reached."""
    game = start(rules, options, seed)
    while rules.outcome(game.state) is None and len(game.steps) < max_steps:
        advance(rules, game, random_orders(rules, game))
    return game


def replay(rules: Rules, options: dict[str, Any], seed: str, steps: list[dict[str, Order]]) -> State:
    """The state reached by replaying stored orders from setup."""
    game = start(rules, options, seed)
    for orders in steps:
        advance(rules, game, orders)
    return game.state
