"""State helpers and setup of the WWII conquest game (spec sections 4, 5.1, 6).

The state is plain JSON.  Main keys:

- ``options``, ``seats`` (P1..Pn), ``order`` (turn order), ``colour``, ``kind``
  (``human``/``ai``), ``status`` (ACTIVE, FULL_AUTO, ABANDONED, ELIMINATED),
  ``timeouts`` (consecutive missed turns), ``resuming`` (FULL_AUTO seats that sent
  RESUME_COMMAND: ACTIVE again from their next turn start; absent in older states);
- ``owner`` and ``armies`` per territory id;
- ``hands``, ``draw``, ``discard``, ``trades`` (game-wide trade counter);
- ``objective``: per seat ``{"card": "O11", "goal": "O7", "converted": bool}``;
- ``round``, ``serial``, ``current``, ``phase``, ``pools``, ``pending``,
  ``moves_left``, ``conquered``, ``last_move_from``;
- ``auto_rounds`` / ``auto_at_start`` / ``human_acted`` (armistice by absence), ``result``.
"""

from __future__ import annotations

from typing import Any

from app.games.conquest import data
from app.games.text import Msg, msg, name

State = dict[str, Any]


def shuffle(items: list[Any], rng: Any) -> list[Any]:
    """Fisher-Yates exactly as spec 4.4: i from n-1 down to 1, j = rand_int(i + 1)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def roll(rng: Any, n: int) -> list[int]:
    """n dice as rolled (1 + rand_int(6) each)."""
    return [1 + rng.randrange(6) for _ in range(n)]


def clamp_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options with defaults filled in and ai_seats limited to players - 1."""
    opts = {**data.DEFAULT_OPTIONS, **(options or {})}
    players = int(opts["players"])
    if players not in data.PLAYER_COUNTS:
        raise ValueError(f"players must be 2 to 6, not {players}")
    if opts["mode"] not in data.MODES:
        raise ValueError(f"mode must be one of {', '.join(data.MODES)}")
    opts["players"] = players
    opts["ai_seats"] = max(0, min(int(opts.get("ai_seats") or 0), players - 1))
    opts["round_limit"] = int(opts.get("round_limit") or 0)
    opts["timer"] = int(str(opts.get("timer") or data.DEFAULT_OPTIONS["timer"]))
    return opts


def seat_ids(options: dict[str, Any]) -> list[str]:
    return [f"P{i}" for i in range(1, clamp_options(options)["players"] + 1)]


def robot_seat_ids(options: dict[str, Any]) -> list[str]:
    """The last ``ai_seats`` seats are played by the AI."""
    opts = clamp_options(options)
    seats = seat_ids(opts)
    return seats[len(seats) - opts["ai_seats"] :] if opts["ai_seats"] else []


def label(state: State, seat: str) -> Msg:
    """A commander as players read it everywhere: "Commander 1 (Red)", its name and colour from the
    glossary (``seat.P1``, the platform's ``seat_name`` too), never the seat's code."""
    return msg("seat", seat=name("seat", seat), colour=name("colour", state["colour"][seat]))


def tname(t: str, form: str = "") -> Msg:
    """A territory's name from the glossary.

    ``form`` picks the glossary entry for the name's place in a sentence, so that a
    language can give it its article or preposition ("the" -> "o Japão", "in" -> "no
    Japão", "from" -> "do Japão", "to" -> "ao Japão"); English reads the name alone.
    """
    return name(f"territory.{form}" if form else "territory", t)


def in_field(state: State) -> list[str]:
    """Seats still in play, in turn order."""
    return [s for s in state["order"] if state["status"][s] != "ELIMINATED"]


def territories_of(state: State, seat: str) -> list[str]:
    return [t for t in data.TERRITORIES if state["owner"][t] == seat]


def enemy_neighbours(state: State, t: str) -> list[str]:
    """The neighbours of ``t`` held by another seat."""
    me = state["owner"][t]
    return [n for n in data.NEIGHBOURS[t] if state["owner"][n] != me]


def armies_of(state: State, seat: str) -> int:
    return sum(state["armies"][t] for t in data.TERRITORIES if state["owner"][t] == seat)


def controls_theatre(state: State, seat: str, h: str) -> bool:
    return all(state["owner"][t] == seat for t in data.IN_THEATRE[h])


def is_robot(state: State, seat: str) -> bool:
    """Seats the game plays itself at once: AI, abandoned and full auto-command seats (D23)."""
    return bool(state["kind"][seat] == "ai" or state["status"][seat] in ("ABANDONED", "FULL_AUTO"))


def active_humans(state: State) -> list[str]:
    """Human seats in field and not abandoned (D15)."""
    return [s for s in state["order"] if state["kind"][s] == "human" and state["status"][s] in ("ACTIVE", "FULL_AUTO")]


def under_auto_command(state: State) -> bool:
    """Every human in field is under full auto-command and none has asked to resume (seed 11:
    "todos os humanos ainda em campo ... sob comando automático"); no human in field -> False."""
    humans = active_humans(state)
    resuming = state.get("resuming", [])
    return bool(humans) and all(state["status"][s] == "FULL_AUTO" and s not in resuming for s in humans)


def pool_total(state: State) -> int:
    return sum(state["pools"].values())


def compute_pools(state: State, seat: str) -> dict[str, int]:
    """General pool max(3, T // 2) plus a restricted pool per whole theatre (spec 5.1), and the
    HOUSE ``balance`` armies of the second of two commanders in round 1."""
    pools = {"G": max(3, len(territories_of(state, seat)) // 2) + balance_armies(state, seat)}
    for h in data.THEATRES:
        if controls_theatre(state, seat, h):
            pools[h] = data.THEATRE_BONUS[h]
    return pools


def balance_armies(state: State, seat: str) -> int:
    """Option ``balance`` with two commanders: the second in turn order places more in round 1."""
    order = state["order"]
    if state["options"].get("balance") and state["round"] == 1 and len(order) == 2 and seat == order[1]:
        return data.BALANCE_ARMIES
    return 0


def valid_set(cards: list[str]) -> bool:
    """Three of a symbol, one of each symbol, or any three with a joker (spec 3.2)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    symbols = [data.CARD_SYMBOL[c] for c in cards]
    if "JOKER" in symbols:
        return True
    return len(set(symbols)) in (1, 3)


def valid_sets(hand: list[str]) -> list[list[str]]:
    """Every valid set in a hand, cards in deck order."""
    cards = sorted(hand, key=data.DECK.index)
    out = []
    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            for k in range(j + 1, len(cards)):
                trio = [cards[i], cards[j], cards[k]]
                if valid_set(trio):
                    out.append(trio)
    return out


def goal_met(state: State, seat: str) -> bool:
    """Whether ``seat``'s current objective is fulfilled by control now (not destruction)."""
    if state["options"]["mode"] == "domination":
        return all(state["owner"][t] == seat for t in data.TERRITORIES)
    goal = state["objective"][seat]["goal"]
    obj = data.OBJECTIVES[goal]
    if "destroy" in obj:
        return False
    if "theatres" in obj:
        if not all(controls_theatre(state, seat, h) for h in obj["theatres"]):
            return False
        if obj.get("plus_one"):
            return any(controls_theatre(state, seat, h) for h in data.THEATRES if h not in obj["theatres"])
        return True
    mine = territories_of(state, seat)
    if "min_armies" in obj:
        return bool(sum(1 for t in mine if state["armies"][t] >= obj["min_armies"]) >= obj["territories"])
    return bool(len(mine) >= obj["territories"])


def deal_objective(card: str, colour: str, seated: set[str] | list[str]) -> dict[str, Any]:
    """Destruction rule (a) of spec 4.5: own or unseated colour -> 24 territories (O7)."""
    target = data.OBJECTIVES[card].get("destroy")
    converted = bool(target) and (target == colour or target not in seated)
    return {"card": card, "goal": "O7" if converted else card, "converted": converted}


def setup_state(options: dict[str, Any], seats: list[str], rng: Any) -> State:
    """Spec 4.4, in its exact draw order (turn order, colours, territories, objectives, deck)."""
    opts = clamp_options(options)
    robots = set(robot_seat_ids(opts))
    order = shuffle(list(seats), rng)
    colours = shuffle(data.COLOURS, rng)
    colour = {s: colours[i] for i, s in enumerate(order)}
    owner: dict[str, str] = {}
    for k, t in enumerate(shuffle(data.TERRITORIES, rng)):
        owner[t] = order[k % len(order)]
    objective: dict[str, dict[str, Any]] = {}
    if opts["mode"] == "secret_orders":
        cards = shuffle(data.OBJECTIVE_ORDER, rng)
        seated = set(colour.values())
        for i, s in enumerate(order):
            objective[s] = deal_objective(cards[i], colour[s], seated)
    else:
        objective = {s: {"card": "WORLD", "goal": "WORLD", "converted": False} for s in order}
    return {
        "options": opts,
        "seats": list(seats),
        "order": order,
        "colour": colour,
        "kind": {s: "ai" if s in robots else "human" for s in seats},
        "status": {s: "ACTIVE" for s in seats},
        "timeouts": {s: 0 for s in seats},
        "resuming": [],
        "owner": {t: owner[t] for t in data.TERRITORIES},
        "armies": {t: 1 for t in data.TERRITORIES},
        "hands": {s: [] for s in seats},
        "draw": shuffle(data.DECK, rng),
        "discard": [],
        "trades": 0,
        "objective": objective,
        "round": 1,
        "serial": 1,
        "current": order[0],
        "phase": "MOBILISATION",
        "pools": {},
        "pending": None,
        "moves_left": None,
        "conquered": False,
        "last_move_from": 0,
        "last_roll": None,
        "auto_rounds": 0,
        "auto_at_start": False,
        "human_acted": False,
        "result": None,
    }
