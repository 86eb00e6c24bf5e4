"""End to end on a real game: mail from a real SMTP server, link, orders, PDF report."""

from __future__ import annotations

import io
import json
import re

from pypdf import PdfReader

from app.games import get_rules
from app.games.base import step_rng
from app.games.text import name
from tests.platform.helpers import csrf_of, game_row, path_of, step_of

LINK = re.compile(r"https://pbem\.example\.org/p/[A-Za-z0-9_-]{43}")


def _deliver(runner):
    out = runner.invoke(args=["mail", "deliver"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _pdf_text(msg) -> str:
    parts = [p for p in msg.iter_attachments() if p.get_content_type() == "application/pdf"]
    assert len(parts) == 1, "every turn mail carries one PDF report"
    reader = PdfReader(io.BytesIO(parts[0].get_content()))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_dual_powers_from_mail_to_pdf(smtp_app, smtp, client, runner):
    app = smtp_app
    made = json.loads(runner.invoke(args=["game", "create", "dual_powers", "--player", "sov@example.org",
                                          "--player", "gov@example.org", "--hours", "24"]).output)
    assert _deliver(runner)["sent"] == 2
    inbox = {m["to"][0]: m["msg"] for m in smtp.sink.messages}
    assert set(inbox) == {"sov@example.org", "gov@example.org"}
    links = {}
    for addr, msg in inbox.items():
        body = msg.get_body(("plain",)).get_content()
        found = LINK.findall(body)
        assert found, body
        links[addr] = found[0]
        assert msg["Message-ID"].startswith(f"<g{made['game']}.")
        assert "%%ORDER_LINK%%" not in body
        assert "Revolution" in _pdf_text(msg)
    assert links["sov@example.org"] == made["seats"][0]["link"]

    rules = get_rules("dual_powers")
    seat_of = {"sov@example.org": "SOV", "gov@example.org": "GOV"}
    first_key = game_row(app, made["game"]).turn_key
    for _ in range(6):  # play until the turn changes and reports go out
        game = game_row(app, made["game"])
        if game.turn_key != first_key:
            break
        for addr, seat in seat_of.items():
            if seat not in game.owed:
                continue
            page = client.get(path_of(links[addr]))
            assert page.status_code == 200
            html = page.get_data(as_text=True)
            order = rules.random_order(game.state, seat, step_rng("e2e", game.step_no, seat))
            resp = client.post(path_of(links[addr]), data={
                "csrf_token": csrf_of(html), "step_no": step_of(html), "notation": rules.format(order)})
            assert resp.status_code == 303, resp.get_data(as_text=True)[:2000]
    game = game_row(app, made["game"])
    assert game.turn_key != first_key and game.step_no > 1
    smtp.sink.messages.clear()
    assert _deliver(runner)["sent"] >= 2
    reports = {m["to"][0]: m["msg"] for m in smtp.sink.messages}
    for addr, seat in seat_of.items():
        msg = reports[addr]
        assert msg["In-Reply-To"] == f"<g{made['game']}.{seat}@pbem.example.org>"
        text = _pdf_text(msg)
        assert f"turn report for {get_rules('dual_powers').text.english(name('seat', seat))}" in " ".join(text.split())
        assert "What happened since your last report" in text
        assert game.seed_hash[:16] in text.replace("\n", "")
