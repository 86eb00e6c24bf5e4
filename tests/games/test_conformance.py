"""Every registered game must pass these checks (the Game protocol of DESIGN.md).

A game may set, on its RULES object:
- ``conformance_options``: a list of option dicts to play (default: ``[{}]``);
- ``conformance_max_steps``: a step cap for one random playthrough.
"""

from __future__ import annotations

import json

import pytest

from app.games import IllegalOrder, all_games
from app.games.base import step_rng
from app.games.driver import advance, random_orders, replay, start

GAMES = all_games()
SLUGS = sorted(GAMES)
SEEDS = ["alpha", "bravo", "charlie"]


def _cases():
    for slug in SLUGS:
        rules = GAMES[slug]
        for i, options in enumerate(getattr(rules, "conformance_options", [{}])):
            for seed in SEEDS:
                yield pytest.param(slug, options, seed, id=f"{slug}-{i}-{seed}")


def _dump(data) -> str:
    return json.dumps(data, sort_keys=True)


def _check_views(rules, state, seats) -> None:
    views = {seat: _dump(rules.view(state, seat)) for seat in seats}
    views[None] = _dump(rules.view(state, None))
    for owner in seats:
        for secret in rules.secrets(state, owner):
            token = json.dumps(secret)
            assert token in views[owner], f"{owner}'s own view lacks its secret {secret!r}"
            for viewer, text in views.items():
                if viewer != owner:
                    assert token not in text, f"{viewer!r} sees {owner}'s secret {secret!r}"


@pytest.mark.parametrize("slug", SLUGS)
def test_protocol_names(slug):
    rules = GAMES[slug]
    assert rules.slug == slug
    assert rules.title
    options = rules.default_options()
    assert _dump(options)
    seats = rules.seats(options)
    assert seats and len(set(seats)) == len(seats)


@pytest.mark.parametrize(("slug", "options", "seed"), list(_cases()))
def test_random_playthrough_reaches_outcome_and_replays(slug, options, seed):
    rules = GAMES[slug]
    game = start(rules, options, seed)
    assert json.loads(_dump(game.state)) == game.state, "state does not round-trip through JSON"
    max_steps = getattr(rules, "conformance_max_steps", 5000)
    while rules.outcome(game.state) is None:
        assert len(game.steps) < max_steps, f"no outcome after {max_steps} steps"
        owed = rules.owed(game.state)
        assert owed, "nobody owes anything but the game is not over"
        for seat, prompt in owed.items():
            assert seat in game.seats
            assert prompt.get("title") and prompt.get("kind"), "prompt lacks title or kind"
            json.dumps(prompt)
        orders = random_orders(rules, game)
        for seat, order in orders.items():
            rules.validate(game.state, seat, order)
            assert json.loads(_dump(order)) == order, "order does not round-trip through JSON"
            text = rules.format(order)
            assert rules.parse(text) == order, f"parse(format(order)) differs for {text!r}"
        if len(game.steps) % 7 == 0:
            _check_views(rules, game.state, game.seats)
        before_orders = _dump(orders)
        events = advance(rules, game, orders)
        assert _dump(game.steps[-1]) == before_orders, "resolve mutated the orders"
        for event in events:
            assert isinstance(event.get("text"), str) and event["text"]
            assert event.get("to") is None or set(event["to"]) <= set(game.seats)
        assert json.loads(_dump(game.state)) == game.state
    result = rules.outcome(game.state)
    assert {r["seat"] for r in result} <= set(game.seats)
    assert rules.owed(game.state) == {}
    _check_views(rules, game.state, game.seats)
    assert _dump(replay(rules, game.options, seed, game.steps)) == _dump(game.state)


@pytest.mark.parametrize(("slug", "options", "seed"), list(_cases()))
def test_resolve_never_mutates_its_input(slug, options, seed):
    rules = GAMES[slug]
    game = start(rules, options, seed)
    for _ in range(40):
        if rules.outcome(game.state) is not None:
            break
        orders = random_orders(rules, game)
        before = _dump(game.state)
        rules.resolve(game.state, orders, step_rng(seed, 999))
        assert _dump(game.state) == before, "resolve mutated the state it was given"
        advance(rules, game, orders)


GARBAGE = [None, "", "HELLO", 42, [], {}, {"type": "NO_SUCH_ORDER"}, {"type": None, "x": [1, 2]}]


@pytest.mark.parametrize("slug", SLUGS)
def test_validate_rejects_garbage_and_changes_nothing(slug):
    rules = GAMES[slug]
    game = start(rules, None, "garbage")
    before = _dump(game.state)
    for seat in rules.owed(game.state):
        for junk in GARBAGE:
            with pytest.raises(IllegalOrder):
                rules.validate(game.state, seat, junk)
    idle = [s for s in game.seats if s not in rules.owed(game.state)]
    for seat in idle:
        some = rules.random_order(game.state, next(iter(rules.owed(game.state))), step_rng("g", 1))
        with pytest.raises(IllegalOrder):
            rules.validate(game.state, seat, some)
    assert _dump(game.state) == before


@pytest.mark.parametrize("slug", SLUGS)
def test_default_orders_are_legal(slug):
    rules = GAMES[slug]
    game = start(rules, None, "defaults")
    for _ in range(30):
        if rules.outcome(game.state) is not None:
            break
        orders = {}
        for seat in rules.owed(game.state):
            order = rules.default_order(game.state, seat, step_rng("defaults", len(game.steps), seat))
            rules.validate(game.state, seat, order)
            orders[seat] = order
        advance(rules, game, orders)


@pytest.mark.parametrize("slug", SLUGS)
def test_parse_rejects_nonsense(slug):
    rules = GAMES[slug]
    for text in ["", "   ", "FLY ME TO THE MOON", "\x00\x01", "TURN " * 500]:
        with pytest.raises(IllegalOrder):
            rules.parse(text)
