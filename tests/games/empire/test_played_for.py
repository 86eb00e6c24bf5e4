"""What was played for an Empire seat (a default order at a missed deadline, auto-command, a bot)
is told in words in the player's language (en, pt, el): in the log, the mail and the PDF report."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import timedelta

import pytest

pytest.importorskip("flask")

from sqlmodel import Session, select  # noqa: E402

from app.db import get_engine, write_session  # noqa: E402
from app.games.empire import RULES  # noqa: E402
from app.i18n.gametext import render  # noqa: E402
from app.mail import build_message  # noqa: E402
from app.models import OutboxMail, utcnow  # noqa: E402
from app.notices import order_words  # noqa: E402
from app.turns import get_or_create_player  # noqa: E402
from tests.platform.helpers import create_game, path_of  # noqa: E402

ADMIN = "ADMIN: MARKET BUY WOOD 1; BUILD INF 2; MOVE B-S1 2; MODE B-S1 ATTACK TARGET YELLOW"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Buying 2 Wood for 1 Gold · Build: Infrastructure in 2 (Westwood) · Move: Blue troop 1 to 2 (Westwood)"),
    ("pt", "Comprar 2 de Madeira por 1 de Ouro · Construção: Infraestrutura em 2 (Bosque Ocidental)"),
    ("el", "Αγορά 2 Ξύλο με 1 Χρυσό · Κατασκευή: Υποδομή στο 2 (Δυτικό Δάσος)"),
])
def test_a_bots_order_is_told_line_by_line_in_words(lang, said):
    order = RULES.parse(ADMIN)
    words = render("empire", order_words(None, order, RULES.format(order), RULES), lang)
    assert said in words, words
    assert not re.search(r"\b(MARKET|BUILD|MOVE|MODE|ATTACK|TARGET)\b", words), words


@pytest.mark.parametrize(("kind", "lang", "said"), [
    ("PROPOSE", "en", "no offers and no pact"),
    ("ANSWER", "pt", "nenhuma resposta: cada oferta e pacto em aberto conta como recusado"),
    ("ROUTE", "el", "χωρίς δρομολόγηση: ο πληθυσμός μένει"),
])
def test_an_empty_default_says_what_it_means(kind, lang, said):
    order = {"type": kind, "lines": []}
    assert render("empire", order_words(None, order, RULES.format(order), RULES), lang) == said


def _pdf_text(data: bytes) -> str | None:
    if not shutil.which("pdftotext"):
        return None
    return subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


TOLD = {"en": "Played for you: no offers and no pact",
        "pt": "Jogado por si: nenhuma oferta e nenhum pacto",
        "el": "Παίχτηκε για εσάς: καμία προσφορά και κανένα σύμφωνο"}


def test_a_missed_deadline_is_told_in_words_in_the_log_the_mail_and_the_pdf(app, client, runner):
    emails = ("en@example.org", "pt@example.org", "el@example.org")
    with app.app_context(), write_session(get_engine(app)) as session:
        for email in emails:
            get_or_create_player(session, email).language = email[:2]
    made = create_game(runner, "empire", emails, "--option", "players=3", "--hours", "2")
    runner.invoke(args=["tick", "--now", (utcnow() + timedelta(hours=30)).isoformat()])
    for email, seat in zip(emails, made["seats"], strict=True):
        lang = email[:2]
        page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(path_of(seat["link"])).get_data(as_text=True)))
        assert TOLD[lang] in page, (lang, page[page.find("log"):][:1500])
        assert "PROPOSE" not in page.split('id="log"')[-1]
        with app.app_context(), Session(get_engine(app)) as session:
            mail = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"],
                                                         OutboxMail.to_addr == email)
                                .order_by(OutboxMail.id.desc())).first()
            assert mail is not None and TOLD[lang] in mail.text, (lang, mail and mail.text)
            message = build_message(session, mail)
        pdfs = [p.get_content() for p in message.iter_attachments() if p.get_content_type() == "application/pdf"]
        text = _pdf_text(pdfs[0]) if pdfs else None
        if text is not None:
            assert TOLD[lang] in re.sub(r"\s+", " ", text), (lang, text[:2000])
