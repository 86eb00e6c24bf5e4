"""Dual Powers: Revolution 1917, for two players or solo against the Opposition.

Options: ``solo`` (bool, default false), ``difficulty`` (1-6, solo only) and
``faction`` (``SOV`` or ``GOV``: the human's side in solo).  Seats: ``SOV`` and
``GOV``, or the human's faction alone in solo (the Opposition plays inside
``resolve``).

Order notation (one order a line; case does not matter)::

    OBJECTIVE C-RED-5A                      secret objective (both players at once)
    PLAY C-GRN-4 PASS                       play a card, no action
    PLAY C-RED-4 RECRUIT R05                recruit units (total value <= the card's)
    PLAY C-BLU-5A MOVE W01 TO WHT           Move: one controlled token one step
    PLAY C-GRN-4 DOUBLE R05 VIA BLU TO WHT  Double Move (VIA only for two steps)
    PLAY C-RED-3 REFRESH R03                Refresh an exhausted controlled token
    PLAY L-KER LEADER IN GRN SPECIAL        leader recruit, then the special action
    PLAY L-KOR LEADER SPECIAL-FIRST A-BLU   special first (Mobilize takes a connection)
    PLAY L-DZE SPY-FIRST                    Espionage now, place the leader afterwards
    PLACE GRN        /  PLACE NONE          ... the second part after SPY-FIRST
    UNREST SCORE                            the unrest winner scores
    UNREST BONUS DRAW                       ... or takes a bonus action instead

A bonus action (when the day marker ends on 15 or 31) follows the action:
``BONUS RECRUIT R01 IN GRN``, ``BONUS MOVE N3 TO PUR``, ``BONUS REFRESH R03``,
``BONUS DRAW`` or (solo) ``BONUS ORGANIZE``; e.g.
``PLAY C-PUR-4 RECRUIT R05 BONUS MOVE N3 TO PUR``.

Ids: regions RED GRN BLU WHT BRN PUR; connections A-RED ... A-PUR (A-X joins X
to the next region clockwise); command cards C-<region>-<2|3|4|5A|5B|6A|6B|7>;
leader cards and tokens L-LEN L-DZE L-KOL (SOV), L-KER L-MIL L-KOR (GOV);
units R01-R10 (SOV), W01-W10 (GOV); neutrals N1-N6, T-NEU, T-RED; Opposition
units O<level>-<n>; region tiles TILE-<region>.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from app.games.base import BaseRules, IllegalOrder, State
from app.games.dual_powers import board, bot, choices, notation, prompts, rounds, views
from app.games.dual_powers.seen import seen
from app.games.dual_powers.text import TEXT, msg
from app.games.dual_powers.text import seat as sname
from app.games.options import flag, known
from app.games.text import Msg, Render

Order = dict[str, Any]


class DualPowersRules(BaseRules):
    """The ``RULES`` object of Dual Powers (the Game protocol of app.games.base)."""

    slug = "dual_powers"
    title = "Dual Powers: Revolution 1917"
    text = TEXT
    conformance_options = [{}, {"solo": True, "difficulty": 3, "faction": "SOV"},
                           {"solo": True, "difficulty": 6, "faction": "GOV"}]
    conformance_max_steps = 2000

    def default_options(self) -> dict[str, Any]:
        return {"solo": False, "difficulty": 1, "faction": "SOV"}

    def seats(self, options: dict[str, Any]) -> list[str]:
        return rounds.seats_for(options)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {**self.default_options(), **options}
        known(opts, list(self.default_options()), self.title)
        opts["solo"] = flag("solo", opts["solo"])
        rounds.normalise_options(opts)
        return opts

    def setup(self, options: dict[str, Any], seats: list[str], rng: Any) -> State:
        if list(seats) != rounds.seats_for(options):
            raise ValueError(f"seats must be {rounds.seats_for(options)}")
        return rounds.setup(options, rng)

    def owed(self, state: State) -> dict[str, dict[str, Any]]:
        return prompts.owed(state)

    def validate(self, state: State, seat: str, order: Order) -> None:
        if seat not in prompts.owing(state):
            if state["phase"] == "over":
                raise TEXT.refuse("refuse.game_over")
            now = rounds.current_seat(state)
            if now:
                raise TEXT.refuse("refuse.not_your_turn_now", seat=sname(now))
            raise TEXT.refuse("refuse.nothing_owed")
        rounds.apply_order(copy.deepcopy(state), seat, copy.deepcopy(order), None, [])

    def resolve(self, state: State, orders_by_seat: dict[str, Order], rng: Any) -> tuple[State, list[Any]]:
        new = copy.deepcopy(state)
        events: list[dict[str, Any]] = []
        owed = self.owed(new)
        for seat in sorted(owed, key=["SOV", "GOV"].index):
            order = orders_by_seat.get(seat)
            if order is None:
                order = self.default_order(new, seat, rng)
            try:
                self.validate(new, seat, order)
            except IllegalOrder as exc:
                events.append({"text": msg("event.default_used", seat=sname(seat), reason=exc.message),
                               "to": [seat]})
                order = self.default_order(new, seat, rng)
            rounds.apply_order(new, seat, copy.deepcopy(order), rng, events)
        rounds.run(new, rng, events)
        return new, events

    def default_order(self, state: State, seat: str, rng: Any) -> Order:
        phase = state["phase"]
        if phase == "objective":
            return choices.default_objective(state, seat)
        if phase == "action":
            return choices.default_play(state, seat)
        if phase == "part2":
            return {"type": "PLACE", "region": state["tiles"]["unrest"]}
        if phase == "unrest":
            return {"type": "UNREST", "choice": "SCORE"}
        raise TEXT.refuse("refuse.nothing_owed")

    def random_order(self, state: State, seat: str, rng: Any) -> Order:
        phase = state["phase"]
        if phase == "objective":
            cards = sorted(choices.command_cards(state["hands"][seat]), key=lambda c: c)
            return {"type": "OBJECTIVE", "card": rng.choice(cards)}
        if phase == "action":
            return choices.random_play(state, seat, rng)
        if phase == "part2":
            return choices.random_place(state, seat, rng)
        if phase == "unrest":
            return choices.random_unrest(state, seat, rng)
        raise TEXT.refuse("refuse.nothing_owed")

    def ai_order(self, view: dict[str, Any], prompt: dict[str, Any], rng: Any) -> Order:
        """The greedy bot's order, from the seat's view only (``seen``)."""
        return bot.best_order(seen(view), view["seat"], rng)

    def turn_key(self, state: State) -> str:
        phase = state["phase"]
        rnd = state["round"]
        if phase == "objective":
            return f"R{rnd}-objective"
        if phase == "action":
            return f"R{rnd}-T{state['turn'] + 1}"
        if phase == "part2":
            return f"R{rnd}-T{state['turn'] + 1}-part2"
        if phase == "unrest":
            return f"R{rnd}-unrest"
        return "over"

    def turn_label(self, turn_key: str) -> Msg | str:
        """``R1-objective``, ``R2-T3``, ``R2-T3-part2``, ``R2-unrest``, ``over`` as players read them."""
        if turn_key == "over":
            return msg("turn.over")
        found = re.fullmatch(r"R(\d+)-(?:(objective|unrest)|T(\d+)(-part2)?)", turn_key)
        if not found:
            return turn_key
        rnd = int(found[1])
        if found[2]:
            return msg(f"turn.{found[2]}", round=rnd)
        return msg("turn.part2" if found[4] else "turn.action", round=rnd, turn=int(found[3]))

    # what a seat sees, the result and the notation: the game's own modules
    view = staticmethod(views.view)
    secrets = staticmethod(views.secrets)
    outcome = staticmethod(views.outcome)
    parse = staticmethod(notation.parse_order)
    format = staticmethod(notation.format_order)

    def board_svg(self, view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
        return board.board_svg(view, seat, tr)


RULES = DualPowersRules()
