"""The turn report (PDF) of a played game: the commanders table keeps its words whole and the log
names commanders as the rest of the report does, in English, Portuguese and Greek."""

from __future__ import annotations

import io
import re

import pytest
from flask_babel import gettext
from pypdf import PdfReader
from sqlmodel import Session, select

from app.db import get_engine
from app.games import driver
from app.games.conquest import RULES, data
from app.i18n import player_locale
from app.models import Report
from app.reports import render_pdf
from tests.games.conquest.formpage import made

#: the commanders table's headings (the platform's catalogue) and a word of its cells
HEADINGS = ("Commander", "Kind", "Status", "Territories", "Armies", "Cards", "Whole theatres", "human")
COMMANDER = {"en": "Commander", "pt": "Comandante", "el": "Διοικητής"}


@pytest.fixture
def context(app, runner):
    """A six-commander game's report context, its view and log taken from a game played 300 steps
    on, in which the viewer plays as a human and one commander holds three whole theatres."""
    out = runner.invoke(args=["game", "create", "conquest", "--player", "ana@example.org",
                              "--option", "players=6", "--option", "ai_seats=5"])
    assert out.exit_code == 0, out.output
    with app.app_context(), Session(get_engine(app)) as s:
        report = s.exec(select(Report).where(Report.game_id == made(out.output)["game"])).first()
        assert report is not None
        base = dict(report.context)
    game = driver.start(RULES, {"players": 6, "round_limit": 20}, "report")
    log = []
    while len(game.steps) < 300 and RULES.outcome(game.state) is None:
        turn, step = RULES.turn_key(game.state), len(game.steps) + 1
        events = driver.advance(RULES, game, driver.random_orders(RULES, game))
        log += [{"step": step, "turn": turn, "text": e["text"]} for e in events if not e.get("to")]
    for h in ("AME", "CBI", "PAC"):
        for t in data.IN_THEATRE[h]:
            game.state["owner"][t] = "P3"
    game.state["kind"]["P1"] = "human"
    return dict(base, view=RULES.view(game.state, "P1"), seat="P1", events=log[-40:])


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_the_commanders_table_and_the_log_of_the_report(app, context, lang):
    context["player"] = {**(context.get("player") or {}), "language": lang}
    with app.app_context(), app.test_request_context(), player_locale(lang):
        pdf = render_pdf(context, "https://pbem.example.org/p/x")
        headings = [gettext(h) for h in HEADINGS]
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    lines = text.splitlines()
    # every word of the headings stands whole on a line: no "Εδάφ / η", no "Κατάστα-ση"
    for word in {w for h in headings for w in h.split()}:
        assert any(word in line.split() for line in lines), f"{word!r} is split in the report"
    # the log names commanders as the header and the table do
    assert f"{COMMANDER[lang]} 3" in text and not re.search(r"\bP\d\b", text)
