"""HOUSE DATA and fixed tables of Empire (the Emperor's tribute game).

Everything the source post does not give (map, production, tribute die,
market, the 40 setback cards, the 8 objectives, starting stock, round limits)
lives here so that it can be replaced without touching the rules code.  The
names and texts below are the spec's reference; what players read comes from
the catalogue (``text.py``: ``province.*``, ``card.*``, ``objective.*``).

Notes on the original post (seed 004) against the spec:

- Every difference found between the two is one the spec explains in its
  decision table (combat before maintenance, D1; simultaneous blind orders
  instead of real-time individual turns, D7; the Wall only helps the
  province's controller, D14; defence bonus = number of Defence troops, D11;
  pacts also forbid conquest, D18; tribute in Pop or Gold, D19), so the
  rules follow the spec.
- The post lets the loser of unpaid troops choose and then "the player on
  the right" choose; the spec adds an optional standing LOSSES order (§4.4)
  before that window.  A player may also answer 7A with an empty set ("do not
  choose"), which has the same effect as missing the deadline.
- The spec has the engine draw the seats at random (§3); here the platform
  assigns players to seats P1..Pn and the rules take them as given.

The objectives' numbers (§2.6, HOUSE) differ from the spec's, tuned so that in
bot-against-bot games (``bench/arena.py``) each objective's holders win between
half and one and a half times as often as the average holder at 2, 3 and 4
players: Dominion 7 provinces (spec 5), Fortress realm and Prosperity 4
provinces (spec 3), Guild master 13 trade markers (spec 5), Heartland 5
provinces in all (spec 4); Warlord (6 spoils) and Great army (10 troops, 2
heavy) keep theirs.  The seed gives no objective texts, only "8 objective
cards"; names and conditions stay the spec's.
"""

from __future__ import annotations

from typing import Any

#: Colour tokens by seat, per player count (spec §3).
COLOURS_BY_COUNT = {
    4: ["BLUE", "GREEN", "YELLOW", "RED"],
    3: ["BLUE", "GREEN", "YELLOW"],
    2: ["BLUE", "YELLOW"],
}
COLOUR_LETTER = {"BLUE": "B", "GREEN": "G", "YELLOW": "Y", "RED": "R"}
LETTER_COLOUR = {v: k for k, v in COLOUR_LETTER.items()}
HOME = {"BLUE": 1, "GREEN": 4, "RED": 9, "YELLOW": 12}

RESOURCES = ["GOLD", "WOOD", "STONE", "IRON", "FOOD", "POP"]
TRADE_GOODS = ["GOLD", "WOOD", "STONE", "IRON", "FOOD"]
SIMPLE = ["WOOD", "STONE", "IRON", "FOOD"]
#: Tie order for the "simple resource you hold most of" defaults (§4.9).
SIMPLE_TIE_ORDER = ["FOOD", "WOOD", "STONE", "IRON"]

#: §2.1 map: id -> (name, produced resource, amount, adjacent ids).
PROVINCES: dict[int, dict[str, Any]] = {
    1: {"name": "Bluehold", "res": "FOOD", "amount": 3, "adj": [2, 5]},
    2: {"name": "Westwood", "res": "WOOD", "amount": 2, "adj": [1, 3, 6]},
    3: {"name": "Eastwood", "res": "WOOD", "amount": 2, "adj": [2, 4, 7]},
    4: {"name": "Greenhold", "res": "FOOD", "amount": 3, "adj": [3, 8]},
    5: {"name": "Westmarch", "res": "IRON", "amount": 2, "adj": [1, 6, 9]},
    6: {"name": "Westgold", "res": "GOLD", "amount": 1, "adj": [2, 5, 7, 10]},
    7: {"name": "Eastgold", "res": "GOLD", "amount": 1, "adj": [3, 6, 8, 11]},
    8: {"name": "Eastmarch", "res": "IRON", "amount": 2, "adj": [4, 7, 12]},
    9: {"name": "Redhold", "res": "FOOD", "amount": 3, "adj": [5, 10]},
    10: {"name": "Westquarry", "res": "STONE", "amount": 2, "adj": [6, 9, 11]},
    11: {"name": "Eastquarry", "res": "STONE", "amount": 2, "adj": [7, 10, 12]},
    12: {"name": "Yellowhold", "res": "FOOD", "amount": 3, "adj": [8, 11]},
}
POP_PER_PROVINCE = 1
CENTRE_GOLD = 2
CENTRE_POP = 1
NO_INF = [6, 7]

#: §2.2 builds.
BUILD_COST = {
    "INF": {"WOOD": 3, "STONE": 2, "IRON": 1},
    "WALL": {"STONE": 3, "IRON": 2, "WOOD": 1},
    "HEAVY": {"IRON": 3, "WOOD": 2, "STONE": 1},
}
MAX_SIMPLE = 20
MAX_HEAVY = 5

#: §2.3 tribute die.
TRIBUTE_DIE = {1: "GOLD", 2: "WOOD", 3: "STONE", 4: "IRON", 5: "FOOD", 6: "FREE"}

#: §2.4 market: BUY n Gold -> 2n R; SELL q R (multiple of 3) -> q/3 Gold.
MARKET_GOODS = ["WOOD", "STONE", "IRON", "FOOD"]
MARKET_BUY_RATE = 2
MARKET_SELL_LOT = 3

#: §3 starting stock (HOUSE).
START_STOCK = {"GOLD": 3, "WOOD": 2, "STONE": 2, "IRON": 2, "FOOD": 2, "POP": 2}
START_TROOPS = 3

#: §2.5 setback deck: id -> (name, copies, effect text).
SETBACKS: dict[str, dict[str, Any]] = {
    "S01": {"name": "Blight", "count": 2, "text": "Lose 2 Food."},
    "S02": {"name": "Termites", "count": 2, "text": "Lose 2 Wood."},
    "S03": {"name": "Flooded quarry", "count": 2, "text": "Lose 2 Stone."},
    "S04": {"name": "Rust", "count": 2, "text": "Lose 2 Iron."},
    "S05": {"name": "Embezzlement", "count": 3, "text": "Lose 2 Gold."},
    "S06": {"name": "Plague", "count": 2, "text": "Lose 2 Pop."},
    "S07": {"name": "Bandits", "count": 2, "text": "Lose 1 Wood, 1 Stone, 1 Iron and 1 Food."},
    "S08": {"name": "Desertion", "count": 3, "text": "Remove 1 of your troops (default loss rule)."},
    "S09": {"name": "Fire", "count": 2,
            "text": "Destroy your lowest-numbered Infrastructure; if none, lose 2 Wood."},
    "S10": {"name": "Earthquake", "count": 2,
            "text": "Destroy your lowest-numbered Wall; if none, lose 2 Stone."},
    "S11": {"name": "Fog of war", "count": 2, "text": "This round your attack and conquest totals are -1."},
    "S12": {"name": "Low morale", "count": 2, "text": "This round your troops' defence totals are -1."},
    "S13": {"name": "Uprising", "count": 1,
            "text": "Your highest-numbered province without your troops or a centre becomes neutral."},
    "S14": {"name": "Imperial levy", "count": 3, "text": "This round you pay tribute twice."},
    "S15": {"name": "Harsh winter", "count": 2, "text": "This round your Maintenance costs +2 Food."},
    "S16": {"name": "Soldiers' arrears", "count": 2, "text": "This round your Maintenance costs +2 Gold."},
    "S17": {"name": "Scandal", "count": 2, "text": "Every pact you signed this round is cancelled now."},
    "S18": {"name": "Good harvest", "count": 1, "text": "Gain 2 Food."},
    "S19": {"name": "Imperial pardon", "count": 1, "text": "You pay no tribute this round."},
    "S20": {"name": "Quiet season", "count": 2, "text": "No effect."},
}
#: Plain resource losses/gains of the deterministic cards.
SETBACK_LOSSES = {
    "S01": {"FOOD": 2}, "S02": {"WOOD": 2}, "S03": {"STONE": 2}, "S04": {"IRON": 2},
    "S05": {"GOLD": 2}, "S06": {"POP": 2},
    "S07": {"WOOD": 1, "STONE": 1, "IRON": 1, "FOOD": 1},
}


def setback_deck() -> list[str]:
    """The 40 card instances, each with a unique id such as ``S05-2``."""
    return [f"{cid}-{i}" for cid, card in SETBACKS.items() for i in range(1, card["count"] + 1)]


#: §2.6 objectives.
OBJECTIVES: dict[str, dict[str, str]] = {
    "O1": {"name": "Dominion", "text": "You control at least 7 provinces."},
    "O2": {"name": "Fortress realm", "text": "You control at least 4 provinces that each hold a Wall."},
    "O3": {"name": "Prosperity", "text": "You control at least 4 provinces that each hold Infrastructure."},
    "O4": {"name": "Usurper",
           "text": "You control a province holding an administrative centre of another player."},
    "O5": {"name": "Warlord", "text": "You hold at least 6 war-spoils markers."},
    "O6": {"name": "Guild master",
           "text": "You hold at least 13 trade markers, earned with at least 2 different partners."},
    "O7": {"name": "Great army", "text": "You have at least 10 troops in play, at least 2 of them heavy."},
    "O8": {"name": "Heartland", "text": "You control provinces 6 and 7 and at least 5 provinces in total."},
}
#: The objectives' numbers (HOUSE): the conditions above read them (``phases.objective_met``).
OBJECTIVE_NEED: dict[str, int] = {
    "O1": 7,  # provinces
    "O2": 4,  # provinces with a Wall
    "O3": 4,  # provinces with Infrastructure
    "O5": 6,  # war-spoils markers
    "O6": 13,  # trade markers
    "O6_partners": 2,  # ... earned with this many different partners
    "O7": 10,  # troops in play
    "O7_heavy": 2,  # ... this many of them heavy
    "O8": 5,  # provinces in all, 6 and 7 among them
}
NO_O6_PLAYERS = 2
OBJECTIVES_PER_MODE = {"short": 1, "long": 2}

#: §6 round limits (HOUSE, PBEM).
ROUND_LIMIT = {"short": 20, "long": 30}
#: §4.3 / D17 at most 3 offers a round.
MAX_OFFERS = 3

#: §4.0 default deadlines in seconds, by prompt kind.
DEADLINES = {
    "diplomacy_propose": 24 * 3600,
    "diplomacy_answer": 24 * 3600,
    "admin": 48 * 3600,
    "maintenance_loss": 12 * 3600,
    "population": 24 * 3600,
    "tribute_choice": 12 * 3600,
}

MODES = ["ATTACK", "DEFENCE", "CONQUEST"]
