"""Empire's order forms through the web: every form of a real prompt, filled with legal values,
is accepted; an illegal combination posted by hand is refused in the player's language, the
input kept and nothing stored."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

pytest.importorskip("flask")

from sqlmodel import Session, func, select  # noqa: E402

from app.db import get_engine  # noqa: E402
from app.models import Order  # noqa: E402
from tests.games.empire.forms_kit import legal_values  # noqa: E402
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, post_form, step_of  # noqa: E402


def _orders(app, game_id) -> int:
    with Session(get_engine(app)) as s:
        return s.exec(select(func.count()).select_from(Order).where(Order.game_id == game_id)).one()


def _owed(app, game_id):
    game = game_row(app, game_id)
    return game.step_no, game.owed, game.state


def test_every_form_of_a_real_game_is_accepted_with_legal_values(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2",
                       "--option", "round_limit=2")
    links = {s["seat"]: s["link"] for s in made["seats"]}
    seen: dict[str, int] = {}
    posts = 0
    while posts < 60:
        step, owed, state = _owed(app, made["game"])
        if not owed:
            break
        seat = sorted(owed)[0]
        phase = state["phase"]
        prompt = owed[seat]
        page = client.get(path_of(links[seat])).get_data(as_text=True)
        assert 'name="form_index"' in page and "GIVE n R" not in page
        for index, spec in enumerate(prompt["forms"]):
            now = _owed(app, made["game"])
            if now[0] != step or seat not in now[1]:
                break  # a single seat's order applies at once: the step is gone
            values = legal_values(spec, pick=posts)
            r = post_form(client, links[seat], values, form_index=str(index))
            assert r.status_code == 303, (phase, index, values, r.get_data(as_text=True)[-3000:])
            seen[phase] = seen.get(phase, 0) + 1
            posts += 1
        if _owed(app, made["game"])[0] == step:  # the other seat has not ordered yet
            other = [s for s in owed if s != seat]
            for s in other:
                r = post_form(client, links[s], legal_values(owed[s]["forms"][0], pick=posts))
                assert r.status_code == 303, (phase, s, r.get_data(as_text=True)[-3000:])
                posts += 1
    assert {"T3A", "T3B", "T4", "T8"} <= set(seen), seen


def blue_first(app, made) -> list[str]:
    """The seats' links, Blue's first (seats are drawn: the first e-mail given is not always Blue)."""
    colour = game_row(app, made["game"]).state["colour"]
    return [s["link"] for s in sorted(made["seats"], key=lambda s: colour[s["seat"]] != "BLUE")]


def kept(html: str) -> dict[str, str]:
    """The posted values a page keeps for its groups of tied choices (``data-keep``)."""
    out: dict[str, str] = {}
    for raw in re.findall(r'data-keep="([^"]*)"', html):
        out.update(json.loads(unescape(raw)))
    return out


def combos(html: str) -> list[list[tuple[str, str]]]:
    """Each ``combo`` select of a page (without its script): its options' (value, label)."""
    out = []
    for body in re.findall(r'<select[^>]*name="combo"[^>]*>(.*?)</select>', html, re.S):
        out.append([(unescape(v), re.sub(r"\s+", " ", unescape(label)).strip())
                    for v, label in re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', body, re.S)])
    return out


def _refused(client, link, fields, lang, form_index="0"):
    page = client.get(path_of(link)).get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": form_index, **fields}
    return client.post(path_of(link) + f"?lang={lang}", data=data)


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "What you give and what you get must be different resources."),
    ("pt", "O que dá e o que recebe têm de ser recursos diferentes."),
    ("el", "Αυτό που δίνετε και αυτό που παίρνετε πρέπει να είναι διαφορετικοί πόροι."),
])
def test_an_offer_of_a_resource_for_itself_is_refused_in_the_players_language(app, client, runner, lang, reason):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a = blue_first(app, made)[0]
    before = _orders(app, made["game"])
    r = _refused(client, a, {"offer1_give": "2 WOOD", "offer1_get_n": "1", "offer1_get": "WOOD"}, lang)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert reason in html and "E303" not in html and "E007" not in html
    assert kept(html)["offer1_give"] == "2 WOOD"  # the input is kept (the script starts from it)
    assert _orders(app, made["game"]) == before


def test_a_move_for_a_heavy_troop_not_built_is_refused_and_nothing_is_stored(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a, b = blue_first(app, made)
    for link in (a, b):  # proposals, then no answers are owed: turn 4
        assert post_form(client, link, {}).status_code == 303
    step, owed, state = _owed(app, made["game"])
    assert state["phase"] == "T4"
    before = _orders(app, made["game"])
    r = _refused(client, a, {"move_B-S1": "MOVE B-S1 2", "move_NEW": "MOVE NEW 2"}, "pt")
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "Uma tropa pesada nova exige construir uma tropa pesada neste turno." in html
    assert re.search(r'<option value="MOVE B-S1 2"[^>]* selected', html)
    assert _orders(app, made["game"]) == before and _owed(app, made["game"])[0] == step


def test_forms_name_things_and_no_tooltip_shows_the_notation(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    html = client.get(path_of(blue_first(app, made)[0])).get_data(as_text=True)
    form = html[html.index('class="g-empire e-forms"'):html.index("</script>", html.index('class="g-empire e-forms"'))]
    shown = re.sub(r"<[^>]+>", " ", form.split("<script>")[0])
    assert "Trade offer 1" in shown and "2 Wood" in shown and "with YELLOW: 1 (Bluehold)" in shown
    assert "GIVE" not in shown and "PACT YELLOW" not in shown
    assert "title=" not in form.split("<script>")[0]


# ------------------------------------------------------------ the dependent choices are exactly the legal ones
def _dependent_pairs(form):
    """(parent field, parent value, child field, child value, offered) for every dependent choice
    and every value of its parent (the empty one included)."""
    fields = {f["name"]: f for f in form["fields"]}
    for f in form["fields"]:
        if not f.get("depends_on"):
            continue
        parent = fields[f["depends_on"]]
        values = [c["value"] for c in parent["choices"]] + ([""] if not parent.get("required", True) else [])
        for c in f["choices"]:
            for v in values:
                yield parent["name"], v, f["name"], c["value"], v in c.get("when", [v])


def _check_pairs(state, seat, form, extra=None):
    from app.games.base import IllegalOrder
    from app.games.empire import RULES

    checked = 0
    for pname, pvalue, cname, cvalue, offered in _dependent_pairs(form):
        order = {**form["base"], **(extra or {}), pname: pvalue, cname: cvalue}
        try:
            RULES.validate(state, seat, order)
            ok = True
        except IllegalOrder:
            ok = False
        assert ok == offered, (pname, pvalue, cname, cvalue)
        checked += 1
    return checked


def test_tribute_second_payment_offers_exactly_what_the_first_leaves():
    from app.games.empire import RULES
    from app.games.empire.phases import after_routing
    from tests.games.empire.helpers import ScriptedRng, res, scenario, seat

    st = scenario()
    st["phase"], st["tribute"] = "T8", "FREE"
    st["players"][seat(st, "YELLOW")]["effects"] = ["S14"]
    res(st, "YELLOW", GOLD=1, FOOD=2, WOOD=1)
    after_routing(st, ScriptedRng())
    form = RULES.owed(st)["P3"]["forms"][0]
    assert [f["name"] for f in form["fields"]] == ["pay1", "pay2"]
    assert _check_pairs(st, "P3", form) >= 9


def test_offers_and_builds_offer_exactly_the_legal_combinations():
    from app.games.empire import RULES
    from tests.games.empire.helpers import control, put, res, scenario

    st = scenario()
    st["phase"] = "T3A"
    res(st, "BLUE", GOLD=1, WOOD=2, IRON=1)
    form = RULES.owed(st)["P1"]["forms"][0]
    assert _check_pairs(st, "P1", form) > 30
    gives = next(f for f in form["fields"] if f["name"] == "offer1_give")["choices"]
    assert [c["value"] for c in gives] == ["1 GOLD", "1 WOOD", "2 WOOD", "1 IRON"]  # never more than held

    st["phase"] = "T4"
    control(st, "BLUE", 2)
    put(st, "B-S1", 1)
    res(st, "BLUE", GOLD=2, WOOD=2, STONE=1, IRON=3)  # a heavy troop is affordable; a Wall needs the market
    form = RULES.owed(st)["P1"]["forms"][0]
    assert _check_pairs(st, "P1", form) > 50
    builds = {c["value"]: c["when"] for f in form["fields"] if f["name"] == "build" for c in f["choices"]}
    assert "" in builds["BUILD HEAVY 2"] and "" not in builds.get("BUILD WALL 2", [""])


def test_every_form_of_the_loss_and_tribute_windows_is_accepted_with_legal_values():
    """Turn 7A (own losses), 7B (the neighbour's) and 9 (a tribute with two payments): each form,
    filled from its choices, is a valid order; ticking the wrong number is refused."""
    from app.games.base import IllegalOrder
    from app.games.empire import RULES
    from app.games.empire.phases import after_routing, maintenance
    from tests.games.empire.helpers import ScriptedRng, put, res, scenario, seat

    st = scenario(players=2)
    st["phase"] = "T7"
    for i in (1, 2):
        put(st, f"B-S{i}", 1)
        put(st, f"Y-S{i}", 12)
    maintenance(st)
    windows = [("T7A", st)]
    st7b, _ = RULES.resolve(st, {}, ScriptedRng())
    windows.append(("T7B", st7b))
    st9 = scenario()
    st9["phase"], st9["tribute"] = "T8", "FREE"
    st9["players"][seat(st9, "YELLOW")]["effects"] = ["S14"]
    res(st9, "YELLOW", GOLD=1, FOOD=2)
    after_routing(st9, ScriptedRng())
    windows.append(("T9", st9))
    for phase, state in windows:
        assert state["phase"] == phase
        for who, prompt in RULES.owed(state).items():
            for form in prompt["forms"]:
                for pick in range(3):
                    RULES.validate(state, who, {**form["base"], **legal_values(form, pick)})
    form = RULES.owed(st)["P1"]["forms"][0]
    with pytest.raises(IllegalOrder) as err:
        RULES.validate(st, "P1", {**form["base"], "lose": ["B-S1"]})
    assert "You must remove exactly 2 different troops." in RULES.text.render(err.value.msg)


# ------------------------------------------------------------ the page without its script: legal combinations only
def _set_state(app, game_id, change) -> None:
    """Change a running game's state in place (its prompts drawn again from it)."""
    import copy

    from app.db import write_session
    from app.games.empire import RULES
    from app.models import Game

    with write_session(get_engine(app)) as s:
        game = s.get(Game, game_id)
        state = copy.deepcopy(game.state)
        change(state)
        game.state, game.owed = state, RULES.owed(state)
        s.add(game)


def _valid(state, seat, order) -> bool:
    from app.games.base import IllegalOrder
    from app.games.empire import RULES

    try:
        RULES.validate(state, seat, order)
    except IllegalOrder:
        return False
    return True


def _offered(options) -> set[tuple[tuple[str, str], ...]]:
    from urllib.parse import parse_qsl

    return {tuple(sorted(parse_qsl(v))) for v, _ in options}


def _turn_4(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a, b = blue_first(app, made)
    for link in (a, b):  # proposals, then no answers are owed: turn 4
        assert post_form(client, link, {}).status_code == 303

    def rich(st):
        from tests.games.empire.helpers import control, put, res
        control(st, "BLUE", 2)
        put(st, "B-S1", 1)
        res(st, "BLUE", GOLD=2, WOOD=2, STONE=1, IRON=3)  # a heavy troop is affordable; a Wall needs the market

    _set_state(app, made["game"], rich)
    return made, a


def test_without_its_script_the_administration_form_offers_exactly_the_legal_combinations(app, client, runner):
    from itertools import product

    made, a = _turn_4(app, client, runner)
    step, owed, state = _owed(app, made["game"])
    seat = next(s for s, c in state["colour"].items() if c == "BLUE")
    form = owed[seat]["forms"][0]
    html = client.get(path_of(a)).get_data(as_text=True)
    [options] = combos(html)  # market, build and the new troop's move: one select
    fields = {f["name"]: f for f in form["fields"]}
    names = ["market", "build", "move_NEW"]
    legal = set()
    for values in product(*[[""] + [c["value"] for c in fields[n]["choices"]] for n in names]):
        order = {**form["base"], **{n: v for n, v in zip(names, values, strict=True) if v}}
        if _valid(state, seat, order):
            legal.add(tuple(sorted((n, v) for n, v in zip(names, values, strict=True) if v)))
    assert _offered(options) == legal and len(legal) > 20
    labels = dict(options)
    assert "buy 2 Stone for 1 Gold · Wall in 2 (Westwood)" in " ".join(labels.values())
    assert not any("MARKET" in label or "BUILD" in label for label in labels.values())  # names, not notation
    # the new troop's mode goes with any choice: it applies only if a heavy troop is built
    assert "If you build a heavy troop now: its combat mode" in html
    assert _valid(state, seat, {**form["base"], "mode_NEW": "MODE NEW ATTACK"})
    for value, _ in options[:: max(1, len(options) // 6)]:  # a few of them, posted as a browser would
        r = post_form(client, a, {"combo": value, "mode_NEW": "MODE NEW CONQUEST"})
        assert r.status_code == 303, (value, r.get_data(as_text=True)[-2000:])


def test_without_its_script_each_offer_lists_only_legal_give_and_get_pairs(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a = blue_first(app, made)[0]
    step, owed, state = _owed(app, made["game"])
    seat = next(s for s, c in state["colour"].items() if c == "BLUE")
    form = owed[seat]["forms"][0]
    html = client.get(path_of(a)).get_data(as_text=True)
    groups = combos(html)
    assert len(groups) == 3  # one select per offer: three offers do not multiply
    gives = next(f for f in form["fields"] if f["name"] == "offer1_give")["choices"]
    legal = {()}
    for g in gives:
        for r in ("GOLD", "WOOD", "STONE", "IRON", "FOOD"):
            order = {**form["base"], "offer1_give": g["value"], "offer1_get": r}
            if _valid(state, seat, order):
                legal.add(tuple(sorted({"offer1_give": g["value"], "offer1_get": r}.items())))
    assert _offered(groups[0]) == legal and len(legal) > 8
    assert not _valid(state, seat, {**form["base"], "offer1_give": gives[0]["value"]})  # half an offer
    # two offers through the page's selects, without the script
    value1 = next(v for v, label in groups[0] if "Food · Wood" in label)
    value2 = next(v for v, label in groups[1] if "Gold · Iron" in label)
    r = post_form(client, a, {"combo": [value1, value2], "offer1_get_n": "2", "offer2_get_n": "1"})
    assert r.status_code == 303, r.get_data(as_text=True)[-2000:]
    on_file = client.get(path_of(a)).get_data(as_text=True)
    assert "GET 2 WOOD" in on_file and "GET 1 IRON" in on_file


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "6 (Westgold) is not adjacent to 1 (Bluehold)."),
    ("pt", "6 (Minas de Ouro Ocidentais) não é adjacente a 1 (Bastião Azul)."),
])
def test_a_hand_made_combination_the_page_never_offers_is_refused_and_kept(app, client, runner, lang, reason):
    made, a = _turn_4(app, client, runner)
    step = _owed(app, made["game"])[0]
    before = _orders(app, made["game"])
    r = _refused(client, a, {"combo": "build=BUILD+HEAVY+1&move_NEW=MOVE+NEW+6", "move_B-S1": "MOVE B-S1 2"}, lang)
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert reason in html
    assert kept(html) == {"build": "BUILD HEAVY 1", "move_NEW": "MOVE NEW 6"}
    assert re.search(r'<option value="MOVE B-S1 2"[^>]* selected', html)
    assert _orders(app, made["game"]) == before and _owed(app, made["game"])[0] == step


def test_the_standing_orders_page_draws_each_offer_as_a_select_of_its_own(app, client, runner):
    """The standing-orders page uses the platform's generic form: independent groups of tied choices
    are drawn apart (three offers of 81 pairs each are not 81 cubed options), and a standing
    proposal set there is kept."""
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    a = blue_first(app, made)[0]
    _step, owed, state = _owed(app, made["game"])
    seat = next(s for s, c in state["colour"].items() if c == "BLUE")
    assert owed[seat]["forms"][0]["base"]["type"] == "PROPOSE"
    resp = client.get(path_of(a) + "/standing")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200
    proposal = html.split("<form")[1]
    selects = re.findall(r'<select id="[^"]*" name="combo"', proposal)
    assert len(selects) == 3, "one select per offer"
    assert proposal.count("<option") < 1000 and len(html) < 1_000_000
    groups = combos(proposal)
    value = next(v for v, label in groups[0] if "Food · Wood" in label)
    r = client.post(path_of(a) + "/standing", data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                    "form_index": "0", "combo": [value], "offer1_get_n": "2"})
    assert r.status_code in (200, 303), r.get_data(as_text=True)[-1500:]
    from app.models import StandingOrder

    with Session(get_engine(app)) as s:
        kept_order = s.exec(select(StandingOrder).where(StandingOrder.game_id == made["game"])).one().order
    assert kept_order["offer1_get"] == "WOOD" and kept_order["offer1_get_n"] == 2, kept_order
