"""Orders with wrong values anywhere are refused with IllegalOrder, never a crash."""

from __future__ import annotations

import json
from random import Random

from app.games.base import IllegalOrder
from app.games.driver import advance, random_orders, start
from app.games.dual_powers import RULES

JUNK = [None, "", "XX", 7, -1, True, [], ["R01", "R01"], {}, {"a": 1}, "C-RED-2", "R01", "GRN", "A-RED"]


def _states(options, seed, n=60):
    game = start(RULES, options, seed)
    for _ in range(n):
        if RULES.outcome(game.state) is not None:
            return
        yield game.state
        advance(RULES, game, random_orders(RULES, game))


def test_every_field_filled_with_junk_is_refused_or_accepted_cleanly():
    rng = Random(4)
    for options in ({}, {"solo": True, "difficulty": 4, "faction": "GOV"}):
        for state in _states(options, "junk"):
            for seat in RULES.owed(state):
                order = RULES.random_order(state, seat, rng)
                for key in list(order) + ["bonus", "token", "connection", "via", "units", 5]:
                    for value in JUNK:
                        bad = dict(order)
                        bad[key] = value
                        try:
                            RULES.validate(state, seat, bad)
                        except IllegalOrder as exc:
                            assert str(exc)


def test_forms_drawn_from_prompts_give_orders_that_validate_or_explain():
    rng = Random(9)
    accepted = 0
    for options in ({}, {"solo": True, "difficulty": 2, "faction": "SOV"}):
        for state in _states(options, "forms", 40):
            for seat, prompt in RULES.owed(state).items():
                json.dumps(prompt)
                for form in prompt["forms"]:
                    order = dict(form["base"])
                    for field in form["fields"]:
                        if field["type"] == "choice":
                            if field.get("required", True) is False and rng.random() < 0.6:
                                continue
                            if not field["choices"]:
                                continue
                            order[field["name"]] = rng.choice(field["choices"])["value"]
                        elif field["type"] == "multi":
                            values = [c["value"] for c in field["choices"]]
                            order[field["name"]] = rng.sample(values, min(len(values), 1))
                        elif field["type"] == "bool":
                            order[field["name"]] = rng.random() < 0.5
                    try:
                        RULES.validate(state, seat, order)
                        accepted += 1
                    except IllegalOrder as exc:
                        assert str(exc)
    assert accepted > 20
