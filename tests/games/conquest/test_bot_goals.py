"""The bot's play for its objective, in constructed positions: striking at even odds when the
objective is a conquest away, marching a stack left behind towards the target, topping up
territories of one army for the objective of 18 territories of two armies."""

from __future__ import annotations

from app.games.base import bot_order
from app.games.conquest import RULES
from app.games.conquest import data as D

from .helpers import play, scenario, seat

WEST = ["GBR", "NOR", "FRA", "ITA", "POL"]  # Germany's neighbours but the Balkans
DESTROY_OLIVE = {"card": "O9", "goal": "O9", "converted": False}


def _last_of_olive(germany: int):
    """Red's Germany faces Olive's last territory, the Balkans (4 armies), and Blue's 1-army territories."""
    owners = {"GER": "Red", "BAL": "Olive", **{t: "Blue" for t in WEST}}
    s = scenario(players=3, owners=owners, armies={"GER": germany, "BAL": 4}, rest=["Blue"])
    red = seat(s, "Red")
    s["objective"][red] = dict(DESTROY_OLIVE)
    return s, red


def test_one_conquest_from_the_objective_the_bot_strikes_at_even_odds():
    s, red = _last_of_olive(7)  # 7 against 4 wins about one time in two; good odds would need 9
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-BAL"}


def test_below_even_odds_the_bot_takes_an_easier_territory():
    s, red = _last_of_olive(6)
    assert bot_order(RULES, s, red, None) == {"type": "ATTACK", "pair": "GER-GBR", "repeat": 2}


def test_a_stack_left_behind_marches_on_the_target():
    """Spain's 20 armies are three steps from Olive's Balkans: in the regroup they move on to France
    (the spec's AI moves only inland armies, and Spain borders Algeria)."""
    owners = {"SPA": "Red", "FRA": "Red", "GER": "Red", "BAL": "Olive"}
    s = scenario(players=3, owners=owners, armies={"SPA": 20, "FRA": 2, "GER": 3}, rest=["Blue"],
                 phase="REGROUP")
    red = seat(s, "Red")
    s["objective"][red] = dict(DESTROY_OLIVE)
    s["moves_left"] = {t: s["armies"][t] for t in D.TERRITORIES if s["owner"][t] == red}
    assert bot_order(RULES, s, red, None) == {"type": "MOVE", "pair": "SPA-FRA", "count": 19}


def test_eighteen_territories_of_two_armies_are_topped_up_and_won_at_once():
    held = D.IN_THEATRE["WE"] + D.IN_THEATRE["EF"] + ["ALG", "LIB", "EGY"]  # 18
    s = scenario(players=2, owners=dict.fromkeys(held, "Red"), armies={**dict.fromkeys(held, 2), "NOR": 1},
                 phase="MOBILISATION")
    s["pools"] = {"G": 3}
    red = seat(s, "Red")
    s["objective"][red] = {"card": "O8", "goal": "O8", "converted": False}
    order = bot_order(RULES, s, red, None)
    assert order == {"type": "PLACE", "NOR": 1}  # not the spec's spearhead, where the objective waits
    s, _ = play(s, "Red", order)
    assert s["result"] == {"reason": "objective", "winners": [red]}
