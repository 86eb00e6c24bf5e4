"""Every registered game must pass these checks (the Game protocol of DESIGN.md).

A game may set, on its RULES class (defaults in ``BaseRules``):
- ``conformance_options``: a list of option dicts to play (default: ``[{}]``);
- ``conformance_max_steps``: a step cap for one random playthrough.

Games with the anytime extra (they override ``anytime_prompt``/``apply_anytime``) are also
played with orders sent at any time mixed in.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from app.games import IllegalOrder, all_games
from app.games.base import ANYTIME_STEP, BaseRules, bot_order, step_rng
from app.games.driver import advance, anytime, random_orders, replay, start
from tests.games.hiding import HIDE

GAMES = all_games()
SLUGS = sorted(GAMES)


def _overrides(rules, name: str) -> bool:
    """Whether the game's rules class replaces ``BaseRules``' default for the extra ``name``."""
    return getattr(type(rules), name) is not getattr(BaseRules, name)


ANYTIME_SLUGS = [slug for slug in SLUGS if _overrides(GAMES[slug], "anytime_prompt")]
SEEDS = ["alpha", "bravo", "charlie"]


def _cases():
    for slug in SLUGS:
        rules = GAMES[slug]
        for i, options in enumerate(rules.conformance_options):
            for seed in SEEDS:
                yield pytest.param(slug, options, seed, id=f"{slug}-{i}-{seed}")


def _readable(rules, text) -> bool:
    """An event's text: an English sentence, or a message of the game's catalogue that renders."""
    if isinstance(text, str):
        return bool(text)
    missing: list[str] = []
    return bool(rules.text.render(text, missing=missing.append)) and not missing


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
    assert isinstance(rules, BaseRules)
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
    max_steps = rules.conformance_max_steps
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
            assert _readable(rules, event.get("text"))
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


# --------------------------------------------------------------------------- the anytime extra


@pytest.mark.parametrize("slug", SLUGS)
def test_anytime_extra_comes_whole(slug):
    rules = GAMES[slug]
    assert _overrides(rules, "anytime_prompt") == _overrides(rules, "apply_anytime")


def _sample_order(form) -> dict:
    """An order a player could post from an anytime form (first choices, boxes ticked)."""
    order = dict(form.get("base") or {})
    for field in form.get("fields") or []:
        kind, choices = field.get("type", "text"), field.get("choices") or [{"value": "x"}]
        order[field["name"]] = {"choice": choices[0]["value"], "multi": [choices[0]["value"]],
                                "int": field.get("min", 1), "bool": True}.get(kind, "x")
    return order


def _check_anytime(rules, game) -> None:
    """Every seat's anytime prompt: JSON, no other seat's secrets; its orders never mutate the state."""
    secrets = {seat: [json.dumps(x) for x in rules.secrets(game.state, seat)] for seat in game.seats}
    before = _dump(game.state)
    for seat in game.seats:
        prompt = rules.anytime_prompt(game.state, seat)
        if prompt is None:
            continue
        text = json.dumps(prompt)
        assert prompt.get("title") and prompt.get("kind") and prompt.get("forms"), "anytime prompt incomplete"
        for other in game.seats:
            if other != seat:
                assert not any(token in text for token in secrets[other]), f"{seat}'s anytime prompt leaks {other}"
        for form in prompt["forms"]:
            order = _sample_order(form)
            assert rules.parse(rules.format(order)) == order
            try:
                new_state, events = rules.apply_anytime(game.state, seat, order, step_rng(game.seed, 0, "anytime"))
            except IllegalOrder:
                continue
            assert json.loads(_dump(new_state)) == new_state
            for event in events:
                assert _readable(rules, event.get("text"))
                assert event.get("to") is None or set(event["to"]) <= set(game.seats)
        for junk in GARBAGE:
            with pytest.raises(IllegalOrder):
                rules.apply_anytime(game.state, seat, junk, step_rng(game.seed, 0, "anytime"))
    assert _dump(game.state) == before, "apply_anytime mutated the state it was given"


@pytest.mark.parametrize(("slug", "options", "seed"), [c for c in _cases() if c.values[0] in ANYTIME_SLUGS])
def test_anytime_orders_mixed_in_reach_outcome_and_replay(slug, options, seed):
    import random

    rules = GAMES[slug]
    game = start(rules, options, seed)
    pick = random.Random(seed)
    max_steps = rules.conformance_max_steps
    while rules.outcome(game.state) is None:
        assert len(game.steps) < max_steps, f"no outcome after {max_steps} steps"
        if len(game.steps) % 23 == 0:
            _check_anytime(rules, game)
        if pick.random() < 0.01:  # now and then a seat sends one of its anytime orders
            seat = pick.choice(game.seats)
            prompt = rules.anytime_prompt(game.state, seat)
            if prompt is not None:
                order = _sample_order(pick.choice(prompt["forms"]))
                try:
                    anytime(rules, game, seat, order)
                except IllegalOrder:
                    pass
                else:
                    assert game.steps[-1] == {ANYTIME_STEP: {"seat": seat, "order": order}}
                    assert json.loads(_dump(game.state)) == game.state
                continue
        assert rules.owed(game.state), "nobody owes anything but the game is not over"
        advance(rules, game, random_orders(rules, game))
    assert all(rules.anytime_prompt(game.state, seat) is None for seat in game.seats)
    assert _dump(replay(rules, game.options, seed, game.steps)) == _dump(game.state)


# ---------------------------------------------------------------- bots see what a player sees
def test_every_game_says_how_to_hide_from_a_seat():
    assert set(HIDE) == set(SLUGS), "add the game's hidden-information perturbation to tests/games/hiding.py"


def test_bots_are_asked_through_one_door_with_view_and_prompt():
    """``ai_order`` gets exactly (view, prompt, rng), and nothing in app/ asks it another way."""
    rules = GAMES[SLUGS[0]]
    game = start(rules, rules.conformance_options[0], "door")
    seat = sorted(rules.owed(game.state))[0]
    seen: list[tuple] = []
    original = type(rules).ai_order

    def spy(self, *args, **kwargs):
        seen.append((args, kwargs))
        return original(self, *args, **kwargs)

    rng = step_rng("door", 1, seat)
    try:
        type(rules).ai_order = spy
        bot_order(rules, game.state, seat, rng)
    finally:
        type(rules).ai_order = original
    assert seen == [((rules.view(game.state, seat), rules.owed(game.state)[seat], rng), {})]
    root = Path(__file__).resolve().parents[2]
    callers = [p for p in (root / "app").rglob("*.py") if ".ai_order(" in p.read_text(encoding="utf-8")]
    assert [p.relative_to(root).as_posix() for p in callers] == ["app/games/base.py"]


def _bot_cases():
    for slug in SLUGS:
        for i, options in enumerate(GAMES[slug].conformance_options):
            yield pytest.param(slug, options, id=f"{slug}-{i}")


@pytest.mark.parametrize(("slug", "options"), list(_bot_cases()))
def test_bot_order_does_not_change_with_what_its_seat_cannot_see(slug, options):
    rules = GAMES[slug]
    game = start(rules, options, "hidden")
    rng = random.Random(slug)
    checked = 0
    while rules.outcome(game.state) is None and len(game.steps) < 120:
        step = len(game.steps) + 1
        for seat, prompt in sorted(rules.owed(game.state).items()):
            if step % 3:
                break
            want = bot_order(rules, game.state, seat, step_rng("hidden", step, seat))
            view = rules.view(game.state, seat)
            for _ in range(2):
                other = copy.deepcopy(game.state)
                HIDE[slug](other, seat, rng)
                assert rules.view(other, seat) == view, "the perturbation changed the seat's view"
                assert rules.owed(other)[seat] == prompt
                got = bot_order(rules, other, seat, step_rng("hidden", step, seat))
                assert got == want, f"step {step}: {seat}'s bot changed its order with hidden information"
                checked += 1
        advance(rules, game, random_orders(rules, game))
    assert checked
