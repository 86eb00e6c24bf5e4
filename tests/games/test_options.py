"""Options are checked when a game is created, against the values each game allows."""

from __future__ import annotations

import pytest

from app.games import all_games, get_rules

BAD = [
    ("conquest", {"round_limit": -5}, "0, 30, 50, 80"),
    ("conquest", {"round_limit": 1}, "0, 30, 50, 80"),
    ("conquest", {"timer": 1}, "90, 180, 300, 3600, 43200, 86400"),
    ("conquest", {"ai_seats": 4}, "from 0 to 3"),
    ("conquest", {"players": 7}, "2, 3, 4, 5, 6"),
    ("conquest", {"mode": "chaos"}, "secret_orders"),
    ("conquest", {"roundlimit": 30}, "round_limit"),
    ("duel", {"forfeit_after": "x"}, "at least 0"),
    ("duel", {"forfeit_after": -1}, "at least 0"),
    ("duel", {"deadline_hours": 0}, "at least 1"),
    ("duel", {"deadline_hours": True}, "at least 1"),
    ("dual_powers", {"solo": "no"}, "true or false"),
    ("dual_powers", {"solo": True, "difficulty": 7}, "1 to 6"),
    ("dual_powers", {"solo": True, "faction": "TSAR"}, "SOV or GOV"),
    ("empire", {"players": 5}, "2, 3 or 4"),
    ("empire", {"round_limit": 0}, ">= 1"),
    ("empire", {"colour": "Blue"}, "players, mode, round_limit"),
]

GOOD = [
    ("conquest", {"round_limit": 30, "timer": 90}, {"round_limit": 30, "timer": 90}),
    ("conquest", {"round_limit": "50", "players": 2, "ai_seats": 1}, {"round_limit": 50, "ai_seats": 1}),
    ("conquest", {"round_limit": None}, {"round_limit": 0}),
    ("duel", {"forfeit_after": 0, "deadline_hours": 24}, {"forfeit_after": 0, "deadline_hours": 24}),
    ("dual_powers", {"solo": True, "difficulty": 2, "faction": "GOV"}, {"solo": True, "difficulty": 2}),
    ("empire", {"players": 2, "mode": "long"}, {"players": 2, "round_limit": 30}),
]


@pytest.mark.parametrize(("slug", "options", "allowed"), BAD)
def test_a_bad_option_is_refused_naming_the_allowed_values(slug, options, allowed):
    rules = get_rules(slug)
    with pytest.raises(ValueError, match=allowed.replace("(", r"\(")) as caught:
        rules.check_options({**rules.default_options(), **options})
    assert list(options)[-1] in str(caught.value)  # the option at fault is named


@pytest.mark.parametrize(("slug", "options", "expected"), GOOD)
def test_allowed_options_pass_and_are_normalised(slug, options, expected):
    rules = get_rules(slug)
    checked = rules.check_options({**rules.default_options(), **options})
    assert {k: checked[k] for k in expected} == expected
    assert rules.seats(checked)


@pytest.mark.parametrize("slug", sorted(all_games()))
def test_default_options_pass(slug):
    rules = get_rules(slug)
    assert rules.seats(rules.check_options(rules.default_options()))


def test_game_create_refuses_a_bad_option(runner):
    result = runner.invoke(args=["game", "create", "duel", "--player", "a@example.org", "--player",
                                 "b@example.org", "--option", "forfeit_after=x"])
    assert result.exit_code != 0
    assert "forfeit_after must be a whole number" in result.output
    result = runner.invoke(args=["game", "create", "conquest", "--player", "a@example.org", "--bot",
                                 "--option", "round_limit=1"])
    assert result.exit_code != 0 and "0, 30, 50, 80" in result.output


def test_the_gm_page_shows_a_bad_option(app, client):
    app.config["GM_CREATE_KEY"] = ""
    resp = client.post("/gm/new", data={"slug": "conquest", "players": "a@example.org\nb@example.org",
                                        "hours": "24", "options": '{"players": 2, "timer": 1}'})
    assert resp.status_code == 200
    assert "timer must be one of 90, 180" in resp.get_data(as_text=True)
