"""The ``RULES`` object of Empire: the Game protocol over the rule modules."""

from __future__ import annotations

import random
from typing import Any

from app.games.base import BaseRules, IllegalOrder
from app.games.empire import bot, data, phases, tribute
from app.games.empire import state as st
from app.games.empire.board import board_svg
from app.games.empire.lines import order_in_words
from app.games.empire.notation import canonical, format_order, parse
from app.games.empire.prompts import ORDER_TYPE, owed_seats, prompt
from app.games.empire.seen import seen
from app.games.empire.state import State, clone, ev, round_order, who
from app.games.empire.text import TEXT, joined, positions, troops_by_group
from app.games.empire.views import view
from app.games.empire.windows import apply_admin, apply_answer, apply_lose, apply_propose, apply_route
from app.games.options import known
from app.games.text import Msg, Render, listing, msg


class EmpireRules(BaseRules):
    slug = "empire"
    title = "Empire: the Emperor's tribute"
    text = TEXT
    conformance_options = [
        {"players": 2, "mode": "short", "round_limit": 4},
        {"players": 4, "mode": "short", "round_limit": 3},
        {"players": 3, "mode": "long", "round_limit": 3},
    ]
    conformance_max_steps = 400

    # ------------------------------------------------------------ setup
    def default_options(self) -> dict[str, Any]:
        """``round_limit`` None means the spec's default for the mode (20 short, 30 long)."""
        return {"players": 4, "mode": "short", "round_limit": None}

    def _options(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = {**self.default_options(), **(options or {})}
        if opts["round_limit"] is None and opts["mode"] in data.ROUND_LIMIT:
            opts["round_limit"] = data.ROUND_LIMIT[opts["mode"]]
        players, mode, limit = opts["players"], opts["mode"], opts["round_limit"]
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ValueError("players must be 2, 3 or 4")
        if mode not in data.ROUND_LIMIT:
            raise ValueError("mode must be 'short' or 'long'")
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise ValueError("round_limit must be a whole number of rounds >= 1")
        return opts

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        known(options, list(self.default_options()), self.title)
        return self._options(options)

    def seats(self, options: dict[str, Any]) -> list[str]:
        return [f"P{i}" for i in range(1, self._options(options)["players"] + 1)]

    def setup(self, options: dict[str, Any], seats: list[str], rng: random.Random) -> State:
        state = st.setup(self._options(options), seats, rng)
        phases.start_round(state, rng)
        return state

    # ------------------------------------------------------------ queries
    def owed(self, state: State) -> dict[str, dict[str, Any]]:
        return {s: prompt(state, s) for s in owed_seats(state)}

    def turn_key(self, state: State) -> str:
        if state["phase"] == "over":
            return f"R{state['round']}-END"
        return f"R{state['round']}-{state['phase']}"

    def turn_label(self, turn_key: str) -> Msg | str:
        """``R2-T3A`` -> "round 2, phase 3A Diplomacy: proposals"; ``R3-END``: game over."""
        rnd, _, phase = turn_key.partition("-")
        if not (rnd[:1] == "R" and rnd[1:].isdigit()):
            return turn_key
        if phase == "END":
            return msg("phase.over")
        if f"phase.{phase}" not in TEXT.entries:
            return turn_key
        return msg("turn.round", round=int(rnd[1:]), phase=msg(f"phase.{phase}"))

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view(state, seat)

    def secrets(self, state: State, seat: str) -> list[str]:
        if state["phase"] == "over" or seat not in state["players"]:
            return []
        pl = state["players"][seat]
        done = [f"objective:{o}:completed" for o in pl["objectives"] if o in pl["completed"]]
        return [f"objective:{o}" for o in pl["objectives"]] + done

    def outcome(self, state: State) -> list[dict[str, Any]] | None:
        if state["phase"] != "over":
            return None
        winners = state.get("winners", [])

        def key(s: str) -> list[int]:
            pl = state["players"][s]
            return [1 if s in winners else 0, len(pl["completed"])] + phases.tiebreak(state, s) + [
                0 if pl["eliminated"] else 1, pl.get("eliminated_round", 0)]

        keys = {s: key(s) for s in state["seats"]}
        order = sorted(state["seats"], key=lambda s: keys[s], reverse=True)
        return [{"seat": s, "score": len(state["players"][s]["completed"]),
                 "rank": 1 + sum(1 for o in state["seats"] if keys[o] > keys[s])} for s in order]

    # ------------------------------------------------------------ orders
    def board_svg(self, view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
        return board_svg(view, seat, tr)

    def parse(self, text: str) -> dict[str, Any]:
        return parse(text)

    def format(self, order: dict[str, Any]) -> str:
        return format_order(canonical(order))

    def seat_label(self, state: State, seat: str) -> Msg:
        """A seat as players read it everywhere: its colour and its platform name, "GREEN (Player 3)"
        (the platform's own ``seat.P3`` cannot see the state, so not the colour)."""
        return msg("seat.named", colour={"msg": f"colour.{state['colour'][seat]}"}, seat={"msg": f"seat.{seat}"})

    def order_words(self, order: dict[str, Any]) -> Any:
        """An order told in words (what was played for a seat): each line, not its notation."""
        return order_in_words(order)

    def _check(self, state: State, seat: str, order: Any) -> dict[str, Any]:
        """The canonical order, or IllegalOrder; ``state`` is a scratch copy it may change."""
        if seat not in owed_seats(state):
            raise TEXT.refuse("refuse.no_window")
        order = canonical(order)
        want = ORDER_TYPE[state["phase"]]
        if order["type"] not in (want, "PASS"):
            raise TEXT.unreadable("unreadable.wrong_window", want=want, got=order["type"])
        lines = order["lines"]
        ph = state["phase"]
        if ph == "T3A":
            errors = apply_propose(state, seat, lines)
        elif ph == "T3B":
            errors = apply_answer(state, seat, lines)
        elif ph == "T4":
            errors = apply_admin(state, seat, lines)
        elif ph in ("T7A", "T7B"):
            errors = apply_lose(state, seat, lines)[0]
        elif ph == "T8":
            errors = apply_route(state, seat, lines)
        else:
            errors = tribute.apply_pay(state, seat, lines)
        if errors:
            raise TEXT.refuse("refuse.rejected", errors=joined(errors))
        return {"type": want, "lines": lines}

    def validate(self, state: State, seat: str, order: Any) -> None:
        self._check(clone(state), seat, order)

    def default_order(self, state: State, seat: str, rng: random.Random) -> dict[str, Any]:
        return bot.default_order(state, seat)

    def random_order(self, state: State, seat: str, rng: random.Random) -> dict[str, Any]:
        return bot.random_order(state, seat, rng)

    def ai_order(self, view: dict[str, Any], prompt: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """The planning bot's order, from the seat's view; its default when the plan does not
        pass validation on what the seat may know."""
        state, seat = seen(view), view["seat"]
        order = bot.plan(state, seat, rng)
        try:
            self.validate(state, seat, order)
        except IllegalOrder:
            return bot.default_order(state, seat)
        return order

    # ------------------------------------------------------------ resolution
    def _orders(self, state: State, orders: dict[str, Any],
                events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """A valid canonical order for every owed seat (defaults for missing or invalid ones)."""
        out = {}
        for seat in owed_seats(state):
            try:
                out[seat] = self._check(clone(state), seat, orders.get(seat))
            except IllegalOrder as exc:
                out[seat] = canonical(bot.default_order(state, seat))
                if orders.get(seat) is not None:
                    events.append(ev(msg("event.order_unusable", why=exc.message), [seat]))
        return out

    def resolve(self, state: State, orders_by_seat: dict[str, Any],
                rng: random.Random) -> tuple[State, list[dict[str, Any]]]:
        state = clone(state)
        events: list[dict[str, Any]] = []
        orders = self._orders(state, clone(orders_by_seat or {}), events)
        ph = state["phase"]
        seats = [s for s in round_order(state) if s in orders]
        if ph == "T3A":
            for seat in seats:
                apply_propose(state, seat, orders[seat]["lines"])
            events += phases.after_proposals(state)
        elif ph == "T3B":
            for seat in seats:
                apply_answer(state, seat, orders[seat]["lines"])
            events += phases.resolve_diplomacy(state)
        elif ph == "T4":
            for seat in seats:
                log: list[Any] = []
                apply_admin(state, seat, orders[seat]["lines"], log)
                if log:
                    events.append(ev(msg("event.admin", seat=who(state, seat),
                                         actions=joined(log, "join.semicolon"))))
            events.append(ev(msg("event.positions", positions=positions(state["troops"]))))
            events += phases.after_admin(state, rng)
        elif ph == "T7A":
            missed = []
            for seat in seats:
                if not orders[seat]["lines"]:
                    missed.append(seat)
                    continue
                _, victim, gone = apply_lose(state, seat, orders[seat]["lines"])
                events.append(ev(msg("event.lose", seat=who(state, victim), troops=troops_by_group(gone))))
            events += phases.after_lose(state, missed)
        elif ph == "T7B":
            fallback = []
            for seat in seats:
                victim = state["choosers"][seat]
                if not orders[seat]["lines"]:
                    fallback.append(victim)
                    continue
                apply_lose(state, seat, orders[seat]["lines"])
                gone = orders[seat]["lines"][0]["troops"]
                events.append(ev(msg("event.lose_for", seat=who(state, seat), troops=troops_by_group(gone),
                                     victim=who(state, victim))))
            events += phases.default_losses(state, fallback)
        elif ph == "T8":
            for seat in seats:
                before = set(state["troops"])
                gold = state["players"][seat]["res"]["GOLD"]
                apply_route(state, seat, orders[seat]["lines"])
                new = [t for t in state["troops"] if t not in before]
                gained = state["players"][seat]["res"]["GOLD"] - gold
                parts = ([msg("route.gold", n=gained)] if gained else []) + (
                    [msg("route.troops", n=len(new), troops=troops_by_group(new))] if new else [])
                if parts:
                    events.append(ev(msg("event.route", seat=who(state, seat), parts=listing(parts))))
            events += phases.after_routing(state, rng)
        elif ph == "T9":
            for seat in seats:
                for d in orders[seat]["lines"]:
                    tribute.pay(state, seat, d["res"])
                    events.append(ev(msg("event.pays_tribute", seat=who(state, seat),
                                         what=tribute.describe(d["res"]))))
            state["pay_window"] = {}
            events += phases.end_round(state, rng)
        return state, events


RULES = EmpireRules()
