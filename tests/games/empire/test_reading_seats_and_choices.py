"""What a player reads on Empire's page: one name per seat (its colour and its player number),
one clear choice with its reason when an offer cannot be accepted, no notation in tooltips,
and legends that no border crosses."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("flask")

from flask import render_template  # noqa: E402
from werkzeug.datastructures import MultiDict  # noqa: E402

from app.games.empire import RULES  # noqa: E402
from app.games.empire.prompts import prompt  # noqa: E402
from app.i18n import gametext  # noqa: E402
from tests.games.empire.helpers import put, res, scenario, seat  # noqa: E402

#: a drawn 4-player seating, as the reviewer met it: Player 2 is Red, not Green
DRAWN = {"P1": "BLUE", "P3": "GREEN", "P4": "YELLOW", "P2": "RED"}


def _drawn():
    st = scenario(4)
    st["colour"] = dict(DRAWN)
    for s, c in DRAWN.items():
        st["players"][s]["colour"] = c
    return st


@pytest.mark.parametrize(("lang", "p2", "p3"), [
    ("en", "RED (Player 2)", "GREEN (Player 3)"),
    ("pt", "VERMELHO (Jogador 2)", "VERDE (Jogador 3)"),
    ("el", "ΚΟΚΚΙΝΟ (Παίκτης 2)", "ΠΡΑΣΙΝΟ (Παίκτης 3)"),
])
def test_a_seat_is_named_by_its_colour_and_the_platforms_player_number(app, lang, p2, p3):
    st = _drawn()
    assert gametext.render("empire", RULES.seat_label(st, "P2"), lang) == p2
    assert gametext.render("empire", RULES.seat_label(st, "P3"), lang) == p3
    with app.test_request_context(f"/?lang={lang}"):
        board = render_template("games/empire/board.html", view=RULES.view(st, "P1"), seat="P1",
                                map_elsewhere=True)
    rows = re.findall(r'<th scope="row">([^<]*)</th>', board)
    assert p2 in " ".join(rows) and p3 in " ".join(rows)  # the key from "Player 2" (press, log, mail) to a colour


def _cannot_accept():
    """Blue offers Green 1 Food for 3 Iron; Green holds 2 Iron; Yellow's offer to Green is affordable."""
    st = scenario(3)
    st["phase"] = "T3B"
    st["offers"] = [
        {"id": "B-O1", "from": seat(st, "BLUE"), "to": seat(st, "GREEN"), "give": "FOOD", "give_n": 1,
         "get": "IRON", "get_n": 3},
        {"id": "Y-O1", "from": seat(st, "YELLOW"), "to": seat(st, "GREEN"), "give": "FOOD", "give_n": 1,
         "get": "WOOD", "get_n": 1}]
    res(st, "BLUE", FOOD=2)
    res(st, "YELLOW", FOOD=2)
    res(st, "GREEN", IRON=2, WOOD=1)
    return st


def test_an_offer_the_player_cannot_pay_has_one_choice_and_says_why():
    st = _cannot_accept()
    fields = {f["name"]: f for f in prompt(st, seat(st, "GREEN"))["forms"][0]["fields"]}
    cannot, can = fields["answer_B-O1"], fields["answer_Y-O1"]
    assert [c["value"] for c in cannot["choices"]] == ["DECLINE OFFER B-O1"]
    assert cannot.get("required", True) is True  # no "(none)" beside "decline"
    assert gametext.render("empire", cannot["label"], "en").endswith("You cannot accept: you have 2 Iron")
    assert [c["value"] for c in can["choices"]] == ["ACCEPT OFFER Y-O1", "DECLINE OFFER Y-O1"]
    # the order the form posts still declines it
    RULES.validate(st, seat(st, "GREEN"), {"type": "ANSWER", "answer_B-O1": "DECLINE OFFER B-O1"})


def _form(app, st, s, lang):
    with app.test_request_context(f"/?lang={lang}"):
        return render_template("games/empire/form.html", prompt=prompt(st, s), values=MultiDict(),
                               form_index=None, csrf_field="")


@pytest.mark.parametrize(("lang", "none", "why"), [
    ("pt", "(nenhum)", "Não a pode aceitar: tem 2 de Ferro"),
    ("el", "(κανένα)", "Δεν μπορείτε να τη δεχτείτε: έχετε 2 Σίδηρο"),
])
def test_the_answer_form_offers_decline_alone_when_accepting_is_impossible(app, lang, none, why):
    st = _cannot_accept()
    html = _form(app, st, seat(st, "GREEN"), lang)
    select = re.search(r'<select id="e0-answer_B-O1".*?</select>', html, re.S).group(0)
    assert len(re.findall("<option", select)) == 1 and none not in select
    assert why in html


def test_no_tooltip_of_a_form_or_the_board_shows_the_notation(app):
    st = scenario(4)
    st["phase"] = "T3A"
    for tid in ("B-S1", "B-S2", "B-S3"):
        put(st, tid, 1)
    res(st, "BLUE", FOOD=2, WOOD=1)
    blue = seat(st, "BLUE")
    html = _form(app, st, blue, "pt").split("<script>")[0]
    assert "title=" not in html and "PACT" in html  # values stay notation, never shown
    svg = RULES.board_svg(RULES.view(st, blue), blue, lambda m: gametext.render("empire", m, "pt"))
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    assert "Bastião Azul: tropas azuis 1, 2 e 3" in titles
    assert not any(re.search(r"\b[BGYR]-[SH]\d", t) for t in titles)
    with app.test_request_context("/?lang=pt"):
        st["offers"] = [{"id": "G-O1", "from": seat(st, "GREEN"), "to": None, "give": "FOOD", "give_n": 1,
                         "get": "WOOD", "get_n": 1}]
        board = render_template("games/empire/board.html", view=RULES.view(st, blue), seat=blue, map_elsewhere=True)
    assert 'title="G-O1"' not in board


def test_a_wrapped_legend_is_inside_its_box():
    """A fieldset's legend straddles its top border; once it wraps (phase 4's losses order in
    Portuguese at 390 px) the border crosses its text: floated, the legend sits inside the box."""
    with open("templates/games/empire/form.html", encoding="utf-8") as fh:
        css = fh.read()
    assert re.search(r"\.e-forms fieldset > legend \{[^}]*float: left;[^}]*width: 100%", css)
    assert ".e-forms fieldset > legend ~ * { clear: left; }" in css


def test_the_history_describes_an_empire_order_in_words():
    """The order history's words (``app.notices.order_words``) come from ``RULES.order_words`` for an
    order in notation: every window's order reads in words in pt and el, not as notation."""
    orders = ["PROPOSE: OFFER GIVE 1 FOOD GET 1 WOOD; PACT GREEN PROVINCE 1", "ANSWER: DECLINE OFFER G-O1",
              "ADMIN: MARKET BUY WOOD 1; MOVE B-S1 2", "LOSE: LOSE B-S1", "ROUTE: ROUTE GOLD 1", "PAY: PAY WOOD FOOD"]
    for text in orders:
        words = RULES.order_words(RULES.parse(text))
        for lang in ("pt", "el"):
            said = gametext.render("empire", words, lang)
            assert said and not re.search(r"\b(OFFER|GIVE|DECLINE|MARKET|MOVE|ROUTE|PAY|LOSE)\b", said), said


def test_press_mail_names_the_sender_and_recipients_with_their_colours(app, client, runner):
    from tests.platform.helpers import create_game, csrf_of, mails, path_of

    made = create_game(runner, "empire", ("a@example.org", "b@example.org", "c@example.org", "d@example.org"),
                       "--option", "players=4")
    link = {s["seat"]: path_of(s["link"]) for s in made["seats"]}
    page = client.get(link["P1"]).get_data(as_text=True)
    resp = client.post(f"{link['P1']}/press", data={"csrf_token": csrf_of(page), "to": ["P2"], "text": "a deal?"})
    assert resp.status_code == 303
    [mail] = [m for m in mails(app) if m.kind.startswith("press")]
    assert "(Player 1)" in mail.subject and mail.subject.split("press from ")[1].split(" (")[0].isupper()
    assert "(Player 2)" in mail.text


def test_the_log_names_seats_with_their_colours_in_the_platforms_notices_too(app, client, runner):
    import re
    from datetime import timedelta

    from sqlmodel import Session

    from app import turns
    from app.db import get_engine
    from app.models import Game
    from tests.platform.helpers import create_game, path_of

    made = create_game(runner, "empire", ("a@example.org", "b@example.org", "c@example.org", "d@example.org"),
                       "--option", "players=4")
    with Session(get_engine(app)) as s:
        deadline = s.get(Game, made["game"]).deadline
    with app.app_context():
        turns.process_due(get_engine(app), deadline + timedelta(seconds=1))
    html = client.get(path_of(made["seats"][0]["link"]) + "?lang=pt").get_data(as_text=True)
    log = html.split('id="log"', 1)[1]
    missed = re.findall(r"([A-Z]+ \(Jogador \d\)) não deu ordens a tempo", log)
    assert missed, "the platform's notice names the seat with its colour"
    assert not re.search(r"(?<!\()Jogador \d não deu ordens", log)


def test_turn_mails_and_reports_name_the_players_seat_with_its_colour(app, client, runner):
    from datetime import timedelta

    from sqlmodel import Session

    from app import turns
    from app.db import get_engine
    from app.mailjobs import build_pending
    from app.models import Game
    from tests.platform.helpers import create_game, mails

    made = create_game(runner, "empire", ("a@example.org", "b@example.org", "c@example.org"), "--option", "players=3")
    with Session(get_engine(app)) as s:
        game = s.get(Game, made["game"])
        deadline, colour = game.deadline, game.state["colour"]["P1"]
    with app.app_context():
        turns.process_due(get_engine(app), deadline + timedelta(seconds=1))
        build_pending(get_engine(app))
    named = f"{colour} (Player 1)"
    sent = [m for m in mails(app, to_addr="a@example.org") if m.kind in ("start", "turn")]
    assert {m.kind for m in sent} == {"start", "turn"}
    for mail in sent:
        assert named in mail.subject and "] Player 1" not in mail.subject, mail.subject
    start = next(m for m in sent if m.kind == "start")
    assert f"you play {named}" in start.text.splitlines()[0]


def test_a_report_names_the_other_seats_it_mentions_with_their_colours(app):
    from flask import render_template

    from app.games import get_rules
    from app.notify import seat_message

    st = _drawn()
    rules = get_rules("empire")
    ctx = {"game": {"slug": "empire", "title": "", "id": 1, "step_no": 2, "turn_key": "", "status": "finished"},
           "seat": "P1", "seat_name": seat_message(rules, st, "P1"), "waiting_for": ["P2"], "prompt": None,
           "seat_names": {s: seat_message(rules, st, s) for s in ("P2", "P3", "P4")},
           "outcome": [{"seat": "P3", "rank": 1, "score": 9}, {"seat": "P1", "rank": 2, "score": 5}],
           "player": {"timezone": "UTC"}, "deadline": None, "events": []}
    with app.test_request_context("/?lang=pt"):
        text = render_template("mail/turn.txt", ctx=ctx, kind="turn", link="L")
    assert "1. VERDE (Jogador 3): 9" in text and "2. AZUL (Jogador 1) " in text, text
    ctx["outcome"] = None
    with app.test_request_context("/?lang=pt"):
        text = render_template("mail/turn.txt", ctx=ctx, kind="turn", link="L")
    assert "VERMELHO (Jogador 2)" in text, "who is awaited, by colour"
