"""Orders reserved for the server cannot be typed by a player; the server's own path works."""

from __future__ import annotations

import pytest

from app.games import InvalidOrder, get_rules
from app.games.base import step_rng
from app.games.driver import advance, start


@pytest.mark.parametrize(("slug", "text"), [("conquest", "TIMEOUT"), ("conquest", "timeout"),
                                            ("duel", "PLACE L17 2 -1 3 AUTO"), ("duel", "PASS auto")])
def test_a_player_cannot_type_a_reserved_order(slug, text):
    with pytest.raises(InvalidOrder) as caught:
        get_rules(slug).parse(text)
    assert caught.value.message["msg"].endswith("unreadable.reserved")


@pytest.mark.parametrize(("slug", "options"), [("conquest", {"players": 2}), ("duel", {})])
def test_the_servers_default_order_still_plays(slug, options):
    rules = get_rules(slug)
    game = start(rules, options, "reserved")
    for _ in range(3):
        owed = rules.owed(game.state)
        orders = {s: rules.default_order(game.state, s, step_rng("reserved", len(game.steps), s)) for s in owed}
        for seat, order in orders.items():
            rules.validate(game.state, seat, order)
        advance(rules, game, orders)
    assert game.steps
