"""What a player finds around the order form: where am I, what happened to me, the spectator's page,
the board full size, the rules summary and the printed report."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.models import Player, Report, utcnow
from app.report_html import render_html
from tests.platform.helpers import create_game, mails, path_of, post_form


def _late_tick(runner, hours):
    runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=hours)).isoformat()])


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def missed(app, runner, client):
    """A toy game whose seat B missed the first deadline (A ordered 3), B reading Portuguese."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "2")
    with Session(get_engine(app)) as s:
        b = s.exec(select(Player).where(Player.email == "b@example.org")).one()
        b.language = "pt"
        s.add(b)
        s.commit()
    post_form(client, made["seats"][0]["link"], {"n": "3"})
    _late_tick(runner, 3)
    return made


def test_a_seat_is_told_what_was_played_for_it_and_everyone_that_it_missed_the_deadline(app, client, missed):
    a, b = missed["seats"]
    page_b = _text(client.get(path_of(b["link"])).get_data(as_text=True))
    assert "Jogado por si: Pick · 1" in page_b
    assert "B não deu ordens a tempo: foi jogada a ordem predefinida." in page_b
    page_a = _text(client.get(path_of(a["link"])).get_data(as_text=True))
    assert "B did not order in time: the default order was played." in page_a
    assert "Played for you" not in page_a, "what was played for B is B's own business"
    mail_b = [m for m in mails(app, to_addr="b@example.org") if m.step_no == 2]
    assert mail_b and "Jogado por si: Pick · 1" in mail_b[-1].text
    assert "Played for you" not in "".join(m.text for m in mails(app, to_addr="a@example.org"))
    history = _text(client.get(path_of(b["link"]) + "/history").get_data(as_text=True))
    assert "jogado por si: ordem predefinida" in history and "Pick · 1" in history


def test_the_log_is_grouped_by_turn_newest_turn_first_and_oldest_first_within_a_turn(app, client, runner, missed):
    a, _b = missed["seats"]
    post_form(client, a["link"], {"n": "2"})
    _late_tick(runner, 30)
    html = client.get(path_of(a["link"])).get_data(as_text=True)
    log = html.split('id="log"')[1]
    headings = re.findall(r'<h3 class="turn">([^<]+)</h3>', log)
    assert headings[:2] == ["R2", "R1"]
    first_turn = log.split(">R1</h3>")[1]
    assert first_turn.index("B did not order in time") < first_turn.index("Round 1: A picked 3, B picked 1.")


def test_every_player_page_links_to_my_games_settings_the_spectator_page_and_the_rules(app, client, missed):
    a, _b = missed["seats"]
    game = missed["game"]
    for path in (path_of(a["link"]), path_of(a["link"]) + "/history", path_of(a["link"]) + "/pause"):
        html = client.get(path).get_data(as_text=True)
        me = re.search(r'href="(/me/[^"#]+)#games"', html)
        assert me, f"{path} links to My games"
        assert f'href="{me.group(1)}#settings"' in html
        assert f'href="/g/{game}"' in html and 'href="/rules/toy"' in html
        assert client.get(me.group(1)).status_code == 200, "the My games link opens the player's page"


@pytest.mark.parametrize("slug", ["conquest", "dual_powers", "duel", "empire", "toy"])
def test_a_rules_summary_for_each_game(client, slug):
    resp = client.get(f"/rules/{slug}")
    assert resp.status_code == 200
    assert "summary" in resp.get_data(as_text=True).lower() or slug in resp.get_data(as_text=True)


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/chess").status_code == 404


def test_the_board_opens_full_size_with_only_what_the_page_shows(app, client, missed):
    a, _b = missed["seats"]
    page = client.get(path_of(a["link"])).get_data(as_text=True)
    assert f'href="{path_of(a["link"])}/board"' in page
    board = client.get(path_of(a["link"]) + "/board")
    assert board.status_code == 200 and "<svg" in board.get_data(as_text=True)
    assert "user-scalable=yes" in board.get_data(as_text=True), "a phone may zoom the board"
    public = client.get(f"/g/{missed['game']}/board")
    assert public.status_code == 200 and "Round 2 A:3 B:0" in public.get_data(as_text=True)
    assert client.get("/p/" + "x" * 43 + "/board").status_code == 404
    assert client.get("/g/999999/board").status_code == 404


def test_the_spectator_page_shows_the_public_log_and_who_is_awaited(app, client, runner, missed):
    a, b = missed["seats"]
    game = missed["game"]
    post_form(client, a["link"], {"n": "2"})
    html = _text(client.get(f"/g/{game}").get_data(as_text=True))
    assert "Round 1: A picked 3, B picked 1." in html and "Nothing yet." not in html
    assert "Played for you" not in html and "charm-" not in html, "no seat's own events"
    assert re.search(r"Waiting for B\b", html), "B has not ordered in this step; A has"
    post_form(client, b["link"], {"n": "1"})
    post_form(client, a["link"], {"n": "1"})
    post_form(client, b["link"], {"n": "1"})
    html = _text(client.get(f"/g/{game}").get_data(as_text=True))
    assert "Final result" in html and "Round 3: A picked 1, B picked 1." in html


def test_the_report_leaves_out_an_empty_private_box_and_numbers_its_pages(app, client, missed):
    with Session(get_engine(app)) as s:
        report = s.exec(select(Report).where(Report.seat == "A").order_by(Report.step_no.desc())).first()
    context = dict(report.context)
    with app.test_request_context():
        assert "Only for you" in render_html(context, "https://pbem.example.org/p/x")
        context["view"] = {k: v for k, v in context["view"].items() if k != "private"}
        html = render_html(context, "https://pbem.example.org/p/x")
    assert "Only for you" not in html
    assert "counter(page)" in html and "counter(pages)" in html


def test_a_refusal_speaks_without_engine_codes(app, client, runner):
    made = create_game(runner, "empire", [f"p{i}@example.org" for i in range(4)])
    link = made["seats"][0]["link"]
    page = client.get(path_of(link)).get_data(as_text=True)
    data = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
            "step_no": re.search(r'name="step_no" value="(\d+)"', page).group(1), "notation": "FLY TO THE MOON"}
    resp = client.post(path_of(link), data=data)
    assert resp.status_code == 422
    error = _text(resp.get_data(as_text=True).split('role="alert">')[1].split("</div>")[0])
    assert "FLY TO THE MOON" in error, error
    assert not re.search(r"\bE\d{2,3}\b", error), error


@pytest.mark.parametrize(("slug", "players"), [("conquest", 3), ("dual_powers", 2), ("duel", 2), ("empire", 4)])
def test_a_full_size_board_shows_no_other_seats_secrets(app, client, runner, slug, players):
    from app.games import get_rules
    from tests.platform.helpers import game_row

    extra = ("--option", "players=3") if slug == "conquest" else ()
    made = create_game(runner, slug, [f"p{i}@example.org" for i in range(players)], *extra)
    rules, state = get_rules(slug), game_row(app, made["game"]).state
    seats = made["seats"]
    link = re.compile(r"/p/[A-Za-z0-9_-]{20,}")  # the page's own link: random text that may spell a card's id
    mine = link.sub("/p/LINK", client.get(path_of(seats[0]["link"]) + "/board").get_data(as_text=True))
    public = link.sub("/p/LINK", client.get(f"/g/{made['game']}/board").get_data(as_text=True))
    assert "<svg" in mine and "<svg" in public
    if slug != "duel":  # the Duel's seats hold no secret at its start
        assert any(rules.secrets(state, s["seat"]) for s in seats), "the game holds secrets to keep"
    for other in seats[1:]:
        for secret in rules.secrets(state, other["seat"]):
            assert secret not in mine, f"{other['seat']}'s secret {secret!r} on another seat's board"
    for seat in seats:
        for secret in rules.secrets(state, seat["seat"]):
            assert secret not in public, f"{seat['seat']}'s secret {secret!r} on the spectator's board"


def test_what_was_played_for_a_duel_seat_reads_in_words(app, client, runner):
    """The Duel's default order carries the platform's ``auto`` flag: it is still told by the form's words."""
    made = create_game(runner, "duel", ("a@example.org", "b@example.org"), "--hours", "2")
    _late_tick(runner, 3)
    texts = [_text(client.get(path_of(s["link"])).get_data(as_text=True)) for s in made["seats"]]
    told = [t.split("Played for you:", 1)[1][:120] for t in texts if "Played for you:" in t]
    assert told, "a seat that missed the deadline is told what was played for it"
    assert all("PLACE" not in t and "AUTO" not in t for t in told), told
