"""The empire game through the web platform: page, form, report (a smoke test)."""

from __future__ import annotations

import pytest

pytest.importorskip("flask")

from tests.platform.helpers import create_game, game_row, path_of, post_form  # noqa: E402


def test_two_players_submit_proposals_and_admin_forms(app, client, runner):
    made = create_game(runner, "empire", ("a@example.org", "b@example.org"), "--option", "players=2")
    colour = game_row(app, made["game"]).state["colour"]  # seats are drawn: a is Blue, b Yellow
    a, b = sorted(made["seats"], key=lambda s: colour[s["seat"]] != "BLUE")
    page = client.get(path_of(a["link"]))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Diplomacy: your proposals" in html and "1 Bluehold" in html
    assert post_form(client, a["link"], {"offer1_give": "1 FOOD", "offer1_get": "WOOD"}).status_code == 303
    assert post_form(client, b["link"], {}).status_code == 303
    # B's open offer window: answer it, then both reach turn 4
    page = client.get(path_of(b["link"])).get_data(as_text=True)
    assert "Diplomacy: your answers" in page
    assert post_form(client, b["link"], {"answer_B-O1": "ACCEPT OFFER B-O1"}).status_code == 303
    page = client.get(path_of(a["link"])).get_data(as_text=True)
    assert "Administration and strategy" in page and "move_B-S1" in page
    r = post_form(client, a["link"], {"move_B-S1": "MOVE B-S1 2", "mode_B-S1": "MODE B-S1 CONQUEST"})
    assert r.status_code == 303
    bad = post_form(client, b["link"], {"notation": "ADMIN: MOVE Y-S1 1"})
    reason = "Move: Yellow troop 1 to 1 (Bluehold): 1 (Bluehold) is not adjacent to 12 (Yellowhold)"
    assert bad.status_code == 422 and reason in bad.get_data(as_text=True)  # the reason, not its code
    assert game_row(app, made["game"]).notified_key == "R1-T4"  # the rejected set resolved nothing
    assert post_form(client, b["link"], {"move_Y-S1": "MOVE Y-S1 11"}).status_code == 303
    page = client.get(path_of(b["link"])).get_data(as_text=True)
    assert "Population routing" in page
