"""HOUSE DATA for Dual Powers: every table the rulebook does not print.

Regions, the ring of connections, the 48 command cards, leaders, unit and
neutral token values and the support-track length all live here, so that the
real values can replace them without touching the rules code.

Notes on the originals (Portuguese and Greek rulebooks):

- Mobilize Protest: the Greek text lets the blockade move to "any connection",
  the Portuguese one to "any *other* connection".  The spec follows the
  Portuguese text (a move to the same connection would be no move at all).
- The Opposition's bonus recruit: both originals say "adds a unit token to the
  unrest region" without a level; the spec reads it as the Bonus Recruit of the
  two-player game, whose unit is always of recruit value 1 (level 1).
- Every other rule of the spec agrees with the originals or states its reason.
"""

from __future__ import annotations

from typing import Any

from app.games.text import msg
from app.games.text import name as term

SIDES = ("SOV", "GOV")

#: Canonical region order (tie-breaks and listings).
REGIONS = ("RED", "GRN", "BLU", "WHT", "BRN", "PUR")

REGION_NAMES = {
    "RED": "Vyborg Side",
    "GRN": "Petrograd Side",
    "BLU": "Vasilievsky Island",
    "WHT": "Admiralty",
    "BRN": "Narva District",
    "PUR": "Liteyny-Smolny",
}

REGION_COLOURS = {
    "RED": "red",
    "GRN": "green",
    "BLU": "blue",
    "WHT": "white",
    "BRN": "brown",
    "PUR": "purple",
}

#: Region tiles (one per region); the tile id names its region.
TILES = tuple(f"TILE-{r}" for r in REGIONS)

#: The six connections: arrow A-X joins X to the next region clockwise.
CONNECTIONS: dict[str, list[str]] = {
    f"A-{r}": [r, REGIONS[(i + 1) % len(REGIONS)]] for i, r in enumerate(REGIONS)
}

CONNECTION_NAMES = {
    "A-RED": "Sampsonievsky Bridge",
    "A-GRN": "Tuchkov Bridge",
    "A-BLU": "Palace Bridge",
    "A-WHT": "Fontanka crossings",
    "A-BRN": "Ligovsky road",
    "A-PUR": "Liteyny Bridge",
}

MONTHS = ("March/April", "May/June", "July", "August", "September", "October/November")
UNREST_VP = (2, 2, 3, 4, 5, 6)
LAST_MONTH = 5

#: Support track: -TRACK_END (GOV's end) ... 0 ... +TRACK_END (SOV's end).
TRACK_END = 12

# Faction units: (SOV id, GOV id, recruit value, fresh, exhausted).
_UNIT_ROWS = (
    ("R01", "W01", 1, 1, 0),
    ("R02", "W02", 1, 1, 0),
    ("R03", "W03", 1, 1, 1),
    ("R04", "W04", 1, 1, 1),
    ("R05", "W05", 2, 2, 1),
    ("R06", "W06", 2, 2, 1),
    ("R07", "W07", 2, 3, 0),
    ("R08", "W08", 2, 2, 2),
    ("R09", "W09", 3, 3, 2),
    ("R10", "W10", 3, 3, 3),
)

#: Leaders: id, faction, name, days, fresh, exhausted, special.
_LEADER_ROWS = (
    ("L-LEN", "SOV", "Lenin", 4, 3, 2, "INSPIRE"),
    ("L-DZE", "SOV", "Dzerzhinsky", 3, 2, 2, "ESPIONAGE"),
    ("L-KOL", "SOV", "Kollontai", 5, 4, 1, "MOBILIZE"),
    ("L-KER", "GOV", "Kerensky", 4, 3, 2, "INSPIRE"),
    ("L-MIL", "GOV", "Milyukov", 3, 2, 2, "ESPIONAGE"),
    ("L-KOR", "GOV", "Kornilov", 5, 4, 1, "MOBILIZE"),
)

SPECIAL_NAMES = {
    "INSPIRE": "Inspire the People",
    "ESPIONAGE": "Espionage",
    "MOBILIZE": "Mobilize Protest",
}

#: Neutral units N1-N6: fresh 1; exhausted 0, 0, 1, 1, 2, 2.
_NEUTRAL_EXHAUSTED = (0, 0, 1, 1, 2, 2)

OPP_LEVELS = (1, 2, 3)
OPP_PER_LEVEL = 9

#: Command-card template, the same for every region: suffix, days, recruit, action, VP.
CARD_TEMPLATE = (
    ("2", 2, 1, "MOVE", 1),
    ("3", 3, 3, "REFRESH", 1),
    ("4", 4, 2, "DOUBLE", 2),
    ("5A", 5, 2, "MOVE", 3),
    ("5B", 5, 1, "REFRESH", 3),
    ("6A", 6, 3, "MOVE", 2),
    ("6B", 6, 1, "DOUBLE", 4),
    ("7", 7, 2, "REFRESH", 4),
)

ACTION_NAMES = {"MOVE": "Move", "DOUBLE": "Double Move", "REFRESH": "Refresh"}

#: Spec rule D2 (Greek text): Leader Recruit refreshes the controlled exhausted neutral units.
LEADER_RECRUIT_REFRESHES_NEUTRALS = True


def _build_tokens() -> dict[str, dict[str, Any]]:
    tokens: dict[str, dict[str, Any]] = {}
    for sov, gov, value, fresh, tired in _UNIT_ROWS:
        for tid, side in ((sov, "SOV"), (gov, "GOV")):
            tokens[tid] = {"kind": "unit", "faction": side, "recruit": value,
                           "fresh": fresh, "exhausted": tired, "name": f"unit {tid}"}
    for lid, side, name, _days, fresh, tired, _sp in _LEADER_ROWS:
        tokens[lid] = {"kind": "leader", "faction": side, "fresh": fresh,
                       "exhausted": tired, "name": name}
    for i, tired in enumerate(_NEUTRAL_EXHAUSTED, start=1):
        tokens[f"N{i}"] = {"kind": "neutral", "faction": None, "fresh": 1,
                           "exhausted": tired, "name": f"neutral N{i}"}
    tokens["T-NEU"] = {"kind": "neutral", "faction": None, "fresh": 3, "exhausted": 2,
                       "name": "Trotsky (neutral)"}
    tokens["T-RED"] = {"kind": "leader", "faction": "SOV", "fresh": 3, "exhausted": 2,
                       "name": "Trotsky (red)"}
    for level in OPP_LEVELS:
        for i in range(1, OPP_PER_LEVEL + 1):
            # Exhausted strength of Opposition units is the difficulty X (set per game).
            tokens[f"O{level}-{i}"] = {"kind": "opp", "faction": "OPP", "level": level,
                                       "fresh": level, "exhausted": None,
                                       "name": f"Opposition level {level}"}
    return tokens


def _build_cards() -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    for region in REGIONS:
        for suffix, days, recruit, action, vp in CARD_TEMPLATE:
            cid = f"C-{region}-{suffix}"
            cards[cid] = {"kind": "command", "region": region, "days": days,
                          "recruit": recruit, "action": action, "vp": vp}
    for lid, side, name, days, _fresh, _tired, special in _LEADER_ROWS:
        cards[lid] = {"kind": "leader", "faction": side, "name": name, "days": days,
                      "special": special}
    return cards


TOKENS = _build_tokens()
CARDS = _build_cards()

#: Canonical order of the command cards (region order, then template row).
COMMAND_CARDS = tuple(c for c, d in CARDS.items() if d["kind"] == "command")
CARD_ORDER = {c: i for i, c in enumerate(CARDS)}
TOKEN_ORDER = {t: i for i, t in enumerate(TOKENS)}

UNITS = {side: [t for t, d in TOKENS.items() if d["kind"] == "unit" and d["faction"] == side]
         for side in SIDES}
LEADERS = {side: [lid for lid, s, *_ in _LEADER_ROWS if s == side] for side in SIDES}
NEUTRALS = tuple(f"N{i}" for i in range(1, 7))
OPP_UNITS = tuple(t for t, d in TOKENS.items() if d["kind"] == "opp")


def card_label(cid: str) -> dict[str, Any]:
    """A card as a player reads it (a message): days, region, recruit value, action and VP."""
    card = CARDS[cid]
    if card["kind"] == "leader":
        return msg("card.leader", name=term("leader", cid), days=card["days"],
                   special=term("special", card["special"]))
    return msg("card.command", days=card["days"], region=term("region", card["region"]),
               recruit=card["recruit"], action=term("action", card["action"]), vp=card["vp"])


def card_name(cid: str) -> dict[str, Any]:
    """A card's short name (a message): "Vyborg Side, 5 days, Move", or the leader's name."""
    card = CARDS[cid]
    if card["kind"] == "leader":
        return term("leader", cid)
    return msg("card.name", region=term("region", card["region"]), days=card["days"],
               action=term("action", card["action"]))


def _second_twin(token: str) -> bool:
    """Whether an earlier token of the same kind and side bears the same values (R02 after R01)."""
    info = TOKENS[token]
    same = [t for t, o in TOKENS.items() if o["kind"] == info["kind"] and o["faction"] == info["faction"]
            and (o["fresh"], o["exhausted"]) == (info["fresh"], info["exhausted"])]
    return len(same) > 1 and same.index(token) > 0


def kind_name(token: str) -> dict[str, Any]:
    """A token's name without telling alike tokens apart (red unit 1/0 for R01 and R02)."""
    named = token_name(token)
    return named["args"]["token"] if named["msg"] == "token.second" else named


def token_name(token: str) -> dict[str, Any]:
    """A token's name (a message), as the rulebook calls it with the values it bears: red unit 2/1,
    Lenin, neutral unit 1/2, Opposition unit, level 2; the second of two alike tokens says so."""
    info = TOKENS[token]
    if info["kind"] == "opp":
        return msg("token.opp", level=info["level"])
    if info["kind"] == "leader" or token == "T-NEU":
        return term("leader", token)
    kind = "token.neutral" if info["kind"] == "neutral" else f"token.unit.{info['faction']}"
    out = msg(kind, fresh=info["fresh"], exhausted=info["exhausted"])
    return msg("token.second", token=out) if _second_twin(token) else out
