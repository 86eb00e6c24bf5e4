"""Scenario builders and scripted dice for the Empire tests."""

from __future__ import annotations

import random

from app.games.empire import RULES, data
from app.games.empire.phases import start_round
from app.games.empire.state import setup

SEAT = {"BLUE": "P1", "GREEN": "P2", "YELLOW": "P3", "RED": "P4"}
FACES = {"-": -1, "0": 0, "+": 1}


def dice(text: str) -> list[int]:
    """``"[+ + 0 -]"`` -> [1, 1, 0, -1]."""
    return [FACES[c] for c in text.strip("[]").split()]


class ScriptedRng(random.Random):
    """A Random whose FATE dice (``randint(-1, 1)``) come from a script, in draw order."""

    def __init__(self, *rolls: str) -> None:
        super().__init__(7)
        self.fate = [d for r in rolls for d in dice(r)]

    def randint(self, a: int, b: int) -> int:
        if (a, b) == (-1, 1):
            assert self.fate, "a FATE die was drawn that the scenario does not list"
            return self.fate.pop(0)
        return super().randint(a, b)


def seated(options: dict, rng: random.Random) -> dict:
    """``RULES.setup`` with the seats in their listed order (P1 is seat 1, Blue), as scenarios assume.

    A real game draws the seat order (spec 3.2); scenarios name seats by colour.
    """
    opts = RULES.check_options(options)
    st = setup(opts, RULES.seats(opts), rng, draw=False)
    start_round(st, rng)
    return st


def scenario(players: int = 4, round_no: int = 1, first: str = "BLUE", mode: str = "short"):
    """A state in round ``round_no`` with homes held, no troops, empty stocks, quiet setbacks."""
    st = seated({"players": players, "mode": mode}, random.Random(3))
    st["troops"] = {}
    for pl in st["players"].values():
        pl["res"] = {r: 0 for r in data.RESOURCES}
        pl["next"] = {"S": 1, "H": 1}
    st["round"] = round_no
    st["first"] = seat(st, first)
    st["deck"] = [f"S20-{i}" for i in (1, 2)] * 2
    st["tribute"] = "GOLD"
    return st


def seat(st, colour: str) -> str:
    return next(s for s, c in st["colour"].items() if c == colour)


def put(st, tid: str, province: int, mode: str = "DEFENCE", target: str | None = None) -> None:
    colour = data.LETTER_COLOUR[tid[0]]
    kind, num = tid[2], int(tid[3:])
    st["troops"][tid] = {"owner": seat(st, colour), "kind": kind, "num": num,
                         "province": province, "mode": mode}
    if target:
        st["troops"][tid]["target"] = target
    nxt = st["players"][seat(st, colour)]["next"]
    nxt[kind] = max(nxt[kind], num + 1)


def res(st, colour: str, **amounts: int) -> None:
    st["players"][seat(st, colour)]["res"].update(amounts)


def stock(st, colour: str) -> dict[str, int]:
    return st["players"][seat(st, colour)]["res"]


def control(st, colour: str | None, *provinces: int) -> None:
    for p in provinces:
        st["provinces"][str(p)]["owner"] = seat(st, colour) if colour else None


def english(text) -> str:
    """A message (or a list of them) in English, as the log reads."""
    return RULES.text.english(text)


def texts(events) -> str:
    return "\n".join(english(e["text"]) for e in events)


def order_of(st, colour: str) -> dict:
    """The bot's order for ``colour``, asked as a player is (its view and prompt), checked legal."""
    who = seat(st, colour)
    order = RULES.ai_order(RULES.view(st, who), RULES.owed(st)[who], random.Random(2))
    RULES.validate(st, who, order)
    return order


def lines(order, op: str) -> list[dict]:
    """The lines of an order for one operation (``op``)."""
    return [ln for ln in order["lines"] if ln["op"] == op]
