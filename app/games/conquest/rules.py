"""WWII Conquest: territory conquest for 2-6 commanders, humans and AI (seed 001).

Spec: ww2-conquest.md.  Each turn is several single-seat steps (trade, place,
attack, advance, regroup, end) under one ``turn_key``; AI seats, abandoned
seats and auto-commanded turns are played inside ``resolve``.

How the spec meets the platform (each noted where it is implemented):

- Seat orders at any time (5.0, 7.3, 7.4, D23) use the platform's anytime extra:
  ``anytime_prompt`` offers every human seat still in the game "Abandon" (a
  confirmation box, final) and a seat under full auto-command also "Resume
  command"; ``apply_anytime`` applies them at once, on turn or not.  RESUME_COMMAND
  puts the seat in ``resuming``: it is ACTIVE with its counter at 0 from its next
  turn start.  ABANDON CONFIRM by the seat on turn lets the AI finish that turn at
  once.  The seat on turn may also send ABANDON CONFIRM as an order of its step
  (typed or mailed).
- A seat under full auto-command (three missed turns in a row) is played like an
  AI seat inside ``resolve``: each of its turns is played at once, attacks
  included, at its turn start, and nobody waits for it, while some human is in
  command.  When no human in field is in command (a lone human among AI seats),
  its turn is owed instead ("Let auto-command play this turn", AUTO_COMMAND) and
  its deadline lets auto-command play it, so that he has time to resume command:
  the armistice of 6.2 (c) comes after three whole rounds under auto-command, as
  the seed says (a round in which a human was in command, even one who missed
  his deadline, does not count).
- ``default_order`` is ``{"type": "TIMEOUT"}``: ``resolve`` runs the light
  auto-command of the current phase and counts the miss (7.2).  As in the spec
  the counter returns to 0 when the player ends a turn by his own order, and at
  the turn start from which a RESUME_COMMAND takes effect.
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
import re
from typing import Any

from app.games.base import BaseRules, Event, Order, State, deep_copy
from app.games.conquest import board, bot, checks, data, engine, flow, notation, prompts, views
from app.games.conquest.bot import random_turn_order
from app.games.conquest.state import clamp_options, label, robot_seat_ids, seat_ids, setup_state
from app.games.conquest.text import TEXT
from app.games.options import flag, known, one_of, whole
from app.games.text import Msg, Render, msg, name


class ConquestRules(BaseRules):
    slug = "conquest"
    #: missed turns have their own ladder here (auto-command, then full auto-command after
    #: three in a row), so the platform's civil disorder stays out of it
    handles_missed_deadlines = True
    title = "WW2 Conquest"
    text = TEXT
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

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The spec's options (4.1): players 2-6, mode, timer, round_limit none/30/50/80, and
        ai_seats up to players - 1; and the HOUSE ``balance`` for two commanders (data.BALANCE_ARMIES)."""
        opts = {**data.DEFAULT_OPTIONS, **options}
        known(opts, list(data.DEFAULT_OPTIONS), self.title)
        players = one_of("players", opts["players"], list(data.PLAYER_COUNTS))
        one_of("mode", opts["mode"], list(data.MODES))
        checked = {
            "players": players, "mode": opts["mode"],
            "timer": one_of("timer", opts["timer"], data.TIMERS),
            "round_limit": one_of("round_limit", opts["round_limit"] or 0, data.ROUND_LIMITS),
            "ai_seats": whole("ai_seats", opts["ai_seats"] or 0, 0, players - 1),
            "balance": flag("balance", opts["balance"]),
        }
        return clamp_options(checked)

    def robot_seats(self, options: dict[str, Any]) -> list[str]:
        """Seats played by the AI inside ``resolve`` (the last ``ai_seats`` seats)."""
        return robot_seat_ids(options)

    def setup(self, options: dict[str, Any], seats: list[str], rng: random.Random) -> State:
        state = setup_state(options, seats, rng)
        events: list[Event] = []
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
                raise TEXT.refuse("refuse.owes", seat=label(state, seat))
            order = deep_copy(orders_by_seat[seat])
            checks.check(new, seat, order)
            flow.apply(new, seat, order, rng, events)
        return new, events

    def anytime_prompt(self, state: State, seat: str) -> dict[str, Any] | None:
        """RESUME_COMMAND / ABANDON CONFIRM, which a human seat may send at any time."""
        return prompts.anytime_prompt(state, seat)

    def apply_anytime(
        self, state: State, seat: str, order: Order, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Apply a seat order at once (spec 7.3, 7.4), then the automatic play that follows."""
        checks.check_anytime(state, seat, order)
        new = deep_copy(state)
        events: list[Event] = []
        flow.apply_seat_order(new, seat, deep_copy(order), rng, events)
        flow.settle(new, rng, events)
        return new, events

    def default_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """A missed deadline: resolve plays the light auto-command and counts the miss."""
        return {"type": "TIMEOUT"}

    def random_order(self, state: State, seat: str, rng: random.Random) -> Order:
        return random_turn_order(state, seat, rng)

    def ai_order(self, view: dict[str, Any], prompt: dict[str, Any], rng: random.Random) -> Order:
        """The spec's section 9 AI for the seat on turn, from its view (consumes no random numbers)."""
        me = view["viewer"]
        if any(c["seat"] == me and c["status"] == "FULL_AUTO" for c in view["commanders"]):
            return {"type": "AUTO"}  # a state saved while such a seat owed its turn
        return bot.view_order(view, full=True)

    def turn_key(self, state: State) -> str:
        return f"R{state['round']}-{state['current']}"

    def turn_label(self, turn_key: str) -> Msg | str:
        """``R3-P2`` -> "round 3, Commander 2"."""
        found = re.fullmatch(r"R(\d+)-(P\d)", turn_key)
        if not found:
            return turn_key
        return msg("turn.round", round=int(found[1]), seat=name("seat", found[2]))

    # what a seat sees, the result and the notation: the game's own modules
    view = staticmethod(views.view)
    secrets = staticmethod(views.secrets)
    outcome = staticmethod(views.outcome)
    parse = staticmethod(notation.parse)
    format = staticmethod(notation.format_order)

    def board_svg(self, view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
        return board.render(view, seat, tr or TEXT.english)


RULES = ConquestRules()
