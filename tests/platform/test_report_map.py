"""The report's map page: drawn once per step from the spectator's view, then each seat's own pages."""

from __future__ import annotations

import io
import json
import re

from pypdf import PdfReader

from app import render_pool
from app.mail import deliver_pending
from tests.platform.helpers import path_of


def _create(runner, slug, players, *options):
    args = ["game", "create", slug]
    for email in players:
        args += ["--player", email]
    for option in options:
        args += ["--option", option]
    out = runner.invoke(args=args)
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _pages(message) -> list[str]:
    pdf = next(p for p in message["msg"].iter_attachments() if p.get_content_type() == "application/pdf")
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf.get_content())).pages]


def test_one_map_render_per_step_and_each_seat_keeps_its_own_pages(smtp_app, smtp, runner, monkeypatch):
    smtp_app.config.update(RENDER_WORKERS=2, REPORT_ISOLATE=False)
    parts: list[str] = []
    submit = render_pool.RenderPool._submit

    def spy(self, pool, answers, tag, context, link, part):
        parts.append(part)
        return submit(self, pool, answers, tag, context, link, part)

    monkeypatch.setattr(render_pool.RenderPool, "_submit", spy)
    players = ["ann@example.org", "bob@example.org", "cy@example.org"]
    _create(runner, "conquest", players, "players=3")
    with smtp_app.app_context():
        counts = deliver_pending(smtp_app)
    assert counts["sent"] == 3, counts
    assert sorted(parts) == ["map", "own", "own", "own"], "the map page is rendered once for the three seats"

    by_seat = {}
    for message in smtp.sink.messages:
        pages = _pages(message)
        own = "\n".join(pages[1:])
        seat = " ".join(own.split("turn report for ")[1].split()[:2])  # the game's name for P1: "Commander 1"
        by_seat[seat] = pages
    assert sorted(by_seat) == ["Commander 1", "Commander 2", "Commander 3"]
    for pages in by_seat.values():
        assert f"page 1 of {len(pages)}" in pages[0], "the map page is numbered like the others"
    first_pages = {pages[0] for pages in by_seat.values()}
    assert len(first_pages) == 1, "every seat gets the same map page"
    (map_page,) = first_pages
    assert "the board" in map_page and "page 1" in map_page
    assert "Objective" not in map_page and "turn report for" not in map_page
    for seat, pages in by_seat.items():
        own = "\n".join(pages[1:])
        assert "The map is on page 1." in own
        assert f"page 2 of {len(pages)}" in own, "page numbers count the map page"
        assert "Objective" in own, "the seat's secret objective is on its own pages"
        for other, other_pages in by_seat.items():
            if other != seat:
                # long enough to name the dealt card: two seats may be converted to the same objective
                mine = own.split("Objective")[1][:150]
                assert mine not in "\n".join(other_pages[1:]).replace(f"report for {other}", ""), \
                    "another seat's pages do not show this seat's objective"


def test_a_game_whose_board_shows_a_seats_own_choices_keeps_one_document_per_seat(smtp_app, smtp, runner,
                                                                                  monkeypatch):
    smtp_app.config.update(RENDER_WORKERS=1, REPORT_ISOLATE=False)
    parts: list[str] = []
    submit = render_pool.RenderPool._submit
    monkeypatch.setattr(render_pool.RenderPool, "_submit",
                        lambda self, pool, answers, tag, context, link, part:
                        parts.append(part) or submit(self, pool, answers, tag, context, link, part))
    _create(runner, "duel", ["red@example.org", "blue@example.org"])
    with smtp_app.app_context():
        deliver_pending(smtp_app)
    assert parts == ["whole", "whole"]
    for message in smtp.sink.messages:
        assert "turn report for" in _pages(message)[0]


def test_rendering_in_process_also_draws_the_map_page_once_per_step(smtp_app, smtp, runner, monkeypatch):
    from app import reports

    smtp_app.config.update(RENDER_WORKERS=0, REPORT_ISOLATE=False)
    drawn: list[int] = []
    draw = reports.render_map_html
    monkeypatch.setattr(reports, "render_map_html", lambda ctx: drawn.append(1) or draw(ctx))
    _create(runner, "conquest", ["ann@example.org", "bob@example.org", "cy@example.org"], "players=3")
    with smtp_app.app_context():
        assert deliver_pending(smtp_app)["sent"] == 3
    assert len(drawn) == 1
    assert len({_pages(m)[0] for m in smtp.sink.messages}) == 1


def test_the_map_page_states_its_time_in_each_players_zone(smtp_app, smtp, runner):
    """Every page of a report, the shared map page included, gives times in the player's time zone."""
    from datetime import UTC, datetime

    from sqlmodel import Session, select

    from app.db import get_engine
    from app.models import Player

    smtp_app.config.update(RENDER_WORKERS=0)
    players = ["ann@example.org", "bob@example.org"]
    with smtp_app.app_context():
        made = _create(runner, "dual_powers", players)
        with Session(get_engine()) as s:
            for email, zone in zip(players, ("Asia/Tokyo", "America/New_York"), strict=True):
                player = s.exec(select(Player).where(Player.email == email)).one()
                player.timezone = zone
                s.add(player)
            s.commit()
        deliver_pending(smtp_app)
        smtp.sink.messages.clear()
        ticked = runner.invoke(args=["tick", "--now", "2099-01-01T00:00:00"])
        assert ticked.exit_code == 0, ticked.output
        deliver_pending(smtp_app, now=datetime(2099, 1, 1, 0, 5, tzinfo=UTC))
    assert made["game"]
    by_addr = {m["to"][0]: m for m in smtp.sink.messages if _has_pdf(m)}
    assert len(by_addr) == 2, [(m["to"], m["msg"]["Subject"]) for m in smtp.sink.messages]
    tokyo, new_york = _pages(by_addr["ann@example.org"])[0], _pages(by_addr["bob@example.org"])[0]
    assert re.search(r"\d\d:\d\d JST", tokyo) and not re.search(r"\d\d:\d\d EST", tokyo)
    assert re.search(r"\d\d:\d\d EST", new_york) and not re.search(r"\d\d:\d\d JST", new_york)


def _has_pdf(message) -> bool:
    return any(p.get_content_type() == "application/pdf" for p in message["msg"].iter_attachments())


def test_a_report_opened_from_the_page_reads_in_the_language_the_player_has_now(app, client, runner):
    """A report made while the player read Portuguese opens in Greek once they switch (``?lang=el``)."""
    app.config.update(RENDER_WORKERS=0)
    made = _create(runner, "toy", ["ana@example.org", "bea@example.org"])
    link = path_of(made["seats"][0]["link"])
    client.get(f"{link}?lang=pt")  # the report is made while the player reads Portuguese
    runner.invoke(args=["tick", "--now", "2099-01-01T00:00:00"])

    def first_page(lang: str) -> str:
        client.get(f"{link}?lang={lang}")  # the seat page stores the choice
        resp = client.get(f"{link}/report.pdf")
        assert resp.status_code == 200 and resp.mimetype == "application/pdf"
        return PdfReader(io.BytesIO(resp.data)).pages[0].extract_text()

    portuguese, greek = first_page("pt"), first_page("el")
    assert not re.search("[α-ω]{4,}", portuguese), portuguese[:300]
    assert re.search("[α-ω]{4,}", greek), greek[:300]
