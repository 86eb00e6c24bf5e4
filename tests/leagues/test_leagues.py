"""Leagues from the GM's and players' side: create, join, seasons, results, standings."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta

from pypdf import PdfReader
from sqlmodel import Session, select

from app.db import get_engine
from app.leagues.pairing import round_robin, table_sizes
from app.models import Game, LeagueGame, LeagueMember, Rating, Season, Seat, utcnow
from tests.platform.helpers import mails, path_of

EMAILS = [f"p{i}@example.org" for i in range(1, 5)]


def _league(runner, game="toy", *extra):
    out = runner.invoke(args=["league", "create", "Winter Cup", "--game", game, "--tz", "Europe/Lisbon", *extra])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _games(app, league_id):
    with Session(get_engine(app)) as s:
        rows = s.exec(select(LeagueGame).where(LeagueGame.league_id == league_id)).all()
        return [(lg.round_no, s.get(Game, lg.game_id)) for lg in rows]


def test_round_robin_meets_everyone_once():
    for n in (2, 3, 4, 5, 6, 7, 8):
        rounds = round_robin(list(range(n)))
        pairs = [frozenset(p) for r in rounds for p in r]
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
        for r in rounds:
            seated = [x for p in r for x in p]
            assert len(seated) == len(set(seated))


def test_balanced_tables():
    assert table_sizes(7, 3, 4) == [4, 3]
    assert table_sizes(12, 3, 6) == [6, 6]
    assert table_sizes(13, 3, 6) == [5, 4, 4]
    assert table_sizes(2, 3, 6) == []


def test_gm_creates_league_players_join_season_is_paired(app, client, runner):
    made = _league(runner)
    assert made["public"].endswith("/l/winter-cup")
    out = runner.invoke(args=["league", "add", "winter-cup", *EMAILS[:3]])
    assert json.loads(out.output)["members"] == 3
    # the fourth joins by the invitation link
    join = path_of(made["invite"])
    assert client.get(join).status_code == 200
    assert client.post(join, data={"email": EMAILS[3]}).status_code == 200  # "a mail is on its way"
    mail = [m for m in mails(app, to_addr=EMAILS[3]) if m.kind.startswith("league-join")][-1]
    assert client.post(path_of(re.search(r"https://\S+", mail.text).group(0))).status_code == 303
    out = runner.invoke(args=["league", "season", "winter-cup"])
    assert json.loads(out.output) == {"season": 1, "rounds": 3, "round": 1}
    games = _games(app, made["league"])
    assert len(games) == 2 and all(r == 1 for r, _g in games)
    with Session(get_engine(app)) as s:
        seated = sorted(st.player_id for _r, g in games for st in s.exec(select(Seat).where(Seat.game_id == g.id)))
        assert len(seated) == 4 and len(set(seated)) == 4
        assert all(g.policy.get("timezone") == "Europe/Lisbon" and g.league_id == made["league"] for _r, g in games)


def _finish_round(app, runner):
    """Nobody orders: every deadline passes and default orders play the games out."""
    for day in range(1, 12):
        out = runner.invoke(args=["tick", "--now", (utcnow() + timedelta(days=3 * day)).isoformat()])
        assert out.exit_code == 0, out.output


def test_results_feed_standings_ratings_and_next_round(app, client, runner, monkeypatch):
    made = _league(runner, "toy", "--extensions", "0")
    runner.invoke(args=["league", "add", "winter-cup", *EMAILS])
    runner.invoke(args=["league", "season", "winter-cup"])
    _finish_round(app, runner)
    assert all(g.status == "finished" for _r, g in _games(app, made["league"]))
    out = json.loads(runner.invoke(args=["league", "advance"]).output)
    assert out["recorded"] == 2 and out["rounds"] == 1
    assert len(_games(app, made["league"])) == 4  # round 2 opened
    with Session(get_engine(app)) as s:
        ratings = s.exec(select(Rating)).all()
        assert len(ratings) == 4
        members = s.exec(select(LeagueMember)).all()
        assert any(m.mu != 25.0 for m in members)
    rows = json.loads(runner.invoke(args=["league", "standings", "winter-cup"]).output)
    assert [r["games"] for r in rows] == [1, 1, 1, 1]
    assert rows[0]["points"] >= rows[-1]["points"]
    page = client.get("/l/winter-cup").get_data(as_text=True)
    assert "Standings" in page and "Player 1" in page and "p1@" not in page and ">p1<" not in page, \
        "addresses stay private"
    assert "Rating history" in page and page.count("<th>Rating after</th>") == 1
    pdf = client.get("/l/winter-cup/standings.pdf")
    assert pdf.headers["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    assert "Winter Cup" in text and "Rating" in text
    import weasyprint  # a public PDF reloaded in a loop is rendered once, and renders are limited per client

    renders = []
    real = weasyprint.HTML
    monkeypatch.setattr(weasyprint, "HTML", lambda *a, **k: renders.append(1) or real(*a, **k))
    assert client.get("/l/winter-cup/standings.pdf").data == pdf.data and renders == []
    # a recorded game is never counted twice
    assert json.loads(runner.invoke(args=["league", "advance"]).output)["recorded"] == 0


def test_season_ends_after_its_rounds(app, runner):
    made = _league(runner, "toy", "--extensions", "0")
    runner.invoke(args=["league", "add", "winter-cup", *EMAILS[:2]])
    assert json.loads(runner.invoke(args=["league", "season", "winter-cup"]).output)["rounds"] == 1
    again = runner.invoke(args=["league", "season", "winter-cup"])
    assert again.exit_code != 0 and "still running" in again.output
    _finish_round(app, runner)
    assert json.loads(runner.invoke(args=["league", "advance"]).output)["seasons_finished"] == 1
    with Session(get_engine(app)) as s:
        assert s.exec(select(Season)).one().status == "finished"
    assert json.loads(runner.invoke(args=["league", "season", "winter-cup"]).output)["season"] == 2
    assert len(_games(app, made["league"])) == 2


def test_league_gm_page_lists_who_owes_what(app, client, runner):
    made = _league(runner)
    runner.invoke(args=["league", "add", "winter-cup", *EMAILS])
    runner.invoke(args=["league", "season", "winter-cup"])
    html = client.get(path_of(made["gm_link"])).get_data(as_text=True)
    assert "Games running" in html and html.count("manage</a>") == 2
    assert re.search(r"A \(p\d@example.org\), B \(p\d@example.org\)", html), "the GM added them by address"
    assert client.get("/lg/" + "x" * 43).status_code == 404


def test_spectator_page_shows_public_view_only(app, client, runner):
    out = json.loads(runner.invoke(args=["game", "create", "toy", "--player", "a@example.org",
                                         "--player", "b@example.org"]).output)
    from tests.platform.helpers import game_row

    game = game_row(app, out["game"])
    html = client.get(f"/g/{game.id}").get_data(as_text=True)
    assert "Spectator view" in html
    for charm in game.state["charm"].values():
        assert charm not in html
    assert game.seed not in html and game.seed_hash in html
