"""HOUSE DATA checked against the spec's tables (§2, §3, §6)."""

from __future__ import annotations

from collections import Counter

from app.games.empire import data

# spec §2.1, transcribed: id -> (name, resource, amount, adjacent)
SPEC_MAP = """
1 Bluehold FOOD 3 2,5
2 Westwood WOOD 2 1,3,6
3 Eastwood WOOD 2 2,4,7
4 Greenhold FOOD 3 3,8
5 Westmarch IRON 2 1,6,9
6 Westgold GOLD 1 2,5,7,10
7 Eastgold GOLD 1 3,6,8,11
8 Eastmarch IRON 2 4,7,12
9 Redhold FOOD 3 5,10
10 Westquarry STONE 2 6,9,11
11 Eastquarry STONE 2 7,10,12
12 Yellowhold FOOD 3 8,11
"""


def test_map_matches_spec_table():
    for line in SPEC_MAP.strip().splitlines():
        pid, name, res, amount, adj = line.split()
        info = data.PROVINCES[int(pid)]
        assert (info["name"], info["res"], info["amount"]) == (name, res, int(amount))
        assert info["adj"] == [int(x) for x in adj.split(",")]
    assert len(data.PROVINCES) == 12


def test_map_is_the_orthogonal_4_by_3_grid():
    for p, info in data.PROVINCES.items():
        row, col = divmod(p - 1, 4)
        grid = {r * 4 + c + 1 for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                if 0 <= r < 3 and 0 <= c < 4}
        assert set(info["adj"]) == grid
        assert all(p in data.PROVINCES[q]["adj"] for q in info["adj"])


def test_homes_and_seat_colours_per_player_count():
    assert data.HOME == {"BLUE": 1, "GREEN": 4, "YELLOW": 12, "RED": 9}
    assert data.COLOURS_BY_COUNT == {4: ["BLUE", "GREEN", "YELLOW", "RED"],
                                     3: ["BLUE", "GREEN", "YELLOW"], 2: ["BLUE", "YELLOW"]}
    assert data.START_STOCK == {"GOLD": 3, "WOOD": 2, "STONE": 2, "IRON": 2, "FOOD": 2, "POP": 2}


def test_builds_tribute_die_and_market():
    assert data.BUILD_COST == {"INF": {"WOOD": 3, "STONE": 2, "IRON": 1},
                               "WALL": {"STONE": 3, "IRON": 2, "WOOD": 1},
                               "HEAVY": {"IRON": 3, "WOOD": 2, "STONE": 1}}
    assert data.TRIBUTE_DIE == {1: "GOLD", 2: "WOOD", 3: "STONE", 4: "IRON", 5: "FOOD", 6: "FREE"}
    assert data.MARKET_GOODS == ["WOOD", "STONE", "IRON", "FOOD"]
    assert (data.MARKET_BUY_RATE, data.MARKET_SELL_LOT) == (2, 3)
    assert data.NO_INF == [6, 7] and (data.MAX_SIMPLE, data.MAX_HEAVY) == (20, 5)


def test_setback_deck_has_40_cards_with_spec_counts():
    spec_counts = {"S01": 2, "S02": 2, "S03": 2, "S04": 2, "S05": 3, "S06": 2, "S07": 2, "S08": 3,
                   "S09": 2, "S10": 2, "S11": 2, "S12": 2, "S13": 1, "S14": 3, "S15": 2, "S16": 2,
                   "S17": 2, "S18": 1, "S19": 1, "S20": 2}
    deck = data.setback_deck()
    assert len(deck) == 40 and len(set(deck)) == 40
    assert Counter(c[:3] for c in deck) == spec_counts
    assert data.SETBACKS["S17"]["name"] == "Scandal" and data.SETBACKS["S08"]["name"] == "Desertion"


def test_eight_objectives_and_round_limits():
    names = {"O1": "Dominion", "O2": "Fortress realm", "O3": "Prosperity", "O4": "Usurper",
             "O5": "Warlord", "O6": "Guild master", "O7": "Great army", "O8": "Heartland"}
    assert {k: v["name"] for k, v in data.OBJECTIVES.items()} == names
    assert data.ROUND_LIMIT == {"short": 20, "long": 30}
    assert data.OBJECTIVES_PER_MODE == {"short": 1, "long": 2}
