"""Empire's objective numbers (HOUSE data, tuned on bot games): the card's text states the number
that the end-of-round check uses."""

from __future__ import annotations

import re

import pytest

from app.games.empire import data
from app.games.empire.phases import objective_met
from app.games.empire.text import TEXT
from tests.games.empire.helpers import put, scenario, seat

NEED = data.OBJECTIVE_NEED


def numbers(code: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", TEXT.entries[f"objective_text.{code}"].singular)]


def test_each_card_states_the_numbers_of_its_check():
    assert numbers("O1") == [NEED["O1"]]
    assert numbers("O2") == [NEED["O2"]]
    assert numbers("O3") == [NEED["O3"]]
    assert numbers("O5") == [NEED["O5"]]
    assert numbers("O6") == [NEED["O6"], NEED["O6_partners"]]
    assert numbers("O7") == [NEED["O7"], NEED["O7_heavy"]]
    assert numbers("O8") == [6, 7, NEED["O8"]]
    for code, card in data.OBJECTIVES.items():
        assert card["text"] == TEXT.entries[f"objective_text.{code}"].singular


def blue_holding(provinces: list[int], building: str | None = None):
    st = scenario(4)
    blue = seat(st, "BLUE")
    for p in provinces:
        st["provinces"][str(p)].update(owner=blue, building=building if p != 1 else None)
    return st, blue


@pytest.mark.parametrize("code", ["O1", "O2", "O3"])
def test_a_province_count_is_met_at_its_number_and_not_one_below(code):
    extra = 1 if code == "O1" else 0  # Bluehold (1) holds no building
    need = NEED[code] - extra
    building = {"O2": "WALL", "O3": "INF"}.get(code)
    below = [2, 3, 5, 8, 10, 11][: need - 1]
    st, blue = blue_holding([1] + below, building)
    assert not objective_met(st, blue, code)
    st, blue = blue_holding([1] + [2, 3, 5, 8, 10, 11][:need], building)
    assert objective_met(st, blue, code)


def test_great_army_needs_its_troops_and_its_heavy_ones():
    st, blue = blue_holding([1])
    for n in range(1, NEED["O7"] - NEED["O7_heavy"] + 1):
        put(st, f"B-S{n}", 1)
    for n in range(1, NEED["O7_heavy"]):
        put(st, f"B-H{n}", 1)
    assert not objective_met(st, blue, "O7")
    put(st, f"B-H{NEED['O7_heavy']}", 1)
    assert objective_met(st, blue, "O7")


def test_guild_master_needs_its_markers_from_enough_partners():
    st, blue = blue_holding([1])
    others = [s for s in st["seats"] if s != blue]
    st["players"][blue]["trade"] = [others[0]] * NEED["O6"]
    assert not objective_met(st, blue, "O6")
    st["players"][blue]["trade"][0] = others[1]
    assert objective_met(st, blue, "O6")
    st["players"][blue]["trade"] = st["players"][blue]["trade"][1:]
    assert not objective_met(st, blue, "O6")
