"""Forms filled at random and arbitrary text never crash validation or parsing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.base import IllegalOrder, step_rng
from app.games.driver import advance, random_orders, start
from app.games.empire import RULES


def _fill(form, rng):
    order = dict(form["base"])
    for field in form["fields"]:
        kind = field["type"]
        if kind == "choice":
            order[field["name"]] = rng.choice(field["choices"])["value"]
        elif kind == "multi":
            values = [c["value"] for c in field["choices"]]
            order[field["name"]] = rng.sample(values, rng.randint(0, len(values)))
        elif kind == "int":
            order[field["name"]] = rng.randint(field.get("min", 0), field.get("max", 3))
        elif kind == "text" and rng.random() < 0.3:
            order[field["name"]] = rng.choice(["B-S1 B-S2", "GIVE 1 FOOD GET 1 WOOD", "MOVE NEW 2",
                                               "nonsense", "PASS"])
    return order


def test_random_form_submissions_are_accepted_or_explained():
    rng = random.Random(5)
    accepted = 0
    for seed in ("f1", "f2"):
        game = start(RULES, {"players": 3, "round_limit": 4}, seed)
        while RULES.outcome(game.state) is None:
            for seat, prompt in RULES.owed(game.state).items():
                for form in prompt["forms"]:
                    order = _fill(form, rng)
                    try:
                        RULES.validate(game.state, seat, order)
                    except IllegalOrder as exc:
                        assert str(exc)
                    else:
                        accepted += 1
                        assert RULES.parse(RULES.format(order))["lines"] is not None
            advance(RULES, game, random_orders(RULES, game))
    assert accepted > 20


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ADMINPROSEUVYGLTKWFBH0123456789-:; \n", max_size=60))
def test_parse_never_crashes(text):
    try:
        order = RULES.parse(text)
    except IllegalOrder:
        return
    assert RULES.parse(RULES.format(order)) == order


def test_defaults_for_every_window_validate_during_play():
    game = start(RULES, {"players": 4, "round_limit": 3}, "defaults")
    while RULES.outcome(game.state) is None:
        step = len(game.steps) + 1
        for seat in RULES.owed(game.state):
            RULES.validate(game.state, seat, RULES.default_order(game.state, seat, step_rng("d", step)))
        advance(RULES, game, random_orders(RULES, game))


def test_planning_bot_orders_are_always_legal():
    from app.games.empire import bot

    game = start(RULES, {"players": 4, "round_limit": 6}, "planner")
    while RULES.outcome(game.state) is None:
        step = len(game.steps) + 1
        orders = {}
        for seat in RULES.owed(game.state):
            order = bot.plan(game.state, seat, step_rng("planner", step, seat))
            RULES.validate(game.state, seat, order)
            orders[seat] = order
        advance(RULES, game, orders)
    assert RULES.owed(game.state) == {}


def test_random_admin_order_for_a_seat_with_nothing_to_trade():
    from .helpers import put, scenario

    st = scenario()
    st["phase"] = "T4"
    put(st, "B-S1", 1)
    for i in range(30):
        order = RULES.random_order(st, "P1", random.Random(i))
        RULES.validate(st, "P1", order)
        assert all(line["op"] not in ("MARKET", "BUILD") for line in order["lines"])
