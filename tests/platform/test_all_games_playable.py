"""Every registered game is playable end to end: link, form or notation, resolution, mail, PDF."""

from __future__ import annotations

import io
import json
from html import unescape as html_unescape

import pytest
from pypdf import PdfReader
from sqlmodel import Session, select

from app.db import get_engine
from app.games import all_games, get_rules
from app.games.base import step_rng
from app.i18n import gametext
from app.mail import build_message
from app.models import OutboxMail
from app.notify import seat_message
from tests.platform.helpers import csrf_of, game_row, path_of, step_of

REAL = sorted(slug for slug in all_games() if slug != "toy")


@pytest.mark.parametrize("slug", REAL)
def test_game_plays_through_the_web_and_mails_a_readable_report(app, client, runner, slug):
    made = json.loads(runner.invoke(args=["game", "create", slug, "--player", "human@example.org", "--bot"]).output)
    me = next(s for s in made["seats"] if s["email"] == "human@example.org")
    rules = get_rules(slug)
    page = client.get(path_of(me["link"]))
    assert page.status_code == 200
    assert rules.title in html_unescape(page.get_data(as_text=True))
    sent = 0
    for _ in range(12):
        game = game_row(app, made["game"])
        if game.status != "running" or me["seat"] not in game.owed:
            break
        html = client.get(path_of(me["link"])).get_data(as_text=True)
        order = rules.random_order(game.state, me["seat"], step_rng("web", game.step_no, me["seat"]))
        resp = client.post(path_of(me["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                      "notation": rules.format(order)})
        assert resp.status_code == 303, resp.get_data(as_text=True)[:3000]
        sent += 1
    assert sent >= 1
    assert game_row(app, made["game"]).step_no > 1
    with app.app_context(), Session(get_engine(app)) as s:
        mails = s.exec(select(OutboxMail).where(OutboxMail.to_addr == "human@example.org")
                       .order_by(OutboxMail.id.desc())).all()
        assert mails
        msg = build_message(s, mails[0])
    pdf = next(p for p in msg.iter_attachments() if p.get_content_type() == "application/pdf").get_content()
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    label = gametext.render(slug, seat_message(rules, game_row(app, made["game"]).state, me["seat"]), "en")
    assert f"turn report for {label}" in " ".join(text.split())  # as the board names it (Empire: its colour)
    assert "What you owe next" in text
