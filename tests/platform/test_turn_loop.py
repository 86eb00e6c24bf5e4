"""The turn loop as players and GMs meet it: links, forms, deadlines, mails."""

from __future__ import annotations

import json
import time
from datetime import timedelta

from sqlmodel import Session, select

from app.db import get_engine
from app.models import Order, Step, utcnow
from tests.platform.helpers import create_game, csrf_of, game_row, mails, path_of, post_form, step_of


def _orders(app, game_id):
    with Session(get_engine(app)) as s:
        return list(s.exec(select(Order).where(Order.game_id == game_id)).all())


def test_cli_create_prints_links_and_mails_every_seat(app, runner):
    made = create_game(runner)
    assert set(made) >= {"game", "seats"}
    assert [s["seat"] for s in made["seats"]] == ["A", "B"]
    assert [s["email"] for s in made["seats"]] == ["a@example.org", "b@example.org"]
    starts = mails(app, kind="start")
    assert sorted(m.to_addr for m in starts) == ["a@example.org", "b@example.org"]
    assert all("%%ORDER_LINK%%" in m.text for m in starts), "links are filled in only at delivery"


def test_page_shows_own_secret_and_not_the_other_seats(app, client, runner):
    made = create_game(runner)
    a, b = made["seats"]
    state = game_row(app, made["game"]).state
    html = client.get(path_of(a["link"])).get_data(as_text=True)
    assert state["charm"]["A"] in html
    assert state["charm"]["B"] not in html
    assert "Pick a number for round 1" in html


def test_get_and_head_change_nothing(app, client, runner):
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    before = game_row(app, made["game"])
    for _ in range(5):
        assert client.head(link, headers={"User-Agent": "Safe Links"}).status_code == 200
        resp = client.get(link, headers={"User-Agent": "Safe Links"})
        assert resp.headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in resp.headers
    after = game_row(app, made["game"])
    assert (after.step_no, after.all_in, after.state) == (before.step_no, before.all_in, before.state)
    assert _orders(app, made["game"]) == []


def test_illegal_order_rerenders_with_message_and_input_kept(app, client, runner):
    made = create_game(runner)
    link = made["seats"][0]["link"]
    page = client.get(path_of(link)).get_data(as_text=True)
    resp = client.post(path_of(link), data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                            "notation": "PICK 9"})
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert "write PICK 1, PICK 2 or PICK 3" in html
    assert ">PICK 9</textarea>" in html
    resp = post_form(client, link, {"n": "7"})
    assert resp.status_code == 422 and "is not one of the choices" in resp.get_data(as_text=True)
    assert _orders(app, made["game"]) == []


def test_unknown_or_rotated_link_is_refused(app, client, runner):
    made = create_game(runner)
    assert client.get("/p/" + "x" * 43).status_code == 404
    gm = path_of(made["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    resp = client.post(gm, data={"csrf_token": csrf_of(page), "action": "rotate", "seat": "A"})
    assert resp.status_code == 200
    assert client.get(path_of(made["seats"][0]["link"])).status_code == 404
    new = resp.get_data(as_text=True).split("<code>")[1].split("</code>")[0]
    assert new != made["seats"][0]["link"] and client.get(path_of(new)).status_code == 200


def test_post_without_valid_csrf_is_refused_and_changes_nothing(app, client, runner):
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    page = client.get(link).get_data(as_text=True)
    base = {"step_no": step_of(page), "form_index": "0", "n": "2"}
    assert client.post(link, data=base).status_code == 403
    assert client.post(link, data={**base, "csrf_token": "1.abc"}).status_code == 403
    cross = client.post(link, data={**base, "csrf_token": csrf_of(page)}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    assert _orders(app, made["game"]) == []


def test_expired_form_rerenders_with_the_order_kept(app, client, runner, monkeypatch):
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    page = client.get(link).get_data(as_text=True)
    token = csrf_of(page)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 3601)
    resp = client.post(link, data={"csrf_token": token, "step_no": step_of(page), "notation": "PICK 3"})
    assert resp.status_code == 400
    html = resp.get_data(as_text=True)
    assert "open too long" in html and ">PICK 3</textarea>" in html
    assert _orders(app, made["game"]) == []


def test_sealed_orders_resolve_when_all_are_in(app, client, runner):
    made = create_game(runner)
    a, b = made["seats"]
    assert post_form(client, a["link"], {"n": "3"}).status_code == 303
    html_b = client.get(path_of(b["link"])).get_data(as_text=True)
    assert "PICK 3" not in html_b, "A's order must stay sealed from B"
    html_a = client.get(path_of(a["link"])).get_data(as_text=True)
    assert "Your order on file" in html_a and "PICK 3" in html_a
    # a changed mind: the last order counts
    assert post_form(client, a["link"], {"n": "1"}).status_code == 303
    assert game_row(app, made["game"]).step_no == 1
    assert post_form(client, b["link"], {"n": "2"}).status_code == 303
    game = game_row(app, made["game"])
    assert game.step_no == 2 and game.state["score"] == {"A": 0, "B": 2}
    page = client.get(path_of(a["link"])).get_data(as_text=True)
    assert "Round 1: A picked 1, B picked 2." in page


def test_missed_deadline_uses_default_orders(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "2")
    a, _b = made["seats"]
    post_form(client, a["link"], {"n": "3"})
    early = runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=1)).isoformat()])
    assert json.loads(early.output)["steps"] == 0
    late = runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=3)).isoformat()])
    assert json.loads(late.output)["steps"] == 1
    game = game_row(app, made["game"])
    assert game.state["score"] == {"A": 3, "B": 0}
    with Session(get_engine(app)) as s:
        step = s.exec(select(Step).where(Step.game_id == game.id, Step.step_no == 1)).one()
    assert step.defaulted == ["B"] and step.orders["B"] == {"type": "PICK", "n": 1}


def test_overdue_steps_resolve_in_order_after_downtime(app, runner):
    games = [create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", str(h))["game"]
             for h in (3, 1, 2)]
    out = json.loads(runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=5)).isoformat()]).output)
    assert [r["game"] for r in out["resolved"]] == [games[1], games[2], games[0]]
    assert all(game_row(app, g).step_no == 2 for g in games)


def test_bots_fill_seats_and_a_game_runs_to_its_end(app, client, runner):
    made = create_game(runner, "toy", ("solo@example.org",), "--bot")
    assert made["seats"][1]["bot"] is True and made["seats"][1]["link"] is None
    link = made["seats"][0]["link"]
    for _ in range(3):
        assert post_form(client, link, {"n": "3"}).status_code == 303
    game = game_row(app, made["game"])
    assert game.status == "finished"
    html = client.get(path_of(link)).get_data(as_text=True)
    assert "The game is over" in html and game.seed in html
    assert len(mails(app, kind="end")) == 1


def test_late_order_after_resolution_is_refused_clearly(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "1")
    link = path_of(made["seats"][0]["link"])
    page = client.get(link).get_data(as_text=True)
    runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=2)).isoformat()])
    resp = client.post(link, data={"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": "0",
                                   "n": "2"})
    assert resp.status_code == 409
    assert "already resolved" in resp.get_data(as_text=True)
    assert [o.source for o in _orders(app, made["game"])] == ["default", "default"]


def test_resolve_early_can_be_switched_off_per_game(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--option", "resolve_early=false")
    a, b = made["seats"]
    post_form(client, a["link"], {"n": "3"})
    post_form(client, b["link"], {"n": "1"})
    assert game_row(app, made["game"]).step_no == 1, "waits for the deadline"
    assert "resolve_early" not in game_row(app, made["game"]).options
    late = runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=25)).isoformat()])
    assert json.loads(late.output)["steps"] == 1
    assert game_row(app, made["game"]).state["score"] == {"A": 3, "B": 0}
