"""A tiny game for platform tests: each round both seats secretly pick 1-3.

The higher pick scores its value; ties score nothing.  Each seat also holds a
secret "charm" (a private string) to check that views do not leak.  Three
rounds by default (option ``rounds``).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from app.games.base import BaseRules, IllegalOrder, InvalidOrder


class ToyRules(BaseRules):
    slug = "toy"
    title = "Toy Duel"

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 3, "solo": False}

    def seats(self, options):
        return ["A"] if options.get("solo") else ["A", "B"]

    def setup(self, options, seats, rng: random.Random):
        return {"round": 1, "rounds": options["rounds"], "seats": seats,
                "score": {s: 0 for s in seats},
                "charm": {s: f"charm-{s}-{rng.randrange(10**9)}" for s in seats}}

    def owed(self, state):
        if state["round"] > state["rounds"]:
            return {}
        prompt = {"kind": "pick", "title": f"Pick a number for round {state['round']}",
                  "example": "PICK 2",
                  "forms": [{"label": "Pick", "base": {"type": "PICK"},
                             "fields": [{"name": "n", "label": "Number", "type": "choice",
                                         "choices": [{"value": i, "label": str(i)} for i in (1, 2, 3)]}]}]}
        return {s: prompt for s in state["seats"]}

    def validate(self, state, seat, order):
        if seat not in self.owed(state):
            raise IllegalOrder(f"{seat} owes nothing now")
        if not isinstance(order, dict) or order.get("type") != "PICK":
            raise IllegalOrder("An order is PICK followed by 1, 2 or 3.")
        if order.get("n") not in (1, 2, 3):
            raise IllegalOrder(f"{order.get('n')!r} is not 1, 2 or 3.")

    def resolve(self, state, orders, rng):
        new = copy.deepcopy(state)
        picks = {s: orders[s]["n"] for s in state["seats"]}
        if len(picks) == 1:
            picks["house"] = rng.randint(1, 3)
        best = max(picks.values())
        winners = [s for s, n in picks.items() if n == best]
        text = ", ".join(f"{s} picked {n}" for s, n in sorted(picks.items()))
        events = [{"text": f"Round {state['round']}: {text}.", "to": None}]
        if len(winners) == 1 and winners[0] in new["score"]:
            new["score"][winners[0]] += best
        for s in state["seats"]:
            events.append({"text": f"Your charm is still {state['charm'][s]}.", "to": [s]})
        new["round"] += 1
        return new, events

    def default_order(self, state, seat, rng):
        return {"type": "PICK", "n": 1}

    def random_order(self, state, seat, rng):
        return {"type": "PICK", "n": rng.randint(1, 3)}

    def turn_key(self, state):
        return f"R{state['round']}"

    def view(self, state, seat):
        v = {"round": state["round"], "rounds": state["rounds"], "score": dict(state["score"])}
        if seat is not None:
            v["private"] = {"charm": state["charm"][seat]}
        return v

    def outcome(self, state):
        if state["round"] <= state["rounds"]:
            return None
        ranked = sorted(state["seats"], key=lambda s: -state["score"][s])
        return [{"seat": s, "score": state["score"][s], "rank": i + 1} for i, s in enumerate(ranked)]

    def parse(self, text):
        parts = str(text).split()
        if len(parts) != 2 or parts[0].upper() != "PICK" or parts[1] not in ("1", "2", "3"):
            raise InvalidOrder(f"cannot read {text!r}: write PICK 1, PICK 2 or PICK 3")
        return {"type": "PICK", "n": int(parts[1])}

    def format(self, order):
        return f"PICK {order['n']}"

    def secrets(self, state, seat):
        return [state["charm"][seat]]

    def board_svg(self, view, seat, tr=None):
        score = " ".join(f"{s}:{n}" for s, n in sorted(view["score"].items()))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40">'
                f'<text x="5" y="25">Round {view["round"]} {score}</text></svg>')


RULES = ToyRules()


class ToyAnytimeRules(ToyRules):
    """The toy with the anytime extra: a seat may resign (for good) or leave a note at any time.

    A resigned seat owes nothing more and picks 1 in every later round; a note rolls a die
    (the anytime rng) into the log.  The game ends early when every seat has resigned.
    """

    slug = "toy_anytime"
    title = "Toy Duel with resignations"

    def setup(self, options, seats, rng):
        return {**super().setup(options, seats, rng), "resigned": [], "notes": 0}

    def owed(self, state):
        return {s: p for s, p in super().owed(state).items() if s not in state["resigned"]}

    def resolve(self, state, orders, rng):
        picks = {s: {"type": "PICK", "n": 1} for s in state["resigned"]}
        for seat in self.owed(state):
            self.validate(state, seat, orders.get(seat))
        return super().resolve(state, {**picks, **orders}, rng)

    def outcome(self, state):
        if len(state["resigned"]) == len(state["seats"]):
            return [{"seat": s, "score": state["score"][s], "rank": 1} for s in state["seats"]]
        return super().outcome(state)

    def anytime_prompt(self, state, seat):
        if self.outcome(state) is not None or seat not in state["seats"]:
            return None
        note = {"label": "Leave a note", "base": {"type": "NOTE"},
                "fields": [{"name": "text", "label": "Note", "type": "text"}]}
        if seat in state["resigned"]:
            return {"kind": "any", "title": "You have resigned", "example": "NOTE hello", "forms": [note]}
        resign = {"label": "Resign (final)", "base": {"type": "RESIGN"},
                  "fields": [{"name": "confirm", "label": "Yes, for good", "type": "bool"}]}
        return {"kind": "any", "title": "Resign at any time", "example": "RESIGN CONFIRM", "forms": [resign, note]}

    def apply_anytime(self, state, seat, order, rng):
        if self.anytime_prompt(state, seat) is None:
            raise IllegalOrder("The game is over.")
        kind = order.get("type") if isinstance(order, dict) else None
        new = copy.deepcopy(state)
        if kind == "RESIGN" and seat not in state["resigned"]:
            if order.get("confirm") is not True:
                raise IllegalOrder("Tick the box to resign for good.")
            new["resigned"].append(seat)
            return new, [{"text": f"{seat} resigns.", "to": None}]
        if kind == "NOTE" and isinstance(order.get("text"), str) and order["text"]:
            new["notes"] += 1
            return new, [{"text": f"{seat} notes '{order['text']}' and rolls {rng.randint(1, 6)}.", "to": None}]
        raise IllegalOrder("At any time you may send RESIGN CONFIRM or NOTE followed by a text.")

    def parse(self, text):
        parts = str(text).split(None, 1)
        head = parts[0].upper() if parts else ""
        if head == "RESIGN":
            return {"type": "RESIGN", "confirm": len(parts) == 2 and parts[1].strip().upper() == "CONFIRM"}
        if head == "NOTE" and len(parts) == 2:
            return {"type": "NOTE", "text": parts[1].strip()}
        return super().parse(text)

    def format(self, order):
        if order.get("type") == "RESIGN":
            return "RESIGN CONFIRM" if order.get("confirm") else "RESIGN"
        if order.get("type") == "NOTE":
            return f"NOTE {order['text']}"
        return super().format(order)


ANYTIME_RULES = ToyAnytimeRules()
