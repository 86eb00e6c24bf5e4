"""The demo of the README's first command: games with bots, the local mailbox, an order, a report."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader
from sqlmodel import Session, select

from app.db import get_engine
from app.games import get_rules
from app.games.base import step_rng
from app.models import Game, OutboxMail
from tests.platform.helpers import csrf_of, path_of


def test_demo_games_mailbox_order_and_report(app, client, runner):
    app.config.update(DEV_MAILBOX=True, MAIL_SERVER="", REPORT_ISOLATE=False)
    out = runner.invoke(args=["demo", "--email", "me@example.org"])
    assert out.exit_code == 0, out.output
    assert "/dev/mailbox" in out.output
    for title in ("Dual Powers", "WW2 Conquest", "Dorfromantik", "Empire"):
        assert title in out.output, title
    links = dict(re.findall(r"^(.+?): game #\d+, you play \w+: (\S+)$", out.output, re.M))

    box = client.get("/dev/mailbox")
    assert box.status_code == 200
    with Session(get_engine(app)) as s:
        invitations = s.exec(select(OutboxMail).where(OutboxMail.to_addr == "me@example.org")).all()
    assert len(invitations) >= len(links) >= 5, "an invitation per demo game, all to the visitor"

    # the visitor opens the two-player Dual Powers game from its link and sends an order
    label, link = next((k, v) for k, v in links.items() if k.startswith("Dual Powers") and "solo" not in k)
    page = client.get(path_of(link))
    assert page.status_code == 200
    with Session(get_engine(app)) as s:
        game_id = int(re.search(r"game #(\d+)", next(line for line in out.output.splitlines()
                                                      if line.startswith(label + ":"))).group(1))
        game = s.get(Game, game_id)
        seat = next(iter(game.owed))
        rules = get_rules(game.slug)
        notation = rules.format(rules.random_order(game.state, seat, step_rng("demo", 1, seat)))
        step_before = game.step_no
    sent = client.post(path_of(link), data={"csrf_token": csrf_of(page.get_data(as_text=True)),
                                            "step_no": str(step_before), "notation": notation})
    assert sent.status_code == 303, sent.get_data(as_text=True)[:500]
    with Session(get_engine(app)) as s:
        assert s.get(Game, game_id).step_no > step_before, "the bot had answered: the step resolved at once"
        turn_mail = s.exec(select(OutboxMail).where(OutboxMail.game_id == game_id,
                                                    OutboxMail.to_addr == "me@example.org",
                                                    OutboxMail.report_id.is_not(None))  # type: ignore[union-attr]
                           .order_by(OutboxMail.id.desc())).first()
    assert turn_mail is not None
    assert client.get(f"/dev/mailbox/{turn_mail.id}").status_code == 200
    pdf = client.get(f"/dev/mailbox/{turn_mail.id}/report.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "turn report for" in text and "the board" in text


def test_links_follow_the_port_served_unless_a_base_url_is_configured(app):
    from app.cli import DEFAULT_BASE_URL, follow_port

    app.config["BASE_URL"] = DEFAULT_BASE_URL  # nothing configured: the embedded server's default
    follow_port(app, "0.0.0.0", 5101)  # noqa: S104 (an argument, nothing is bound)
    assert app.config["BASE_URL"] == "http://127.0.0.1:5101", "a demo on --port 5101 mails links to 5101"
    app.config["BASE_URL"] = "https://pbem.example.org"
    follow_port(app, "127.0.0.1", 5101)
    assert app.config["BASE_URL"] == "https://pbem.example.org", "a configured address is kept"
