"""State shape, setup and small queries shared by the rule modules.

State (plain JSON)::

    options, seats, colour {seat: colour}, round, first (seat), phase,
    tribute (GOLD..FREE or None), players {seat: {...}},
    provinces {"1".."12": {owner, building, centre}},
    troops {id: {owner, kind S/H, num, province, mode, target?}} (creation order),
    deck, discard, revealed {seat: card}, offers, pact_props, pacts,
    maint {seat: count still to remove}, choosers {chooser: player},
    pay_window {seat: payments owed in the window}, result
"""

from __future__ import annotations

import json
import random
from typing import Any

from app.games.empire import data

State = dict[str, Any]


def clone(data: Any) -> Any:
    """A deep copy of plain JSON data (much faster than ``copy.deepcopy``)."""
    return json.loads(json.dumps(data))


def new_player(colour: str) -> dict[str, Any]:
    return {
        "colour": colour,
        "res": dict(data.START_STOCK),
        "spoils": 0,
        "trade": [],          # one partner seat per trade marker
        "trade_round": False,  # got a trade marker this round
        "peace": 0,
        "objectives": [],
        "completed": [],
        "losses": [],
        "pref": {},
        "effects": [],
        "eliminated": False,
        "next": {"S": 1, "H": 1},
    }


def draw_seats(seats: list[str], rng: random.Random) -> list[str]:
    """Spec 3.2: the engine draws seats at random; the drawn order is seat 1, seat 2, ...

    Seat 1 is Blue and plays first in round 1, so the first player listed is not favoured.
    """
    order = list(seats)
    rng.shuffle(order)
    return order


def setup(options: dict[str, Any], seats: list[str], rng: random.Random, draw: bool = True) -> State:
    """Spec 3; ``draw=False`` keeps ``seats`` in the order given (scenarios that set seats up)."""
    if draw:
        seats = draw_seats(seats, rng)
    n = len(seats)
    colours = data.COLOURS_BY_COUNT[n]
    state: State = {
        "options": dict(options),
        "seats": list(seats),
        "colour": {s: c for s, c in zip(seats, colours, strict=True)},
        "round": 1,
        "first": seats[0],
        "phase": "T1",
        "tribute": None,
        "players": {s: new_player(c) for s, c in zip(seats, colours, strict=True)},
        "provinces": {str(p): {"owner": None, "building": None, "centre": None}
                      for p in data.PROVINCES},
        "troops": {},
        "deck": data.setback_deck(),
        "discard": [],
        "revealed": {},
        "offers": [],
        "pact_props": [],
        "pacts": [],
        "maint": {},
        "choosers": {},
        "pay_window": {},
        "result": None,
    }
    for seat in seats:
        colour = state["colour"][seat]
        home = data.HOME[colour]
        state["provinces"][str(home)].update(owner=seat, centre=colour)
        for _ in range(data.START_TROOPS):
            add_troop(state, seat, "S", home)
    rng.shuffle(state["deck"])
    objs = [o for o in data.OBJECTIVES if not (o == "O6" and n == data.NO_O6_PLAYERS)]
    rng.shuffle(objs)
    per = data.OBJECTIVES_PER_MODE[options["mode"]]
    for seat in seats:
        state["players"][seat]["objectives"] = [objs.pop(0) for _ in range(per)]
    state["undealt"] = objs
    return state


def add_troop(state: State, seat: str, kind: str, province: int) -> str:
    pl = state["players"][seat]
    num = pl["next"][kind]
    pl["next"][kind] = num + 1
    tid = f"{data.COLOUR_LETTER[pl['colour']]}-{kind}{num}"
    state["troops"][tid] = {"owner": seat, "kind": kind, "num": num,
                            "province": province, "mode": "DEFENCE"}
    return tid


def active(state: State) -> list[str]:
    return [s for s in state["seats"] if not state["players"][s]["eliminated"]]


def round_order(state: State) -> list[str]:
    """Active seats starting from the round's first player (D6)."""
    seats = state["seats"]
    i = seats.index(state["first"])
    return [s for s in seats[i:] + seats[:i] if not state["players"][s]["eliminated"]]


def left_of(state: State, seat: str) -> str:
    """The previous active seat (D4)."""
    seats = state["seats"]
    i = seats.index(seat)
    for k in range(1, len(seats)):
        s = seats[(i - k) % len(seats)]
        if not state["players"][s]["eliminated"]:
            return str(s)
    return seat


def right_of(state: State, seat: str) -> str:
    """The next active seat (D4)."""
    seats = state["seats"]
    i = seats.index(seat)
    for k in range(1, len(seats)):
        s = seats[(i + k) % len(seats)]
        if not state["players"][s]["eliminated"]:
            return str(s)
    return seat


def seat_of(state: State, colour: str) -> str | None:
    for s, c in state["colour"].items():
        if c == colour:
            return str(s)
    return None


def name(state: State, seat: str) -> str:
    """A seat's colour token (``BLUE``), as orders write it."""
    return str(state["colour"][seat])


def who(state: State, seat: str) -> dict[str, Any]:
    """A seat as a message: its colour, translated from the glossary."""
    return {"msg": f"colour.{state['colour'][seat]}"}


def owner(state: State, p: int) -> str | None:
    found = state["provinces"][str(p)]["owner"]
    return None if found is None else str(found)


def controlled(state: State, seat: str) -> list[int]:
    return [int(p) for p, v in state["provinces"].items() if v["owner"] == seat]


def troops_of(state: State, seat: str, province: int | None = None,
              kind: str | None = None) -> list[str]:
    return [t for t, v in state["troops"].items() if v["owner"] == seat
            and (province is None or v["province"] == province)
            and (kind is None or v["kind"] == kind)]


def has_effect(state: State, seat: str, card: str) -> bool:
    return card in state["players"][seat]["effects"]


def lose(state: State, seat: str, res: str, n: int) -> int:
    """Lose up to n of res; returns what was lost."""
    pl = state["players"][seat]["res"]
    k = min(n, pl[res])
    pl[res] -= k
    return int(k)


def remove_troop(state: State, tid: str) -> None:
    del state["troops"][tid]


def default_loss(state: State, seat: str) -> str | None:
    """The troop the default loss rule removes next (§4.7), or None."""
    mine = troops_of(state, seat)
    if not mine:
        return None
    kind = "S" if any(state["troops"][t]["kind"] == "S" for t in mine) else "H"
    counts: dict[int, int] = {}
    for t in mine:
        p = state["troops"][t]["province"]
        counts[p] = counts.get(p, 0) + 1
    provs = sorted({state["troops"][t]["province"] for t in mine if state["troops"][t]["kind"] == kind})
    best = min(provs, key=lambda p: (-counts[p], p))
    cands = [t for t in mine if state["troops"][t]["kind"] == kind
             and state["troops"][t]["province"] == best]
    return max(cands, key=lambda t: state["troops"][t]["num"])


def pact_covers(state: State, a: str, b: str, p: int) -> bool:
    return any({a, b} == set(x["parties"]) and p in x["provinces"] for x in state["pacts"])


def ev(text: Any, to: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"text": text, "to": to, **extra}
