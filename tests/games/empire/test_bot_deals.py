"""Empire's planning bot in turn 3's diplomacy and at the market, asked as a player is: from its
view and prompt."""

from __future__ import annotations

from app.games.empire import data
from tests.games.empire.helpers import lines, order_of, put, res, scenario, seat


def holding(st, colour: str, objective: str) -> None:
    st["players"][seat(st, colour)]["objectives"] = [objective]


def markers(st, colour: str, n: int) -> None:
    """``n`` trade markers, earned with two partners."""
    others = [s for s in st["seats"] if s != seat(st, colour)]
    st["players"][seat(st, colour)]["trade"] = [others[i % 2] for i in range(n)]


def test_a_usurper_signs_no_pact_even_with_a_threatening_neighbour():
    st = scenario(4)
    st["phase"] = "T3B"
    blue, red = seat(st, "BLUE"), seat(st, "RED")
    put(st, "B-S1", 1)
    put(st, "R-S1", 5)
    st["pact_props"] = [{"id": "R-PACT", "from": red, "to": blue, "province": 9}]
    holding(st, "BLUE", "O1")
    assert [ln["id"] for ln in lines(order_of(st, "BLUE"), "ACCEPT_PACT")] == ["R-PACT"]
    holding(st, "BLUE", "O4")
    order = order_of(st, "BLUE")
    assert not lines(order, "ACCEPT_PACT"), "Redhold is a centre it may want to take"
    assert [ln["id"] for ln in lines(order, "DECLINE_PACT")] == ["R-PACT"]
    st["phase"], st["pact_props"] = "T3A", []
    assert not lines(order_of(st, "BLUE"), "PACT")
    holding(st, "BLUE", "O1")
    assert lines(order_of(st, "BLUE"), "PACT"), "without O4 it proposes a pact to the threat"


def test_no_trade_with_a_rival_near_the_guild_masters_goal():
    st = scenario(4)
    st["phase"] = "T3B"
    red = seat(st, "RED")
    holding(st, "BLUE", "O6")
    res(st, "BLUE", WOOD=4, STONE=4)
    st["offers"] = [{"id": "R-O1", "from": red, "to": None, "give_n": 1, "give": "IRON", "get_n": 1, "get": "WOOD"}]
    assert lines(order_of(st, "BLUE"), "ACCEPT_OFFER"), "a Guild master takes any trade it can pay"
    markers(st, "RED", data.OBJECTIVE_NEED["O6"] - 2)
    assert not lines(order_of(st, "BLUE"), "ACCEPT_OFFER"), "Red is two markers from winning"
    assert [ln["id"] for ln in lines(order_of(st, "BLUE"), "DECLINE_OFFER")] == ["R-O1"]


def test_a_guild_masters_offers_go_by_name_to_the_others_when_a_rival_nears_its_goal():
    st = scenario(4)
    st["phase"] = "T3A"
    holding(st, "BLUE", "O6")
    res(st, "BLUE", WOOD=8, FOOD=2, POP=1)
    offers = lines(order_of(st, "BLUE"), "OFFER")
    assert offers and all(ln.get("to") is None for ln in offers), "to everyone"
    markers(st, "RED", data.OBJECTIVE_NEED["O6"] - 3)
    offers = lines(order_of(st, "BLUE"), "OFFER")
    assert offers and all(ln.get("to") not in (None, "RED") for ln in offers)


def test_no_trade_hands_a_rival_a_marker_while_guild_master_is_in_play():
    """Surplus Wood and no Food for the population: at 2 players (no Guild master) the bot offers
    Wood for Food and takes an offer of Food; with 3 or 4 players, without Guild master itself,
    it accepts nothing, since any rival may hold the card; at 3 it offers nothing either, at 4
    only hard bargains (one Wood for three Iron, which its heavy troop lacks)."""
    for players, trades in ((2, True), (3, False), (4, False)):
        st = scenario(players)
        st["phase"] = "T3A"
        holding(st, "BLUE", "O1")
        res(st, "BLUE", WOOD=8, STONE=2, IRON=2, FOOD=0, POP=2)
        offers = [(ln["give_n"], ln["give"], ln["get_n"], ln["get"]) for ln in lines(order_of(st, "BLUE"), "OFFER")]
        if trades:
            assert offers and all((give, get) == ("WOOD", "FOOD") for _, give, _, get in offers)
        else:
            assert offers == ([(1, "WOOD", 3, "IRON")] if players == 4 else []), players
        st["phase"] = "T3B"
        other = seat(st, "YELLOW")
        st["offers"] = [{"id": "Y-O1", "from": other, "to": None, "give_n": 1, "give": "FOOD", "get_n": 1,
                         "get": "WOOD"}]
        order = order_of(st, "BLUE")
        assert bool(lines(order, "ACCEPT_OFFER")) is trades, players
        assert [ln["id"] for ln in lines(order, "DECLINE_OFFER")] == ([] if trades else ["Y-O1"])


def test_a_rival_out_of_the_guild_masters_reach_may_trade():
    """Round 10 of 20: a rival with 1 trade marker can reach 12 at most, short of the goal (13),
    so the bot accepts its offer; one with 2 markers still could, and gets no trade."""
    st = scenario(4, round_no=10)
    holding(st, "BLUE", "O1")
    res(st, "BLUE", WOOD=8, STONE=2, IRON=2, FOOD=0, POP=2)
    for colour in ("GREEN", "YELLOW", "RED"):
        markers(st, colour, 2)
    yellow = seat(st, "YELLOW")
    st["offers"] = [{"id": "Y-O1", "from": yellow, "to": None, "give_n": 1, "give": "FOOD", "get_n": 1, "get": "WOOD"}]
    for n, trades in ((2, False), (1, True)):
        markers(st, "YELLOW", n)
        st["phase"] = "T3A"
        offers = lines(order_of(st, "BLUE"), "OFFER")
        assert all(ln["get_n"] == 3 and ln.get("to") is None for ln in offers), "at 4 players: hard bargains"
        st["phase"] = "T3B"
        assert bool(lines(order_of(st, "BLUE"), "ACCEPT_OFFER")) is trades, n


def test_a_builds_missing_good_comes_before_a_food_stock_and_after_the_populations_food():
    st = scenario(2)
    st["phase"] = "T4"
    holding(st, "BLUE", "O2")
    put(st, "B-S1", 1)
    put(st, "B-H1", 1)  # a conqueror already: the Wall is the build wanted
    res(st, "BLUE", GOLD=8, STONE=1, IRON=2, WOOD=1, FOOD=4, POP=3)
    order = order_of(st, "BLUE")
    assert lines(order, "MARKET") == [{"op": "MARKET", "side": "BUY", "res": "STONE", "n": 1}]
    assert [ln["what"] for ln in lines(order, "BUILD")] == ["WALL"]
    res(st, "BLUE", FOOD=3)
    order = order_of(st, "BLUE")
    assert lines(order, "MARKET") == [{"op": "MARKET", "side": "BUY", "res": "STONE", "n": 1}], \
        "3 Food feed the 3 Pop: the build that the buy completes comes before the Food margin"
    assert [ln["what"] for ln in lines(order, "BUILD")] == ["WALL"]
    res(st, "BLUE", FOOD=2)
    order = order_of(st, "BLUE")
    assert lines(order, "MARKET") == [{"op": "MARKET", "side": "BUY", "res": "FOOD", "n": 2}], \
        "the population's Food and its margin first, with a stock: 2 + 4 Food for 3 Pop"
    assert not lines(order, "BUILD")


def test_while_guild_master_is_in_play_a_trade_must_pay_three_for_one():
    """Walls for O2 lack Stone and Iron: one Food (held most, and not lacking) for three of each,
    open to everyone; nothing once the build has its goods."""
    st = scenario(4)
    st["phase"] = "T3A"
    holding(st, "BLUE", "O2")
    put(st, "B-H1", 1)  # a conqueror already: the Wall is the build wanted
    res(st, "BLUE", FOOD=6, WOOD=2, STONE=0, IRON=1, POP=2)
    offers = lines(order_of(st, "BLUE"), "OFFER")
    assert [(ln["give_n"], ln["give"], ln["get_n"], ln["get"], ln.get("to")) for ln in offers] == [
        (1, "FOOD", 3, "STONE", None), (1, "FOOD", 3, "IRON", None)]
    res(st, "BLUE", STONE=3, IRON=2)
    assert not lines(order_of(st, "BLUE"), "OFFER"), "the Wall's goods are all there"


def test_a_hard_bargain_is_declined():
    """An offer asking more than it gives is declined, even with nothing to fear (2 players); a
    Guild master takes it for the marker unless it asks three for one."""
    st = scenario(2)
    st["phase"] = "T3B"
    holding(st, "BLUE", "O1")
    res(st, "BLUE", WOOD=8, STONE=2, IRON=2, FOOD=0, POP=2)
    other = seat(st, "YELLOW")
    offer = {"id": "Y-O1", "from": other, "to": None, "give_n": 2, "give": "FOOD", "get_n": 2, "get": "WOOD"}
    st["offers"] = [offer]
    assert lines(order_of(st, "BLUE"), "ACCEPT_OFFER"), "two Food for two Wood"
    st["offers"] = [dict(offer, get_n=3)]
    assert not lines(order_of(st, "BLUE"), "ACCEPT_OFFER"), "two Food for three Wood"
    holding(st, "BLUE", "O6")
    assert lines(order_of(st, "BLUE"), "ACCEPT_OFFER"), "a Guild master takes it for the marker"
    st["offers"] = [dict(offer, give_n=1, get_n=3)]
    assert not lines(order_of(st, "BLUE"), "ACCEPT_OFFER"), "but pays no three for one"
