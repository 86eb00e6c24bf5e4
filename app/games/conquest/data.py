"""HOUSE DATA of the WWII conquest game, all in one place (spec sections 2, 3, 4).

The source text refers to a territory list, a bonus table and a trade-value
table that it does not contain; this module supplies them.  Tests check it
against the spec's tables (42 territories, 72 links, symmetric, connected ...).
"""

from __future__ import annotations

from typing import Any

from app.games.text import msg, name

#: Theatre codes in tie-break order and reinforcement bonuses (names: ``theatre.<code>`` in text.py).
THEATRES: list[str] = ["AM", "WE", "EF", "AME", "CBI", "PAC"]
THEATRE_BONUS: dict[str, int] = {"AM": 4, "WE": 5, "EF": 6, "AME": 6, "CBI": 4, "PAC": 4}

#: (number, id, name, theatre) in # order.
_TERRITORIES: list[tuple[int, str, str, str]] = [
    (1, "ALA", "Alaska", "AM"),
    (2, "WCA", "Western Canada", "AM"),
    (3, "ECA", "Eastern Canada", "AM"),
    (4, "WUS", "Western United States", "AM"),
    (5, "EUS", "Eastern United States", "AM"),
    (6, "BRA", "Brazil", "AM"),
    (7, "ICE", "Iceland", "WE"),
    (8, "GBR", "United Kingdom", "WE"),
    (9, "NOR", "Norway", "WE"),
    (10, "FRA", "France", "WE"),
    (11, "SPA", "Spain", "WE"),
    (12, "GER", "Germany", "WE"),
    (13, "ITA", "Italy", "WE"),
    (14, "FIN", "Finland", "EF"),
    (15, "LEN", "Leningrad", "EF"),
    (16, "MOS", "Moscow", "EF"),
    (17, "POL", "Poland", "EF"),
    (18, "BAL", "Balkans", "EF"),
    (19, "UKR", "Ukraine", "EF"),
    (20, "STA", "Stalingrad", "EF"),
    (21, "CAU", "Caucasus", "EF"),
    (22, "ALG", "Algeria", "AME"),
    (23, "LIB", "Libya", "AME"),
    (24, "EGY", "Egypt", "AME"),
    (25, "WAF", "West Africa", "AME"),
    (26, "EAF", "East Africa", "AME"),
    (27, "SAF", "South Africa", "AME"),
    (28, "IRQ", "Iraq", "AME"),
    (29, "IRN", "Iran", "AME"),
    (30, "IND", "India", "CBI"),
    (31, "BUR", "Burma", "CBI"),
    (32, "NCH", "Nationalist China", "CBI"),
    (33, "OCH", "Occupied China", "CBI"),
    (34, "MAN", "Manchuria", "CBI"),
    (35, "IDC", "Indochina", "CBI"),
    (36, "JAP", "Japan", "PAC"),
    (37, "PHI", "Philippines", "PAC"),
    (38, "MAL", "Malaya", "PAC"),
    (39, "DEI", "Dutch East Indies", "PAC"),
    (40, "NGU", "New Guinea", "PAC"),
    (41, "AUS", "Australia", "PAC"),
    (42, "HAW", "Hawaii", "PAC"),
]

#: Links as in spec section 2: "A-B" land, "A~B" sea, "A=B" sea across the
#: Pacific map edge (the spec's double tilde), "A^B" air bridge.
_LINKS = """
ALA-WCA ALA=JAP WCA-ECA WCA-WUS ECA-WUS ECA-EUS ECA~ICE WUS-EUS WUS~HAW EUS~BRA BRA~WAF
ICE~GBR ICE~NOR ICE~LEN GBR~NOR GBR~FRA GBR~GER NOR~GER NOR-FIN FRA-SPA FRA-GER FRA-ITA
SPA~ALG GER-ITA GER-POL GER-BAL ITA-BAL ITA~LIB
FIN-LEN LEN-MOS LEN-POL MOS-POL MOS-UKR MOS-STA POL-BAL POL-UKR BAL-UKR BAL~EGY
UKR-STA UKR-CAU STA-CAU CAU-IRN
ALG-LIB ALG-WAF LIB-EGY EGY-EAF EGY-IRQ WAF-EAF WAF-SAF EAF-SAF IRQ-IRN IRN-IND
IND-BUR IND^NCH BUR-NCH BUR-IDC NCH-OCH NCH-IDC OCH-MAN OCH-IDC OCH~JAP MAN~JAP IDC-MAL
JAP~PHI JAP=HAW PHI~MAL PHI~DEI MAL~DEI DEI~NGU DEI~AUS NGU~AUS NGU=HAW
"""
LINK_KINDS: dict[str, str] = {"-": "land", "~": "sea", "=": "edge", "^": "air"}

TERRITORIES: list[str] = [t[1] for t in _TERRITORIES]
NUMBER: dict[str, int] = {t[1]: t[0] for t in _TERRITORIES}
NAME: dict[str, str] = {t[1]: t[2] for t in _TERRITORIES}
THEATRE: dict[str, str] = {t[1]: t[3] for t in _TERRITORIES}
IN_THEATRE: dict[str, list[str]] = {h: [t for t in TERRITORIES if THEATRE[t] == h] for h in THEATRES}


def _parse_links() -> list[tuple[str, str, str]]:
    out = []
    for token in _LINKS.split():
        for mark, kind in LINK_KINDS.items():
            if mark in token:
                a, b = token.split(mark)
                out.append((a, b, kind))
                break
    return out


#: Every link once: (a, b, kind).
LINKS: list[tuple[str, str, str]] = _parse_links()
NEIGHBOURS: dict[str, list[str]] = {t: [] for t in TERRITORIES}
for _a, _b, _kind in LINKS:
    NEIGHBOURS[_a].append(_b)
    NEIGHBOURS[_b].append(_a)
for _t in TERRITORIES:
    NEIGHBOURS[_t].sort(key=NUMBER.__getitem__)

#: Border territories: a neighbour in another theatre.
BORDER: dict[str, bool] = {t: any(THEATRE[n] != THEATRE[t] for n in NEIGHBOURS[t]) for t in TERRITORIES}

# Cards (spec 3.1): c1..c42 picture territory #n; c43 and c44 are the jokers J1, J2.
SYMBOLS = ["INF", "ARM", "ART"]
DECK: list[str] = [f"c{n}" for n in range(1, 45)]
JOKERS = {"c43": "J1", "c44": "J2"}
CARD_TERRITORY: dict[str, str | None] = {f"c{NUMBER[t]}": t for t in TERRITORIES}
CARD_TERRITORY.update({c: None for c in JOKERS})
CARD_SYMBOL: dict[str, str] = {}
for _t in TERRITORIES:
    CARD_SYMBOL[f"c{NUMBER[_t]}"] = {1: "INF", 2: "ARM", 0: "ART"}[NUMBER[_t] % 3]
CARD_SYMBOL.update({c: "JOKER" for c in JOKERS})


def trade_value(n: int) -> int:
    """Armies for the n-th trade of the game (spec 3.3): 4, 6, 8, 10, 12, 15, 20, 25 ..."""
    return 2 * n + 2 if n <= 5 else 5 * n - 15


# Colours in the source's order (Oliva, Vermelho, Azul, Ocre, Cinza, Negro).
COLOURS: list[str] = ["Olive", "Red", "Blue", "Ochre", "Grey", "Black"]
#: Fill colour, print pattern and one-letter mark of each colour (board).
COLOUR_STYLE: dict[str, tuple[str, str, str]] = {
    "Olive": ("#8a9a3b", "dots", "O"),
    "Red": ("#d04a3a", "hatch", "R"),
    "Blue": ("#3f6fc4", "cross", "B"),
    "Ochre": ("#d9a534", "vertical", "C"),
    "Grey": ("#9a9a9a", "plain", "G"),
    "Black": ("#3a3a3a", "plain", "K"),
}

#: Objective cards O1..O14 (spec 4.5): kind and parameters.
OBJECTIVES: dict[str, dict[str, Any]] = {
    "O1": {"theatres": ["WE", "CBI"]},
    "O2": {"theatres": ["EF", "PAC"]},
    "O3": {"theatres": ["AME", "PAC"]},
    "O4": {"theatres": ["EF", "AME"]},
    "O5": {"theatres": ["WE", "AM"]},
    "O6": {"theatres": ["CBI", "AM"], "plus_one": True},
    "O7": {"territories": 24},
    "O8": {"territories": 18, "min_armies": 2},
}
for _i, _c in enumerate(COLOURS):
    OBJECTIVES[f"O{9 + _i}"] = {"destroy": _c}
OBJECTIVE_ORDER: list[str] = [f"O{n}" for n in range(1, 15)]


def objective_text(code: str) -> dict[str, Any]:
    """The objective in a player's words (a message of ``text.py``)."""
    if code == "WORLD":
        return msg("objective.world")
    obj = OBJECTIVES[code]
    if "destroy" in obj:
        return msg("objective.destroy", colour=name("colour", obj["destroy"]))
    if "theatres" in obj:
        a, b = (name("theatre", h) for h in obj["theatres"])
        return msg("objective.theatres_plus" if obj.get("plus_one") else "objective.theatres", a=a, b=b)
    if "min_armies" in obj:
        return msg("objective.min_armies")
    return msg("objective.territories")


# Room options (spec 4.1) under the platform's option names.
PLAYER_COUNTS = [2, 3, 4, 5, 6]
MODES = ["secret_orders", "domination"]
TIMERS = [90, 180, 300, 3600, 43200, 86400]
ROUND_LIMITS = [0, 30, 50, 80]
DEFAULT_OPTIONS = {"players": 4, "mode": "secret_orders", "timer": 86400, "round_limit": 0, "ai_seats": 0,
                   "balance": False}
#: HOUSE balance option for two commanders (``balance``): the commander second in turn order
#: gets this many more armies to place in round 1.  The first commander attacks first; in
#: bot-against-bot games he won 71% without it, 46% with 5 more armies (200 games; 25% with
#: 10 more: bench/arena.py).
BALANCE_ARMIES = 5
#: Consecutive missed turns that hand a seat to full auto-command (spec 7.2).
TIMEOUTS_TO_FULL_AUTO = 3
#: Consecutive fully automatic rounds that end the game by armistice (spec 6.2 c).
AUTO_ROUNDS_TO_ARMISTICE = 3
#: One tank drawn on the map stands for this many armies (source section 5).
TANK = 10
