"""RELIABILITY.md B32: property tests of every game's order reading, and of the form and JSON endpoints."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, func, select

from app.db import get_engine
from app.games import IllegalOrder, get_rules
from app.games.base import step_rng
from app.games.driver import advance, random_orders, start
from app.models import Game, Order
from tests.platform.helpers import create_game, csrf_of, path_of

REAL_GAMES = ["dual_powers", "conquest", "duel", "empire"]
POSTS_PER_GAME = int(os.environ.get("FUZZ_POSTS_PER_GAME", "400"))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


def _states(slug, n=6):
    """A few reachable states of a game (setup, then random steps), with their owed seats."""
    rules = get_rules(slug)
    game = start(rules, None, f"fuzz-{slug}")
    out = []
    for i in range(60):
        if rules.outcome(game.state) is not None:
            break
        if i % 10 == 0:
            out.append(game.state)
        advance(rules, game, random_orders(rules, game))
    return out[:n]


def _order_like(slug):
    """Orders shaped like the game's own (right keys, wrong values) and arbitrary JSON."""
    rules = get_rules(slug)
    game = start(rules, None, f"shape-{slug}")
    keys = sorted({k for orders in [random_orders(rules, game)] for o in orders.values() for k in o} - {"type"})
    types = sorted({str(o.get("type")) for o in random_orders(rules, game).values()})
    shaped = st.fixed_dictionaries({"type": st.sampled_from(types + ["", "X"])},
                                   optional={k: json_values for k in keys})
    return shaped | st.dictionaries(st.text(max_size=8), json_values, max_size=5) | json_values


@pytest.mark.parametrize("slug", REAL_GAMES)
def test_b32_parse_raises_only_illegal_order(slug):
    """B32. Fuzz: Hypothesis (order parser): any text is an order or an IllegalOrder, never another exception.

    (Atheris, named in B32, is not installed here; Hypothesis drives the same parsers.)
    """
    rules = get_rules(slug)
    states = _states(slug, 3)
    game = start(rules, None, f"words-{slug}")
    words = sorted({w for o in random_orders(rules, game).values() for w in rules.format(o).split()})

    @settings(max_examples=400, deadline=None)
    @given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(words + ["0", "-1", "999", ",", "x"]),
                                                     max_size=8).map(" ".join)))
    def check(text):
        try:
            order = rules.parse(text)
        except IllegalOrder:
            return
        for state in states:
            for seat in rules.owed(state):
                try:
                    rules.validate(state, seat, order)
                except IllegalOrder:
                    pass

    check()


@pytest.mark.parametrize("slug", REAL_GAMES)
def test_b32_validate_raises_only_illegal_order(slug):
    """B32. Fuzz: Hypothesis (adjudicator input): any JSON order is legal or an IllegalOrder; never mutates the
    state."""
    rules = get_rules(slug)
    states = _states(slug)

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(states), _order_like(slug), st.data())
    def check(state, order, data):
        seat = data.draw(st.sampled_from(sorted(rules.owed(state)) + ["nobody"]))
        before = json.dumps(state, sort_keys=True)
        try:
            rules.validate(state, seat, order)
        except IllegalOrder:
            pass
        assert json.dumps(state, sort_keys=True) == before

    check()


def _snapshot(app, game_id):
    with Session(get_engine(app)) as s:
        game = s.get(Game, game_id)
        count = s.exec(select(func.count()).select_from(Order).where(Order.game_id == game_id)).one()
        return game.step_no, count, hashlib.sha256(json.dumps(game.state, sort_keys=True).encode()).hexdigest()


def _field_values(prompt):
    names, values = [], {}
    for spec in (prompt or {}).get("forms") or []:
        for field in spec.get("fields") or []:
            names.append(field["name"])
            values.setdefault(field["name"], []).extend(str(c.get("value")) for c in field.get("choices") or [])
    return names, values


@pytest.mark.slow
@pytest.mark.parametrize("slug,players,options", [
    ("toy", 2, ["--option", "rounds=100000"]), ("dual_powers", 2, []),
    ("duel", 2, []),
    ("conquest", 3, ["--option", "players=3"]), ("empire", 3, ["--option", "players=3"]),
])
def test_b32_form_endpoint_posts(app, client, runner, slug, players, options):
    """B32. Fuzz the form endpoint: generated posts, no 5xx, no state change from an invalid post.

    ``FUZZ_POSTS_PER_GAME`` posts per game (400 here, 2,000 in all);
    ``python tests/stress/fuzz_forms.py`` runs the 10,000 of B32 (2,000 per game).

    Posts mix valid, forged and expired form tokens, right and wrong step
    numbers, form indexes, the prompt's own field names with valid and invalid
    values, notation text of any length (sometimes a legal order) and stray fields.  Any answer but a 303
    must leave the game exactly as it was.  (Schemathesis, named in B32, is not
    installed; ``test_b32_json_routes_fuzz`` covers the JSON route.)
    """
    from app.web.limits import get_limiter

    get_limiter(app).enabled = False
    made = {"m": create_game(runner, slug, tuple(f"p{i}@example.org" for i in range(players)), *options)}
    seen = {"posts": 0, "accepted": 0}

    # every example draws the same things in the same order, whatever the game's state (Hypothesis
    # replays and mutates draws), and only then maps them onto the current prompt
    slots = st.tuples(st.integers(0, 3), st.integers(0, 999), st.text(max_size=30), st.integers(-5, 99))

    @given(seat_i=st.integers(0, 99), csrf_i=st.integers(0, 6), step_i=st.integers(0, 6),
           form_index=st.sampled_from(["0", "0", "1", "2", "7", "-1", "x", ""]),
           fields=st.lists(slots, min_size=6, max_size=6), notation=st.text(max_size=60),
           notation_mode=st.integers(0, 3), extra=st.tuples(st.booleans(), st.text(min_size=1, max_size=10),
                                                            st.text(max_size=20)))
    @settings(max_examples=POSTS_PER_GAME, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                     HealthCheck.data_too_large])
    def post(seat_i, csrf_i, step_i, form_index, fields, notation, notation_mode, extra):
        game_id = made["m"]["game"]
        with Session(get_engine(app)) as s:
            game = s.get(Game, game_id)
        if game.status != "running":
            made["m"] = create_game(runner, slug, tuple(f"p{i}@example.org" for i in range(players)), *options)
            return
        seat = made["m"]["seats"][seat_i % len(made["m"]["seats"])]
        link = path_of(seat["link"])
        page = client.get(link).get_data(as_text=True)
        valid = csrf_of(page) if 'name="csrf_token"' in page else "0.x"
        names, values = _field_values(game.owed.get(seat["seat"]))
        csrfs = [valid, valid, valid, "", "1.abc", "999." + "0" * 64, valid.split(".")[0] + ".deadbeef"]
        steps = [str(game.step_no)] * 3 + ["0", str(game.step_no + 1), "x", ""]
        form = {"csrf_token": csrfs[csrf_i], "step_no": steps[step_i], "form_index": form_index}
        for j, name in enumerate(names):
            kind, pick, text, number = fields[j % len(fields)]
            pool = values.get(name) or ["1"]
            form[name] = [pool[pick % len(pool)], pool[pick % len(pool)], text, str(number)][kind]
        if notation_mode == 1:
            form["notation"] = notation
        elif notation_mode == 2:
            form["notation"] = "x" * 4050
        elif notation_mode == 3 and seat["seat"] in game.owed:  # a legal order, so that valid paths run too
            rules = get_rules(slug)
            order = rules.random_order(game.state, seat["seat"], step_rng(str(fields[0][1]), game.step_no, "fuzz"))
            form["notation"] = rules.format(order)
            form.update(csrf_token=valid, step_no=str(game.step_no))  # a legal post, so that valid paths run too
        if extra[0]:
            form[extra[1]] = extra[2]
        before = _snapshot(app, game_id)
        resp = client.post(link, data=form)
        seen["posts"] += 1
        assert resp.status_code < 500, resp.get_data(as_text=True)[:500]
        assert b"Traceback" not in resp.data
        if resp.status_code == 303:
            seen["accepted"] += 1
        else:
            assert resp.status_code in (400, 403, 409, 413, 422), resp.status_code
            assert _snapshot(app, game_id) == before

    post()
    assert seen["posts"] >= POSTS_PER_GAME * 0.9
    assert seen["accepted"] > 0, "some generated posts were valid orders"


def test_b32_json_routes_fuzz(app, client, runner):
    """B32. Schemathesis-like fuzz of the JSON route (`/g/<id>/export.json`): always JSON, never a 5xx."""
    made = create_game(runner)

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.one_of(st.integers(-5, 10**20).map(str), st.text(max_size=12)), st.sampled_from(["GET", "HEAD", "POST"]))
    def check(game_id, method):
        from urllib.parse import quote

        resp = client.open(f"/g/{quote(game_id, safe='')}/export.json", method=method)
        assert resp.status_code < 500
        if resp.status_code in (200, 409) and method == "GET":
            assert json.loads(resp.data)["game"]

    check()
    assert client.get(f"/g/{made['game']}/export.json").status_code == 409


def test_b32_refused_duel_post_naming_another_form_gets_its_error_page(app, client, runner):
    """B32 (found by the form fuzz): a refused Duel post with form_index=1 answers with its error page, not a 500."""
    made = create_game(runner, "duel", ("p0@example.org", "p1@example.org"))
    link = path_of(made["seats"][0]["link"])
    page = client.get(link).get_data(as_text=True)
    resp = client.post(link, data={"csrf_token": csrf_of(page), "step_no": "0", "form_index": "1"})
    assert resp.status_code == 409
