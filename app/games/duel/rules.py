"""Dorfromantik: The Duel, for two players placing the same tile each turn.

Rules: ``shared/rules/dorfromantik-duel.md``.  Each turn is one simultaneous
step: both seats owe a placement of the same revealed tile in their own area.

Hidden information: nothing in the state is private to one seat, so
``secrets`` returns ``[]``.  The stack order and the three boxed tiles are
hidden from everyone (never in a view until the game is over); a seat's
sealed order lives on the platform until the step resolves.

Notes on the rules text:

- The spec and the original rule summary (seed 003) were compared point by
  point (reveal rule, the 3 opening task turns, the end-of-game extension,
  placement and task rules, flags, longest rail/river, scoring pad); every
  difference is one the spec explains (simultaneous online turns D8/D11,
  HOUSE data D1/D2/D4, tie-break D14, automatic placement D9/D10), so the
  spec is followed throughout.
- Check 3 of §5.3 (E_ALREADY_FINAL) is the platform's: sealed orders are kept
  outside the state, so the engine never sees a second order for a turn.
- An order made by ``default_order`` carries ``"auto": True`` (``AUTO`` in the
  notation); ``forfeit_after`` (default 3, 0 = off) such orders in a row
  forfeit the game (§5.6).  A forced PASS neither counts nor breaks the run.
  A missing or unusable order reaching ``resolve`` is replaced by the
  automatic placement and counts as one.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.base import BaseRules, Event, IllegalOrder, Order, State
from app.games.duel import board, bot, data, notation, views
from app.games.duel import state as st
from app.games.duel.geometry import cell_key
from app.games.duel.placement import automatic_placement, grid_of, legal_placements, score
from app.games.duel.text import TEXT
from app.games.options import known, whole
from app.games.text import Msg, Render, msg


class DuelRules(BaseRules):
    """The ``RULES`` object of the ``duel`` game."""

    slug = "duel"
    title = "Dorfromantik: The Duel"
    text = TEXT
    conformance_options: list[dict[str, Any]] = [{}, {"forfeit_after": 0}]
    conformance_max_steps = 200
    #: a report draws the seat's own area first, with its numbered candidate positions
    board_per_seat = True

    def default_options(self) -> dict[str, Any]:
        """``forfeit_after``: consecutive automatic placements that forfeit (0: never);
        ``deadline_hours``: suggested turn deadline."""
        return {"forfeit_after": data.FORFEIT_AFTER, "deadline_hours": data.DEADLINE_HOURS}

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {**self.default_options(), **options}
        known(opts, list(self.default_options()), self.title)
        return {"forfeit_after": whole("forfeit_after", opts["forfeit_after"], 0),
                "deadline_hours": whole("deadline_hours", opts["deadline_hours"], 1)}

    def seats(self, options: dict[str, Any]) -> list[str]:
        return list(st.SEATS)

    def setup(self, options: dict[str, Any], seats: list[str], rng: random.Random) -> State:
        opts = {**self.default_options(), **(options or {})}
        state, _ = st.setup(opts, seats, rng)
        return state

    def owed(self, state: State) -> dict[str, dict[str, Any]]:
        if state.get("over") or not state.get("current"):
            return {}
        return {s: views.prompt(state, s) for s in state["seats"] if s not in state["passing"]}

    def validate(self, state: State, seat: str, order: Order) -> None:
        """:raises IllegalOrder: the first failing check of §5.3 (``.code`` on placement errors)."""
        try:
            st.check_order(state, seat, order)
        except IllegalOrder:
            raise
        except (TypeError, KeyError, ValueError, AttributeError) as exc:  # pragma: no cover - defensive
            raise TEXT.refuse("refuse.bad_order") from exc

    def resolve(self, state: State, orders_by_seat: dict[str, Order], rng: random.Random) -> tuple[State, list[Event]]:
        forfeit_after = int(state["options"].get("forfeit_after", data.FORFEIT_AFTER))
        return st.resolve(state, orders_by_seat, forfeit_after)

    def default_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """The deterministic automatic placement of §5.6 (marked ``auto``)."""
        cur = state["current"]
        found = automatic_placement(state["areas"][seat], cur["tile"], cur["marker"])
        if found is None:
            return {"type": "PASS"}
        (q, r), k = found
        return {
            "type": "PLACE",
            "tile": cur["tile"],
            "position": cell_key((q, r)),
            "rotation": k,
            "auto": True,
        }

    def random_order(self, state: State, seat: str, rng: random.Random) -> Order:
        cur = state["current"]
        options = legal_placements(grid_of(state["areas"][seat]), cur["tile"], cur["marker"])
        if not options:
            return {"type": "PASS"}
        (q, r), k = rng.choice(options)
        return {"type": "PLACE", "tile": cur["tile"], "position": cell_key((q, r)), "rotation": k}

    def ai_order(self, view: dict[str, Any], prompt: dict[str, Any], rng: random.Random) -> Order:
        if view.get("current") is None:
            return {"type": "PASS"}
        return bot.best_order(view, rng)

    def turn_key(self, state: State) -> str:
        return f"T{state['turn']}"

    def turn_label(self, turn_key: str) -> Msg | str:
        """``T5`` -> "turn 5"."""
        if turn_key[:1] == "T" and turn_key[1:].isdigit():
            return msg("turn.turn", turn=int(turn_key[1:]))
        return turn_key

    view = staticmethod(views.view)

    def secrets(self, state: State, seat: str) -> list[str]:
        """Always ``[]``: nothing in the state is private to one seat (see module docstring)."""
        return []

    def outcome(self, state: State) -> list[dict[str, Any]] | None:
        """Ranking by total, then task subtotal (D14); forfeits lose (§5.6)."""
        if not state.get("over"):
            return None
        final = state.get("final") or {s: score(state["areas"][s]) for s in state["seats"]}
        seats = state["seats"]
        forfeited = set(state.get("forfeited", []))
        if forfeited == set(seats):
            # Both forfeited on the same turn: a draw.
            return [{"seat": s, "score": final[s]["total"], "rank": 1} for s in seats]

        def key(s: str) -> tuple[int, int, int]:
            if forfeited:
                return (0 if s in forfeited else 1, 0, 0)
            return (1, final[s]["total"], final[s]["subtotal"])

        order = sorted(state["seats"], key=lambda s: tuple(-x for x in key(s)))
        result: list[dict[str, Any]] = []
        for i, s in enumerate(order):
            rank = i + 1
            if i and key(s) == key(order[i - 1]):
                rank = result[-1]["rank"]
            result.append({"seat": s, "score": final[s]["total"], "rank": rank})
        return result

    parse = staticmethod(notation.parse)
    format = staticmethod(notation.format_order)

    def board_svg(self, view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
        return board.board_svg(view, seat, tr or TEXT.english)


RULES = DuelRules()
