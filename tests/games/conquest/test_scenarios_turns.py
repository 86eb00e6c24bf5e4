"""Spec section 10, scenarios T07-T15 and T21-T23, T30-T31: mobilisation, cards, objectives, turns."""

from __future__ import annotations

import pytest

from app.games.base import IllegalOrder
from app.games.conquest import RULES
from app.games.conquest import data as D
from app.games.conquest.engine import start_turn
from app.games.conquest.state import deal_objective, valid_sets
from app.games.driver import play_random, replay, start

from .helpers import Dice, en, play, scenario, seat, texts


def _spread(n: int) -> dict[str, str]:
    """Red owns n territories spread so that no theatre is whole."""
    picks = [t for t in D.TERRITORIES if D.IN_THEATRE[D.THEATRE[t]][0] != t][:n]
    return {t: "Red" for t in picks}


@pytest.mark.parametrize(("n", "g"), [(5, 3), (7, 3), (11, 5)])
def test_t07_general_reinforcement(n, g):
    s = scenario(owners=_spread(n))
    start_turn(s, [])
    assert s["pools"] == {"G": g}


def _red_19_with_cbi() -> dict:
    owners = {t: "Red" for t in D.IN_THEATRE["CBI"]}
    owners.update(_spread(13))
    owners["GER"] = "Red"
    assert sum(1 for c in owners.values() if c == "Red") == 19
    s = scenario(owners=owners, phase="MOBILISATION")
    start_turn(s, [])
    return s


def test_t08_theatre_bonus_is_restricted():
    s = _red_19_with_cbi()
    assert s["pools"] == {"G": 9, "CBI": 4}
    red = seat(s, "Red")
    with pytest.raises(IllegalOrder, match=r"at most 9 armies on Germany \(9 general\)"):
        RULES.validate(s, red, RULES.parse("PLACE GER 10"))
    s2, _ = play(s, "Red", "PLACE 6 India")
    assert s2["pools"] == {"G": 7} and s2["armies"]["IND"] == 7


@pytest.mark.parametrize(
    ("players", "counts", "pool"),
    [(3, [14, 14, 14], 7), (4, [11, 11, 10, 10], 5), (5, [9, 9, 8, 8, 8], 4), (2, [21, 21], 10)],
)
def test_t09_deal_and_round_one(players, counts, pool):
    game = start(RULES, {"players": players}, "t09")
    s = game.state
    assert [len([t for t in D.TERRITORIES if s["owner"][t] == p]) for p in s["order"]] == counts
    assert all(a == 1 for a in s["armies"].values())
    assert s["pools"]["G"] == pool and s["current"] == s["order"][0]
    first = s["order"][0]
    with pytest.raises(IllegalOrder, match="Round 1 is placement only"):
        RULES.validate(s, first, {"type": "ATTACK", "pair": "GER-POL"})
    if players == 3:
        mine = next(t for t in D.TERRITORIES if s["owner"][t] == first)
        total = sum(s["pools"].values())
        s2, _ = RULES.resolve(s, {first: {"type": "PLACE", mine: total - 1}}, Dice())
        assert s2["current"] == first
        s3, _ = RULES.resolve(s2, {first: {"type": "PLACE", mine: 1}}, Dice())
        assert s3["current"] == s["order"][1] and s3["armies"][mine] == 1 + total


def _hand(s, colour, *cards):
    s["hands"][seat(s, colour)] = list(cards)


def _cards(*ids):
    return [f"c{D.NUMBER[t]}" if t in D.NUMBER else {"J1": "c43", "J2": "c44"}[t] for t in ids]


@pytest.mark.parametrize(
    ("ids", "error"),
    [
        (["ALA", "WUS", "ICE"], None),
        (["ALA", "WCA", "ECA"], None),
        (["ALA", "WUS", "WCA"], "not a valid set"),
        (["ALA", "WUS", "J1"], None),
        (["J1", "J2", "GER"], None),
        (["ALA", "ALA", "WUS"], "three different cards"),
    ],
)
def test_t10_valid_sets(ids, error):
    s = scenario(phase="MOBILISATION")
    _hand(s, "Red", *_cards("ALA", "WUS", "ICE", "WCA", "ECA", "J1", "J2", "GER")[:4])
    s["hands"][seat(s, "Red")] = sorted(set(_cards(*ids)) | set(_cards("ECA")))
    order = {"type": "TRADE", "cards": _cards(*ids)}
    if error:
        with pytest.raises(IllegalOrder, match=error):
            RULES.validate(s, seat(s, "Red"), order)
    else:
        RULES.validate(s, seat(s, "Red"), order)


def test_t11_trade_values_count_every_commander():
    assert [D.trade_value(n) for n in range(1, 10)] == [4, 6, 8, 10, 12, 15, 20, 25, 30]
    s = scenario(phase="MOBILISATION")
    s["trades"] = 5
    got = []
    for colour in ["Blue", "Olive", "Red"]:
        s["current"], s["phase"], s["pools"] = seat(s, colour), "MOBILISATION", {"G": 0}
        _hand(s, colour, *_cards("J1", "J2", "ALA"))
        s, _ = play(s, colour, {"type": "TRADE", "cards": _cards("J1", "J2", "ALA")})
        got.append(s["pools"]["G"])
        s["discard"] = []
    assert got == [15, 20, 25]


def _t12():
    s = scenario(owners={"GER": "Red", "ITA": "Red", "POL": "Blue"}, phase="MOBILISATION")
    s["trades"], s["pools"] = 3, {"G": 3}
    _hand(s, "Red", *_cards("GER", "ITA", "POL"))
    return s


def test_t12_one_bonus_territory_per_trade():
    s = _t12()
    s2, ev = play(s, "Red", "TRADE c12 c13 c17 BONUS Italy")
    assert s2["trades"] == 4 and s2["pools"]["G"] == 13
    assert s2["armies"]["ITA"] == 3 and s2["armies"]["GER"] == 1
    with pytest.raises(IllegalOrder, match="BONUS must be a territory you control"):
        RULES.validate(s, seat(s, "Red"), RULES.parse("TRADE c12 c13 c17 BONUS=POL"))
    s3, _ = play(s, "Red", "TRADE c12 c13 c17")
    assert s3["armies"]["GER"] == 3 and s3["armies"]["ITA"] == 1


def test_t12_in_the_specs_own_words_cards_named_by_territory():
    s = _t12()
    s2, _ = play(s, "Red", "TRADE GER ITA POL BONUS=ITA")
    assert s2["trades"] == 4 and s2["pools"]["G"] == 13
    assert s2["armies"]["ITA"] == 3 and s2["armies"]["GER"] == 1
    with pytest.raises(IllegalOrder, match="BONUS must be a territory you control"):
        RULES.validate(s, seat(s, "Red"), RULES.parse("TRADE GER ITA POL BONUS=POL"))


def test_t13_mandatory_trade_at_five_cards():
    owners = {"GER": "Red"}
    s = scenario(owners=owners, phase="MOBILISATION")
    s["pools"] = {"G": 3}
    red = seat(s, "Red")
    _hand(s, "Red", *_cards("ALA", "WUS", "ICE", "WCA", "ECA"))
    for text in ["PLACE 3 Germany", "END_MOBILISATION"]:
        with pytest.raises(IllegalOrder, match="You hold 5 cards; trade until you hold 4 or fewer"):
            RULES.validate(s, red, RULES.parse(text))
    s2, _ = play(s, "Red", "TRADE c1 c4 c7")
    assert len(s2["hands"][red]) == 2
    play(s2, "Red", "PLACE 3 Germany")
    s["hands"][red] = _cards("ALA", "WUS", "ICE", "WCA", "ECA", "GBR", "EUS", "NOR")
    s2, _ = play(s, "Red", "TRADE c1 c4 c7")
    with pytest.raises(IllegalOrder, match="You hold 5 cards"):
        RULES.validate(s2, red, RULES.parse("PLACE 3 Germany"))
    s3, _ = play(s2, "Red", "TRADE c2 c5 c8")
    assert len(s3["hands"][red]) == 2


def test_t14_elimination_passes_cards():
    owners = {"GER": "Red", "POL": "Blue"}
    s = scenario(owners=owners, armies={"GER": 9, "POL": 1}, rest=["Olive"])
    s["kind"][seat(s, "Olive")] = "ai"
    red, blue = seat(s, "Red"), seat(s, "Blue")
    _hand(s, "Blue", *_cards("ALA", "WUS", "ICE"))
    _hand(s, "Red", *_cards("WCA", "ECA"))
    s, ev = play(s, "Red", "ATTACK GER POL ADVANCE=MAX", Dice(6, 6, 6, 1))
    assert s["status"][blue] == "ELIMINATED" and len(s["hands"][red]) == 5
    assert any(e["to"] == [red] and "Alaska (infantry)" in en(e["text"]) for e in ev)  # card c1, by its name
    with pytest.raises(IllegalOrder, match="TRADE is not allowed in the offensive phase"):
        RULES.validate(s, red, RULES.parse("TRADE c1 c4 c7"))
    s, _ = play(s, "Red", "END_TURN")
    assert s["current"] == red and s["phase"] == "MOBILISATION"
    assert len(s["hands"][red]) == 6
    assert en(RULES.owed(s)[red]["title"]).startswith("You hold 6 cards")
    with pytest.raises(IllegalOrder, match="You hold 6 cards"):
        RULES.validate(s, red, {"type": "PLACE", "GER": 1})
    trades = RULES.owed(s)[red]["forms"]  # only trades: one form per valid set of the six cards
    assert trades and all(f["base"]["type"] == "TRADE" for f in trades)
    assert [f["base"]["cards"] for f in trades] == valid_sets(s["hands"][red])
    s, _ = play(s, "Red", {"type": "TRADE", "cards": _cards("ALA", "WUS", "ICE")})
    assert len(s["hands"][red]) == 3


def test_t15_discard_reshuffled_when_drawing_from_empty_pile():
    s = scenario(phase="REGROUP")
    red = seat(s, "Red")
    s["conquered"] = True
    s["discard"], s["draw"] = s["draw"][:9], []
    s, ev = play(s, "Red", "END_TURN")
    assert len(s["hands"][red]) == 1 and len(s["draw"]) == 8 and s["discard"] == []
    assert "shuffled" in texts(ev)


def test_t21_objective_converted_by_another_wins_at_next_turn_start():
    owners = {t: "Red" for t in D.TERRITORIES[:27]}
    owners.update({"GER": "Olive", "POL": "Blue"})
    s = scenario(players=4, owners=owners, armies={"GER": 9, "POL": 1}, current="Olive", rest=["Olive", "Ochre"])
    red, blue = seat(s, "Red"), seat(s, "Blue")
    assert sum(1 for t in D.TERRITORIES if s["owner"][t] == red) >= 24
    s["objective"][red] = {"card": "O11", "goal": "O11", "converted": False}
    s, ev = play(s, "Olive", "ATTACK GER POL ADVANCE=MAX", Dice(6, 6, 6, 1))
    assert s["status"][blue] == "ELIMINATED"
    assert s["objective"][red]["goal"] == "O7" and RULES.outcome(s) is None
    private = [e for e in ev if "objective is now" in en(e["text"])]
    assert private and all(e["to"] == [red] for e in private)
    s, _ = play(s, "Olive", "END_TURN")
    assert RULES.outcome(s) is None and s["current"] == seat(s, "Ochre")
    s, ev = play(s, "Ochre", {"type": "TIMEOUT"})
    assert RULES.outcome(s)[0]["seat"] == red
    assert s["pools"] == {} and "24" in texts(ev)


def test_t22_destruction_objectives_at_setup():
    seated = ["Olive", "Red", "Blue"]
    assert deal_objective("O14", "Olive", seated)["goal"] == "O7"
    assert deal_objective("O10", "Red", seated)["goal"] == "O7"
    assert deal_objective("O9", "Blue", seated) == {"card": "O9", "goal": "O9", "converted": False}


@pytest.mark.parametrize(("extra", "wins"), [("PAC", True), ("EF7", False)])
def test_t23_two_named_theatres_plus_one(extra, wins):
    owners = {t: "Red" for h in ["AM", "CBI"] for t in D.IN_THEATRE[h]}
    owners.update({t: "Red" for t in (D.IN_THEATRE["PAC"] if extra == "PAC" else D.IN_THEATRE["EF"][:7])})
    s = scenario(owners=owners, current="Olive", phase="REGROUP")
    red = seat(s, "Red")
    s["objective"][red] = {"card": "O6", "goal": "O6", "converted": False}
    s["current"] = seat(s, "Olive")
    s, _ = play(s, "Olive", "END_TURN")
    assert (RULES.outcome(s) is not None and RULES.outcome(s)[0]["seat"] == red) is wins


def test_t30_eliminated_commander_is_skipped():
    owners = {"GER": "Blue", "POL": "Olive"}
    s = scenario(
        players=4,
        owners=owners,
        armies={"GER": 9, "POL": 1},
        current="Blue",
        round_=9,
        rest=["Red", "Blue", "Ochre"],
    )
    olive = seat(s, "Olive")
    s, _ = play(s, "Blue", "ATTACK GER POL ADVANCE=MAX", Dice(6, 6, 6, 1))
    assert s["status"][olive] == "ELIMINATED"
    s, _ = play(s, "Blue", "END_TURN")
    assert s["current"] == seat(s, "Ochre") and s["round"] == 9
    s["phase"] = "REGROUP"
    s["pools"] = {}
    s, _ = play(s, "Ochre", "END_TURN")
    assert s["current"] == seat(s, "Red") and s["round"] == 10


def test_t31_replay_gives_identical_logs_with_ai_turns():
    options = {"players": 4, "ai_seats": 2, "round_limit": 30}
    a = play_random(RULES, options, "t31")
    b = play_random(RULES, options, "t31")
    assert a.events == b.events and a.state == b.state
    assert replay(RULES, a.options, "t31", a.steps) == a.state
