"""WWII Conquest: territory conquest for 2-6 commanders, humans and AI (seed 001).

Spec: ww2-conquest.md.  Each turn is several single-seat steps (trade, place,
attack, advance, regroup, end) under one ``turn_key``; AI seats, abandoned
seats and auto-commanded turns are played inside ``resolve``.

Where the platform shapes the rules (each noted where it is implemented):

- Orders come only from the seat that owes a decision, so the seat orders
  RESUME_COMMAND and ABANDON CONFIRM are offered in the prompt of the seat's
  own turn.  A seat under full auto-command (three missed turns in a row) is
  therefore owed a one-step prompt at each of its turn starts: "Resume command"
  (the player takes over this very turn), "Let auto-command play" (the AI plays
  the whole turn, attacks included) or abandon; its missed deadline lets the AI
  play.  The spec instead plays such turns instantly and resumes from the next
  turn (D23, 7.3); the player-visible result is the same except for the wait.
- ``default_order`` is ``{"type": "TIMEOUT"}``: ``resolve`` runs the light
  auto-command of the current phase and counts the miss (7.2).  As in the spec
  the counter returns to 0 when the player ends a turn by his own order or
  resumes command.
- PLACE may name several territories at once (one form for all reinforcements).
- Supply cards are ``c1``..``c42`` (card ``cN`` pictures territory #N) and
  ``c43``/``c44`` for the jokers J1/J2, so that hand contents are strings no
  public view contains.
- The notation follows the issue (``PLACE 3 Moscow``, ``MOVE 2 Ukraine
  Caucasus``, names or ids) and also reads the spec's ``PLACE ITA 6`` order.
- Lobby, invite codes, quick match and visibility (4.2, 4.3) are platform
  matters; the engine takes ``players``, ``mode``, ``timer``, ``round_limit``
  and ``ai_seats``.

The spec and the original text were compared: every difference found is
explained by the spec (decisions D1-D23), so the engine follows the spec.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.base import Event, IllegalOrder, Order, State, deep_copy
from app.games.conquest import ai, checks, flow, notation, prompts, views
from app.games.conquest import svg as board
from app.games.conquest.bots import random_turn_order
from app.games.conquest.state import clamp_options, robot_seat_ids, seat_ids, setup_state


class ConquestRules:
    slug = "conquest"
    #: missed turns have their own ladder here (auto-command, then full auto-command after
    #: three in a row), so the platform's civil disorder stays out of it
    handles_missed_deadlines = True
    title = "WW2 Conquest"
    conformance_options = [
        {"players": 2, "round_limit": 30},
        {"players": 4, "round_limit": 30, "ai_seats": 2, "mode": "domination"},
        {"players": 6, "round_limit": 30, "ai_seats": 1},
    ]
    conformance_max_steps = 20000

    def default_options(self) -> dict[str, Any]:
        return clamp_options({})

    def seats(self, options: dict[str, Any]) -> list[str]:
        return seat_ids(options)

    def robot_seats(self, options: dict[str, Any]) -> list[str]:
        """Seats played by the AI inside ``resolve`` (the last ``ai_seats`` seats)."""
        return robot_seat_ids(options)

    def setup(self, options: dict[str, Any], seats: list[str], rng: random.Random) -> State:
        state = setup_state(options, seats, rng)
        events: list[Event] = []
        from app.games.conquest import engine

        engine.start_turn(state, events)
        flow.settle(state, rng, events)
        return state

    def owed(self, state: State) -> dict[str, Any]:
        if state["result"] is not None:
            return {}
        seat = state["current"]
        return {seat: prompts.turn_prompt(state, seat)}

    def validate(self, state: State, seat: str, order: Order) -> None:
        checks.check(state, seat, order)

    def resolve(self, state: State, orders_by_seat: dict[str, Order], rng: random.Random) -> tuple[State, list[Event]]:
        new = deep_copy(state)
        events: list[Event] = []
        for seat in self.owed(state):
            if seat not in orders_by_seat:
                raise IllegalOrder(f"{seat} owes an order.")
            order = deep_copy(orders_by_seat[seat])
            checks.check(new, seat, order)
            flow.apply(new, seat, order, rng, events)
        return new, events

    def default_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """A missed deadline: resolve plays the light auto-command and counts the miss."""
        return {"type": "TIMEOUT"}

    def random_order(self, state: State, seat: str, rng: random.Random) -> Order:
        return random_turn_order(state, seat, rng)

    def ai_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """The spec's section 9 AI for the seat on turn (consumes no random numbers)."""
        if state["status"][seat] == "FULL_AUTO":
            return {"type": "AUTO"}
        return ai.next_order(state, seat, full=True)

    def turn_key(self, state: State) -> str:
        return f"R{state['round']}-{state['current']}"

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def secrets(self, state: State, seat: str) -> list[str]:
        return views.secrets(state, seat)

    def outcome(self, state: State) -> list[dict[str, Any]] | None:
        return views.outcome(state)

    def parse(self, text: str) -> Order:
        return notation.parse(text)

    def format(self, order: Order) -> str:
        return notation.format_order(order)

    def board_svg(self, view: dict[str, Any], seat: str | None) -> str:
        return board.render(view, seat)


RULES = ConquestRules()
