"""Issue 17: Hypothesis over every route (seat, GM, settings, league, pause, report, history): 0 server errors.

Each example picks a route and fills its form or query with generated values: the
fields the page sends, with good values, numbers of any size and sign, dates of any
year, unknown seats and actions, and stray text.  Form tokens are the page's own most
of the time, so the posts reach the code behind the checks.  ``FUZZ_ROUTE_EXAMPLES``
sets the number of examples (default 300; ``tests/stress/fuzz_forms.py`` runs 5,000).
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import quote, urlencode

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from app.db import get_engine
from app.links import gm_link, prefs_link, seat_link
from app.models import Game, Player, Seat
from app.web.limits import get_limiter
from tests.platform.helpers import create_game, path_of

EXAMPLES = int(os.environ.get("FUZZ_ROUTE_EXAMPLES", "300"))

extremes = st.sampled_from(["99999999999999999999999", "-99999999999999999999", str(2**31), str(2**63), "-1",
                            "inf", "-inf", "nan", "1e400", "1e308", "", "x", "1.5", " 3 ", "0"])
numbers = st.one_of(st.integers(-5, 40), st.integers(-10**30, 10**30))
number_text = st.one_of(extremes, extremes, numbers.map(str))
date_text = st.one_of(st.dates().map(str), st.sampled_from(["", "2026-02-30", "9999-12-31", "0001-01-01", "x"]))
anything = st.text(max_size=40)
words = st.sampled_from(["saved", "applied", "resolved", "A", "B", "pt", "el", "UTC", "Europe/Lisbon", "toy", "on"])
value = st.one_of(number_text, date_text, anything, words)


def _links(app, made):
    """The current links (a GM action may have replaced them): seats, GM, settings pages."""
    with app.app_context(), Session(get_engine()) as s:
        seats = s.exec(select(Seat).where(Seat.game_id == made["game"]).order_by(Seat.id)).all()
        game = s.get(Game, made["game"])
        players = s.exec(select(Player).order_by(Player.id)).all()
        return ([path_of(seat_link(x)) for x in seats if x.token_hash], [x.seat for x in seats],
                path_of(gm_link(game)), [path_of(prefs_link(p)) for p in players])


def _csrf(client, path):
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    step = re.search(r'name="step_no" value="(\d+)"', page)
    return (found.group(1) if found else ""), (step.group(1) if step else "0")


def test_every_route_answers_generated_input_without_a_server_error(app, client, runner):
    get_limiter(app).enabled = False
    app.config["GM_CREATE_KEY"] = ""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org",
                       "--option", "rounds=100000")
    played = create_game(runner, "toy", ("gm2@example.org", "c@example.org"), "--gm", "gm2@example.org")
    out = runner.invoke(args=["league", "create", "Fuzz Cup", "--game", "toy"])
    league = json.loads(out.output)
    runner.invoke(args=["league", "add", league["slug"], "p1@example.org", "p2@example.org"])
    seen = {"codes": set()}

    @given(route=st.integers(0, 13), pick=st.integers(0, 99), good_csrf=st.integers(0, 4),
           action=st.sampled_from(["extend", "pause", "resume", "retry", "resolve", "rotate", "replace", "resend",
                                   "settings-link", "ask-pause", "settings", "unsubscribe", "absence", "add",
                                   "season", "advance", "", "bogus"]),
           fields=st.dictionaries(st.sampled_from(["hours", "seat", "email", "start", "end", "timezone", "language",
                                                   "name", "digest", "no_news", "emails", "step_no", "r", "step",
                                                   "done", "lang", "n", "form_index", "notation", "slug", "players",
                                                   "options", "bots"]), value, max_size=6),
           seat_text=st.one_of(anything, st.sampled_from(["A", "B", "GM", ""])), num=number_text,
           days=st.tuples(date_text, date_text))
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    def check(route, pick, good_csrf, action, fields, seat_text, num, days):
        game = made if pick % 3 else played
        seat_links, seats, gm, settings_pages = _links(app, game)
        seat_path = seat_links[pick % len(seat_links)] if seat_links else "/p/" + "x" * 43
        me = settings_pages[pick % len(settings_pages)]
        seat = seats[pick % len(seats)] if pick % 4 else seat_text
        # the route's own numbers and dates come first; stray fields may override them
        form = {"r": num, "step": num, "hours": num, "step_no": num, "start": days[0], "end": days[1], **fields}
        query = "?" + urlencode(form)
        if route == 0:
            form.setdefault("done", ["saved", "applied", ""][pick % 3])
            resp = client.get(seat_path + "?" + urlencode(form))
        elif route == 1:
            resp = client.get(seat_path + "/report.pdf?" + urlencode({"step": form["step"] if pick % 2 else pick % 4}))
        elif route == 2:
            resp = client.get(seat_path + "/history" + query)
        elif route in (3, 4):
            path = seat_path + ("/pause" if route == 3 else "")
            csrf, step = _csrf(client, path)
            if pick % 2:
                form["step_no"] = step
            resp = client.post(path, data={"csrf_token": csrf if good_csrf else "1.x", **form})
        elif route in (5, 6):
            csrf, _ = _csrf(client, gm)
            resp = client.post(gm, data={"csrf_token": csrf if good_csrf else "", "action": action, "seat": seat,
                                         **{k: v for k, v in form.items() if k != "seat"}})
        elif route == 7:
            resp = client.post("/gm/new", data=form)
        elif route in (8, 9):
            csrf, _ = _csrf(client, me)
            if action == "new-link":
                action = "settings"
            resp = client.post(me, data={"csrf_token": csrf if good_csrf else "", "action": action, **form})
        elif route == 10:
            resp = client.get(me + ("/deadlines.ics" if pick % 2 else "") + query)
        elif route == 11:
            gm_league = path_of(league["gm_link"])
            csrf, _ = _csrf(client, gm_league)
            resp = client.post(gm_league, data={"csrf_token": csrf if good_csrf else "", "action": action, **form})
        elif route == 12:
            target = path_of(league["invite"]) if pick % 2 else f"/l/{quote(seat_text, safe='')}/join/{'y' * 43}"
            resp = client.post(target, data=form) if pick % 3 else client.get(target + query)
        else:
            resp = client.post("/resend", data=form) if pick % 2 else client.get(
                f"/g/{quote(str(fields.get('r', pick)), safe='')}" + ("/verify" if pick % 3 else ""))
        seen["codes"].add(resp.status_code)
        assert resp.status_code < 500, (route, action, fields, resp.get_data(as_text=True)[:300])
        assert b"Traceback" not in resp.data

    check()
    assert {200, 303} <= seen["codes"] and seen["codes"] & {400, 403, 404, 422}, seen["codes"]


def test_a_nul_character_in_any_part_of_an_address_is_not_found(app, client):
    """A NUL names nothing (PostgreSQL cannot even store one): every route with a name in its address
    answers 404 for it, on SQLite and PostgreSQL alike, never 500."""
    paths = {re.sub(r"<(?:string:|path:)?[a-z_]+>", "a%00b", rule.rule) for rule in app.url_map.iter_rules()
             if "<" in rule.rule and "<int:" not in rule.rule and not rule.rule.startswith("/static")}
    assert "/l/a%00b" in paths and "/rules/a%00b" in paths
    for path in sorted(paths):
        assert client.get(path).status_code == 404, path
