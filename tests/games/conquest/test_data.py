"""HOUSE DATA checks against the spec's tables (sections 2, 3, 4.5) and its check list."""

from __future__ import annotations

from collections import Counter

from app.games.conquest import data as D


def test_42_territories_numbered_in_six_theatres():
    assert len(D.TERRITORIES) == 42 == len(set(D.TERRITORIES))
    assert sorted(D.NUMBER.values()) == list(range(1, 43))
    assert {h: len(D.IN_THEATRE[h]) for h in D.THEATRES} == {
        "AM": 6,
        "WE": 7,
        "EF": 8,
        "AME": 8,
        "CBI": 6,
        "PAC": 7,
    }


def test_72_links_by_kind_symmetric_without_duplicates():
    kinds = Counter(k for _, _, k in D.LINKS)
    assert kinds == {"land": 45, "sea": 23, "edge": 3, "air": 1}
    assert sum(len(v) for v in D.NEIGHBOURS.values()) == 144
    pairs = [frozenset((a, b)) for a, b, _ in D.LINKS]
    assert len(set(pairs)) == 72 and all(len(p) == 2 for p in pairs)
    for t, ns in D.NEIGHBOURS.items():
        for n in ns:
            assert t in D.NEIGHBOURS[n]


def _connected(nodes: list[str]) -> bool:
    seen, todo = {nodes[0]}, [nodes[0]]
    while todo:
        for n in D.NEIGHBOURS[todo.pop()]:
            if n in nodes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == set(nodes)


def test_graph_and_every_theatre_connected():
    assert _connected(D.TERRITORIES)
    for h in D.THEATRES:
        assert _connected(D.IN_THEATRE[h]), h


def test_named_sea_edge_and_air_routes():
    sea = (
        "ECA~ICE EUS~BRA BRA~WAF WUS~HAW ICE~GBR ICE~NOR ICE~LEN GBR~NOR GBR~FRA GBR~GER NOR~GER SPA~ALG "
        "ITA~LIB BAL~EGY MAN~JAP OCH~JAP JAP~PHI PHI~MAL PHI~DEI MAL~DEI DEI~NGU DEI~AUS NGU~AUS"
    )
    by_kind = {frozenset((a, b)): k for a, b, k in D.LINKS}
    for link in sea.split():
        assert by_kind[frozenset(link.split("~"))] == "sea", link
    edges = {p for p, k in by_kind.items() if k == "edge"}
    assert edges == {frozenset(("ALA", "JAP")), frozenset(("HAW", "JAP")), frozenset(("HAW", "NGU"))}
    assert [p for p, k in by_kind.items() if k == "air"] == [frozenset(("IND", "NCH"))]


def test_theatre_bonus_formula_and_border_territories():
    border = {
        "AM": {"ALA", "ECA", "WUS", "BRA"},
        "WE": {"ICE", "NOR", "SPA", "GER", "ITA"},
        "EF": {"FIN", "LEN", "POL", "BAL", "CAU"},
        "AME": {"ALG", "LIB", "EGY", "WAF", "IRN"},
        "CBI": {"IND", "OCH", "MAN", "IDC"},
        "PAC": {"JAP", "MAL", "HAW"},
    }
    for h in D.THEATRES:
        got = {t for t in D.IN_THEATRE[h] if D.BORDER[t]}
        assert got == border[h], h
        t_, b_ = len(D.IN_THEATRE[h]), len(got)
        assert D.THEATRE_BONUS[h] == b_ + (t_ - b_) // 3
    assert D.THEATRE_BONUS == {"AM": 4, "WE": 5, "EF": 6, "AME": 6, "CBI": 4, "PAC": 4}


def test_44_cards_14_of_each_symbol_and_2_jokers():
    assert len(D.DECK) == 44 == len(set(D.DECK))
    assert Counter(D.CARD_SYMBOL.values()) == {"INF": 14, "ARM": 14, "ART": 14, "JOKER": 2}
    for t in D.TERRITORIES:
        card = f"c{D.NUMBER[t]}"
        assert D.CARD_TERRITORY[card] == t
        assert D.CARD_SYMBOL[card] == {1: "INF", 2: "ARM", 0: "ART"}[D.NUMBER[t] % 3]
    assert D.CARD_TERRITORY["c43"] is None and D.CARD_TERRITORY["c44"] is None


def test_trade_values_table():
    assert [D.trade_value(n) for n in range(1, 14)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50]


def test_fourteen_objective_cards_one_destruction_per_colour():
    assert D.OBJECTIVE_ORDER == [f"O{n}" for n in range(1, 15)]
    assert [D.OBJECTIVES[f"O{n}"]["destroy"] for n in range(9, 15)] == D.COLOURS
    assert D.COLOURS == ["Olive", "Red", "Blue", "Ochre", "Grey", "Black"]
    assert D.OBJECTIVES["O6"] == {"theatres": ["CBI", "AM"], "plus_one": True}
