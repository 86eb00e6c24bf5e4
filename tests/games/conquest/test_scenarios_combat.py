"""Spec section 10, scenarios T01-T06 and T16-T20, T29: dice, conquest, advance, regroup, victory."""

from __future__ import annotations

import re

import pytest

from app.games.base import IllegalOrder
from app.games.conquest import RULES
from app.i18n import gametext

from .helpers import Dice, play, scenario, seat, texts


def test_t01_three_dice_each_ties_to_defender():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 5, "POL": 4})
    s2, ev = play(s, "Red", "ATTACK Germany Poland", Dice(2, 6, 3, 1, 5, 3))
    assert (s2["armies"]["GER"], s2["armies"]["POL"]) == (4, 2)
    assert "2 6 3 against 1 5 3" in texts(ev)
    assert ev[0]["dice"] == {"attacker": [2, 6, 3], "defender": [1, 5, 3], "from": "GER", "to": "POL"}
    roll = RULES.view(s2, None)["last_roll"]
    assert roll["attacker"] == [2, 6, 3] and roll["losses"] == [1, 2] and not roll["conquered"]


def test_t02_one_die_against_three_then_too_few_armies():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 2, "POL": 3})
    s2, _ = play(s, "Red", "ATTACK GER POL", Dice(4, 4, 2, 1))
    assert (s2["armies"]["GER"], s2["armies"]["POL"]) == (1, 3)
    with pytest.raises(IllegalOrder, match="Germany needs at least 2 armies to attack"):
        RULES.validate(s2, seat(s2, "Red"), RULES.parse("ATTACK GER POL"))


def test_t03_two_dice_each():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 3, "POL": 2})
    s2, _ = play(s, "Red", "ATTACK GER POL", Dice(1, 5, 4, 4))
    assert (s2["armies"]["GER"], s2["armies"]["POL"]) == (2, 1)


def test_t04_conquest_waits_for_advance():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 7, "POL": 1})
    s2, ev = play(s, "Red", "ATTACK GER POL", Dice(2, 2, 1, 1))
    red = seat(s2, "Red")
    assert s2["owner"]["POL"] == red and s2["armies"]["POL"] == 1 and s2["armies"]["GER"] == 6
    assert s2["pending"] == {"from": "GER", "to": "POL", "d": 3}
    assert RULES.owed(s2)[red]["kind"] == "advance"
    with pytest.raises(IllegalOrder, match="First decide how many armies occupy Poland: ADVANCE 1..3"):
        RULES.validate(s2, red, RULES.parse("MOVE 1 GER POL"))
    with pytest.raises(IllegalOrder, match="ADVANCE must be between 1 and 3"):
        RULES.validate(s2, red, RULES.parse("ADVANCE 4"))
    s3, _ = play(s2, "Red", "ADVANCE 3")
    assert (s3["armies"]["GER"], s3["armies"]["POL"]) == (4, 3) and s3["pending"] is None


def test_t05_advance_max_after_winning_both_pairs():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 4, "POL": 2})
    s2, _ = play(s, "Red", "ATTACK GER POL ADVANCE=MAX", Dice(6, 5, 1, 3, 2))
    assert (s2["armies"]["GER"], s2["armies"]["POL"]) == (1, 3)
    assert s2["pending"] is None


def test_t06_conquest_with_one_die_leaves_nothing_pending():
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 2, "POL": 1})
    s2, _ = play(s, "Red", "ATTACK GER POL", Dice(6, 5))
    assert s2["owner"]["POL"] == seat(s2, "Red")
    assert (s2["armies"]["GER"], s2["armies"]["POL"]) == (1, 1) and s2["pending"] is None


def test_t16_each_army_moves_once_in_regroup():
    s = scenario(owners={"ALA": "Red", "WCA": "Red", "ECA": "Red"}, armies={"ALA": 5, "WCA": 1, "ECA": 4})
    s, _ = play(s, "Red", "END_OFFENSIVE")
    assert s["moves_left"]["ALA"] == 5 and s["moves_left"]["WCA"] == 1 and s["moves_left"]["ECA"] == 4
    s, _ = play(s, "Red", "MOVE 4 Alaska Western Canada")
    assert (s["armies"]["ALA"], s["armies"]["WCA"]) == (1, 5)
    red = seat(s, "Red")
    with pytest.raises(IllegalOrder, match="Only 1 army in Western Canada can still move"):
        RULES.validate(s, red, RULES.parse("MOVE 4 WCA ECA"))
    s, _ = play(s, "Red", "MOVE WCA ECA 1")
    assert (s["armies"]["WCA"], s["armies"]["ECA"]) == (4, 5)
    s, _ = play(s, "Red", "MOVE ECA WCA 4")
    assert (s["armies"]["ECA"], s["armies"]["WCA"]) == (1, 8)
    with pytest.raises(IllegalOrder, match="Only 0 armies in Western Canada"):
        RULES.validate(s, red, RULES.parse("MOVE WCA ALA 1"))
    with pytest.raises(IllegalOrder, match="Alaska must keep at least 1 army"):
        RULES.validate(s, red, RULES.parse("MOVE ALA WCA 1"))
    with pytest.raises(IllegalOrder, match="Alaska and Eastern Canada are not neighbours"):
        RULES.validate(s, red, RULES.parse("MOVE ALA ECA 1"))


def test_t17_conquest_arrivals_may_regroup():
    s = scenario(owners={"GER": "Red", "POL": "Blue", "LEN": "Red"}, armies={"GER": 7, "POL": 1})
    s, _ = play(s, "Red", "ATTACK GER POL ADVANCE=3", Dice(6, 6, 6, 1))
    assert s["armies"]["POL"] == 3
    s, _ = play(s, "Red", "END_OFFENSIVE")
    assert s["moves_left"]["POL"] == 3
    s, _ = play(s, "Red", "MOVE POL LEN 2")
    assert (s["armies"]["POL"], s["armies"]["LEN"]) == (1, 3)


def _red_with(n: int, extra: dict[str, str]) -> dict[str, str]:
    """Red owns ``n`` territories counted from the end of the map, plus ``extra``."""
    from app.games.conquest import data as D

    owners = dict(extra)
    for t in reversed(D.TERRITORIES):
        if sum(1 for c in owners.values() if c == "Red") >= n:
            break
        if t not in owners:
            owners[t] = "Red"
    return owners


def test_t18_twenty_fourth_territory_wins_before_advance():
    owners = _red_with(23, {"GER": "Red", "POL": "Blue"})
    s = scenario(owners=owners, armies={"GER": 7, "POL": 1})
    red = seat(s, "Red")
    s["objective"][red] = {"card": "O7", "goal": "O7", "converted": False}
    s2, ev = play(s, "Red", "ATTACK GER POL", Dice(6, 6, 6, 1))
    assert RULES.outcome(s2)[0]["seat"] == red and RULES.outcome(s2)[0]["winner"]
    assert s2["pending"] is None and RULES.owed(s2) == {}
    assert "wins" in texts(ev)
    with pytest.raises(IllegalOrder, match="The game is not in progress"):
        RULES.validate(s2, red, RULES.parse("ADVANCE 3"))


def test_t19_eighteen_territories_with_two_armies():
    owners = _red_with(20, {"EGY": "Red", "LIB": "Blue"})
    armies = {t: 2 for t, c in owners.items() if c == "Red"}
    reds = [t for t, c in owners.items() if c == "Red" and t != "EGY"]
    for t in reds[:3]:
        armies[t] = 1
    armies.update(EGY=6, LIB=1)
    s = scenario(owners=owners, armies=armies)
    red = seat(s, "Red")
    s["objective"][red] = {"card": "O8", "goal": "O8", "converted": False}
    s2, _ = play(s, "Red", "ATTACK EGY LIB", Dice(6, 6, 6, 1))
    assert (s2["armies"]["EGY"], s2["armies"]["LIB"]) == (5, 1) and RULES.outcome(s2) is None
    s3, _ = play(s2, "Red", "ADVANCE 2")
    assert (s3["armies"]["EGY"], s3["armies"]["LIB"]) == (4, 2)
    assert RULES.outcome(s3)[0]["seat"] == red
    s4, _ = play(s2, "Red", "ADVANCE 1")
    assert RULES.outcome(s4) is None
    s5, _ = play(s4, "Red", "MOVE 1 EGY LIB")
    assert RULES.outcome(s5)[0]["seat"] == red


def test_t20_destroying_the_target_wins():
    owners = _red_with(12, {"GER": "Red", "POL": "Blue"})
    owners.update({t: "Olive" for t in ["ALA", "WCA", "ECA"]})
    s = scenario(owners=owners, armies={"GER": 4, "POL": 1}, rest=["Olive"])
    red, blue = seat(s, "Red"), seat(s, "Blue")
    s["objective"][red] = {"card": "O11", "goal": "O11", "converted": False}
    s2, ev = play(s, "Red", "ATTACK GER POL", Dice(6, 6, 6, 1))
    assert s2["status"][blue] == "ELIMINATED"
    assert RULES.outcome(s2)[0]["seat"] == red
    assert "destroys the Blue army" in texts(ev)


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [
        ("IND", "NCH", True),
        ("IND", "OCH", False),
        ("ALA", "JAP", True),
        ("WUS", "JAP", False),
        ("SPA", "ALG", True),
        ("FRA", "ALG", False),
    ],
)
def test_t29_links_air_edge_and_sea(a, b, ok):
    s = scenario(owners={a: "Red", b: "Blue"}, armies={a: 5})
    order = {"type": "ATTACK", "pair": f"{a}-{b}"}
    if ok:
        RULES.validate(s, seat(s, "Red"), order)
    else:
        with pytest.raises(IllegalOrder, match="are not neighbours"):
            RULES.validate(s, seat(s, "Red"), order)


@pytest.mark.parametrize(("lang", "word"), [("en", "Commander"), ("el", "Διοικητής"), ("pt", "Comandante")])
def test_the_log_names_commanders_as_the_page_does(lang, word):
    """The log (page, mails, report) names a seat "Commander 3" as the page's header does, never "P3"."""
    s = scenario(owners={"GER": "Red", "POL": "Blue"}, armies={"GER": 7, "POL": 1})
    red, blue = seat(s, "Red"), seat(s, "Blue")
    _, ev = play(s, "Red", "ATTACK GER POL", Dice(2, 2, 1, 1))
    log = " ".join(gametext.render("conquest", e["text"], lang) for e in ev)
    assert f"{word} {red[1:]}" in log and f"{word} {blue[1:]}" in log
    assert not re.search(r"\bP\d\b", log), log
    with pytest.raises(IllegalOrder) as refused:
        RULES.validate(s, blue, {"type": "END_TURN"})
    with pytest.raises(IllegalOrder) as owes:
        RULES.resolve(s, {}, Dice())
    for said in (gametext.render("conquest", e.value.message, lang) for e in (refused, owes)):
        assert f"{word} {red[1:]}" in said and red not in said
    if lang == "en":
        assert f"Commander {red[1:]} (Red) attacks Poland, held by Commander {blue[1:]} (Blue), from Germany" in log
