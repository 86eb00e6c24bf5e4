"""The player's home (/me/<token>): every game, what is owed and by when, unread press, the latest report."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.links import prefs_link
from app.models import Game, Player
from tests.platform.helpers import csrf_of, path_of
from tests.press.helpers import create, links, page, write


def _home(app, email):
    with app.app_context(), Session(get_engine(app)) as s:
        return path_of(prefs_link(s.exec(select(Player).where(Player.email == email)).one()))


def test_home_lists_every_game_soonest_decision_first_with_unread_press_and_reports(app, client, runner):
    late = create(runner)  # a@ owes here, deadline later
    done = create(runner)  # a@ has ordered here
    soon = create(runner)  # a@ owes here, deadline sooner
    with write_session(get_engine(app)) as s:
        for made, hours in ((late, 48), (done, 1), (soon, 5)):
            game = s.get(Game, made["game"])
            game.deadline = game.deadline.replace(microsecond=0) - timedelta(hours=24) + timedelta(hours=hours)
            s.add(game)
    html = page(client, links(done)["A"])
    client.post(links(done)["A"], data={"csrf_token": csrf_of(html), "step_no": "1", "form_index": "0", "n": "2"})
    write(client, links(soon)["B"], "hello A", to=["A"])
    write(client, links(soon)["C"], "hello all")
    home = client.get(_home(app, "a@example.org"))
    assert home.status_code == 200
    body = home.get_data(as_text=True)
    rows = re.findall(r'<li class="home-game( owes)?">(.*?)</li>', body, re.S)
    order = [int(re.search(r"#(\d+)</strong>", r[1]).group(1)) for r in rows]
    assert order == [soon["game"], late["game"], done["game"]], "owed first, soonest deadline first"
    assert [bool(r[0]) for r in rows] == [True, True, False]
    assert "Pick a number for round 1" in rows[0][1] and "your order is on file" in rows[2][1]
    assert "2 unread" in rows[0][1] and "unread" not in rows[1][1]
    for made, (_owes, row) in zip((soon, late, done), rows, strict=True):
        link = links(made)["A"]
        assert f'href="https://pbem.example.org{link}"' in row or f'href="{link}"' in row.replace(
            "https://pbem.example.org", "")
        assert "report.pdf" in row
    assert "hello A" not in body, "the home counts press; it is read on the seat page"


def test_every_seat_page_links_to_the_players_home(app, client, runner):
    made = create(runner)
    html = page(client, links(made)["B"])
    home = _home(app, "b@example.org")
    assert f'href="{home}#games"' in html
    assert _home(app, "a@example.org") not in html
    assert client.get(home).status_code == 200
