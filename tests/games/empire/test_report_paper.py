"""Empire's PDF report on paper, in Greek and Portuguese (the longest words): every word inside the
page, and no two words drawn over each other (a map label running into another, a table cut at the
page's edge)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

pytest.importorskip("flask")

from sqlmodel import Session, select  # noqa: E402

from app.db import get_engine, write_session  # noqa: E402
from app.mail import build_message  # noqa: E402
from app.models import Game, OutboxMail  # noqa: E402
from app.turns import get_or_create_player  # noqa: E402
from tests.games.empire.forms_kit import legal_values  # noqa: E402
from tests.platform.helpers import create_game, post_form  # noqa: E402

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)")

WORD = re.compile(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<')


def _pages(pdf: bytes) -> list[tuple[float, float, list[tuple[float, float, float, float, str]]]]:
    html = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return [(float(w), float(h), [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in WORD.findall(body)])
            for w, h, body in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S)]


def _report(app, client, runner, lang: str) -> bytes:
    emails = tuple(f"{lang}{i}@example.org" for i in range(1, 5))
    with app.app_context(), write_session(get_engine(app)) as session:
        for email in emails:
            get_or_create_player(session, email).language = lang
    made = create_game(runner, "empire", emails, "--option", "players=4")
    for _ in range(3):  # proposals, answers, administration: troops, buildings and pacts on the map
        with Session(get_engine(app)) as s:
            owed = s.get(Game, made["game"]).owed
        for seat, prompt in owed.items():
            link = made["seats"][int(seat[1:]) - 1]["link"]
            assert post_form(client, link, legal_values(prompt["forms"][0])).status_code == 303
    with app.app_context(), Session(get_engine(app)) as session:
        mail = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"],
                                                     OutboxMail.to_addr == emails[0])
                            .order_by(OutboxMail.id.desc())).first()
        message = build_message(session, mail)
    return next(p.get_content() for p in message.iter_attachments() if p.get_content_type() == "application/pdf")


@pytest.mark.parametrize("lang", ["el", "pt"])
def test_no_word_of_the_report_is_cut_or_drawn_over_another(app, client, runner, lang):
    pages = _pages(_report(app, client, runner, lang))
    assert len(pages) >= 2 and sum(len(words) for _, _, words in pages) > 300
    for n, (width, height, words) in enumerate(pages, 1):
        outside = [t for a, b, c, d, t in words if a < 0 or b < 0 or c > width or d > height]
        assert not outside, (lang, n, outside[:10])
        over = [(t, t2) for i, (a, b, c, d, t) in enumerate(words) for a2, b2, c2, d2, t2 in words[i + 1:]
                if min(c, c2) - max(a, a2) > 1 and min(d, d2) - max(b, b2) > 1.5]
        assert not over, (lang, n, over[:10])
    on_map = " ".join(t for _, _, _, _, t in pages[0][2])
    assert {"el": "Λατομείο", "pt": "Pedreira"}[lang] in on_map  # the map's names, in the reader's language
