"""HOUSE DATA checked against the spec's tables (section 2)."""

from __future__ import annotations

from collections import Counter

from app.games.dual_powers import data as D


def test_six_regions_in_canonical_order_with_one_tile_each():
    assert D.REGIONS == ("RED", "GRN", "BLU", "WHT", "BRN", "PUR")
    assert D.REGION_NAMES["RED"] == "Vyborg Side" and D.REGION_NAMES["WHT"] == "Admiralty"
    assert sorted(D.TILES) == sorted(f"TILE-{r}" for r in D.REGIONS)


def test_connections_form_a_ring_with_one_arrow_per_colour():
    assert D.CONNECTIONS == {
        "A-RED": ["RED", "GRN"], "A-GRN": ["GRN", "BLU"], "A-BLU": ["BLU", "WHT"],
        "A-WHT": ["WHT", "BRN"], "A-BRN": ["BRN", "PUR"], "A-PUR": ["PUR", "RED"],
    }
    degree = Counter(r for ends in D.CONNECTIONS.values() for r in ends)
    assert set(degree.values()) == {2}
    pairs = {frozenset(e) for e in D.CONNECTIONS.values()}
    for a, b in (("GRN", "RED"), ("BLU", "WHT"), ("BRN", "PUR")):  # Examples C and D
        assert frozenset((a, b)) in pairs


def test_calendar_months_and_unrest_vp():
    assert D.MONTHS[0] == "March/April" and D.MONTHS[5] == "October/November"
    assert D.UNREST_VP == (2, 2, 3, 4, 5, 6)
    assert D.TRACK_END == 12


def test_faction_units_match_the_spec_table():
    expected = [(1, 1, 0), (1, 1, 0), (1, 1, 1), (1, 1, 1), (2, 2, 1), (2, 2, 1), (2, 3, 0), (2, 2, 2),
                (3, 3, 2), (3, 3, 3)]
    for side, prefix in (("SOV", "R"), ("GOV", "W")):
        ids = [f"{prefix}{i:02d}" for i in range(1, 11)]
        assert D.UNITS[side] == ids
        got = [(D.TOKENS[t]["recruit"], D.TOKENS[t]["fresh"], D.TOKENS[t]["exhausted"]) for t in ids]
        assert got == expected


def test_neutrals_leaders_and_trotsky_match_the_spec():
    assert [D.TOKENS[n]["exhausted"] for n in D.NEUTRALS] == [0, 0, 1, 1, 2, 2]
    assert all(D.TOKENS[n]["fresh"] == 1 for n in D.NEUTRALS)
    leaders = {lid: (D.CARDS[lid]["faction"], D.CARDS[lid]["days"], D.TOKENS[lid]["fresh"],
                     D.TOKENS[lid]["exhausted"], D.CARDS[lid]["special"])
               for side in D.SIDES for lid in D.LEADERS[side]}
    assert leaders == {
        "L-LEN": ("SOV", 4, 3, 2, "INSPIRE"), "L-DZE": ("SOV", 3, 2, 2, "ESPIONAGE"),
        "L-KOL": ("SOV", 5, 4, 1, "MOBILIZE"), "L-KER": ("GOV", 4, 3, 2, "INSPIRE"),
        "L-MIL": ("GOV", 3, 2, 2, "ESPIONAGE"), "L-KOR": ("GOV", 5, 4, 1, "MOBILIZE"),
    }
    assert (D.TOKENS["T-NEU"]["fresh"], D.TOKENS["T-NEU"]["exhausted"]) == (3, 2)
    assert (D.TOKENS["T-RED"]["fresh"], D.TOKENS["T-RED"]["exhausted"]) == (3, 2)


def test_opposition_has_nine_units_of_each_level():
    assert Counter(D.TOKENS[t]["level"] for t in D.OPP_UNITS) == {1: 9, 2: 9, 3: 9}


def test_48_command_cards_follow_the_template():
    assert len(D.COMMAND_CARDS) == 48 and len(set(D.COMMAND_CARDS)) == 48
    template = [("2", 2, 1, "MOVE", 1), ("3", 3, 3, "REFRESH", 1), ("4", 4, 2, "DOUBLE", 2),
                ("5A", 5, 2, "MOVE", 3), ("5B", 5, 1, "REFRESH", 3), ("6A", 6, 3, "MOVE", 2),
                ("6B", 6, 1, "DOUBLE", 4), ("7", 7, 2, "REFRESH", 4)]
    for region in D.REGIONS:
        for suffix, days, recruit, action, vp in template:
            card = D.CARDS[f"C-{region}-{suffix}"]
            assert (card["region"], card["days"], card["recruit"], card["action"], card["vp"]) == (
                region, days, recruit, action, vp)
    cards = [D.CARDS[c] for c in D.COMMAND_CARDS]
    assert Counter(c["action"] for c in cards) == {"MOVE": 18, "REFRESH": 18, "DOUBLE": 12}
    assert Counter(c["recruit"] for c in cards) == {1: 18, 2: 18, 3: 12}
    assert sum(c["days"] for c in cards) / 48 == 4.75


def test_every_id_is_unique_across_cards_tokens_tiles_and_connections():
    command_and_tiles = list(D.COMMAND_CARDS) + list(D.TILES) + list(D.CONNECTIONS) + list(D.REGIONS)
    units = [t for t in D.TOKENS if not t.startswith("L-")]
    everything = command_and_tiles + units
    assert len(everything) == len(set(everything))
