"""A page, a mail and a PDF report in each language; the language follows the player."""

from __future__ import annotations

import io
import re

import pytest
from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.models import OutboxMail, Player
from app.turns import get_or_create_player
from tests.platform.helpers import create_game, path_of

#: words that must appear in each language (page, mail, report)
EXPECT = {
    "en": {"page": "The board", "mail": "Deadline:", "pdf": "What you owe next", "game": "play a card"},
    "pt": {"page": "O tabuleiro", "mail": "Prazo:", "pdf": "O que deve a seguir", "game": "jogue uma carta"},
    "el": {"page": "Το ταμπλό", "mail": "Προθεσμία:", "pdf": "Τι οφείλετε στη συνέχεια", "game": "παίξτε μια κάρτα"},
}
GREEK = re.compile(r"[\u0370-\u03ff]")


def _game_in(app, runner, lang: str) -> dict:
    emails = (f"{lang}1@example.org", f"{lang}2@example.org")
    with app.app_context(), write_session(get_engine()) as session:
        for email in emails:
            player = get_or_create_player(session, email)
            player.language = lang
            player.timezone = "Europe/Athens" if lang == "el" else "Europe/Lisbon"
            session.add(player)
    return create_game(runner, "dual_powers", emails)


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_page_mail_and_pdf_in_the_players_language(app, client, runner, lang):
    made = _game_in(app, runner, lang)
    words = EXPECT[lang]
    page = client.get(path_of(made["seats"][0]["link"])).get_data(as_text=True)
    assert words["page"] in page
    assert f'<html lang="{lang}">' in page
    with app.app_context(), Session(get_engine()) as session:
        mails = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"])).all()
        mail = next(m for m in mails if m.to_addr == made["seats"][0]["email"])
        assert words["mail"] in mail.text or words["mail"] in mail.html or lang == "en"
        if lang == "el":
            assert GREEK.search(mail.subject) and GREEK.search(mail.text)
        from app.mail import build_message

        msg = build_message(session, mail)
        pdf = next(p.get_content() for p in msg.iter_attachments() if p.get_content_type() == "application/pdf")
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    flat = " ".join(text.split())
    assert words["pdf"] in flat
    if lang == "el":
        assert GREEK.search(text)
        assert "Προθεσμία" in flat
    elif lang == "pt":
        assert "Prazo" in flat


def test_english_mail_is_unchanged_by_the_catalogues(app, runner):
    made = _game_in(app, runner, "en")
    with app.app_context(), Session(get_engine()) as session:
        mail = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"])).first()
    assert "Your personal page (do not share it: it shows your secrets and takes your orders):" in mail.text
    assert GREEK.search(mail.text) is None


def test_game_text_on_the_page_follows_the_language(app, client, runner):
    for lang in ("pt", "el"):
        made = _game_in(app, runner, lang)
        html = client.get(path_of(made["seats"][0]["link"])).get_data(as_text=True)
        # the first prompt of Dual Powers: the secret objective (form labels from the engine)
        assert ("Definir este objetivo" if lang == "pt" else "Ορισμός αυτού του στόχου") in html
        # the prompt title comes from the engine too
        assert ("escolha o seu objetivo secreto" if lang == "pt" else "επιλέξτε τον μυστικό σας στόχο") in html


def test_accept_language_chooses_for_other_pages(client):
    assert "Jogos de tabuleiro por correspondência" in client.get(
        "/", headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert "Επιτραπέζια παιχνίδια" in client.get("/", headers={"Accept-Language": "el"}).get_data(as_text=True)
    assert "Board games by correspondence" in client.get(
        "/", headers={"Accept-Language": "de,fr;q=0.8"}).get_data(as_text=True)
    assert "Board games by correspondence" in client.get("/").get_data(as_text=True)


def test_the_player_chooses_the_language_on_the_settings_page(app, client, runner):
    from app.links import prefs_link

    made = create_game(runner, "dual_powers", ("x1@example.org", "x2@example.org"))
    with app.app_context(), Session(get_engine()) as session:
        player = session.exec(select(Player).where(Player.email == "x1@example.org")).first()
        link = prefs_link(player)
    page = client.get(path_of(link)).get_data(as_text=True)
    assert 'name="language"' in page and "Ελληνικά" in page
    # an invitation link with ?lang= pre-selects the language (and shows the page in it)
    invited = client.get(path_of(link) + "?lang=el").get_data(as_text=True)
    assert '<option value="el" selected>' in invited.replace('" selected', '" selected').replace("  ", " ")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post(path_of(link), data={"csrf_token": csrf, "action": "settings", "timezone": "Europe/Athens",
                                            "language": "el", "name": "x1"})
    assert resp.status_code == 303
    with app.app_context(), Session(get_engine()) as session:
        assert session.exec(select(Player).where(Player.email == "x1@example.org")).first().language == "el"
    seat_page = client.get(path_of(made["seats"][0]["link"])).get_data(as_text=True)
    assert "Λαϊκή Θέληση" in seat_page
    bad = client.post(path_of(link), data={"csrf_token": csrf, "action": "settings", "timezone": "UTC",
                                           "language": "xx"})
    assert bad.status_code == 422


def test_dates_are_formatted_for_the_locale_and_zone(app):
    from app.i18n import player_locale
    from app.render_env import local_time

    with app.app_context():
        assert local_time("2026-12-02T16:05:00Z", "Europe/Athens") == "Wed 02 Dec 2026, 18:05 EET"
        with player_locale("pt"):
            assert local_time("2026-12-02T16:05:00Z", "Europe/Lisbon").startswith("qua., 02 dez. 2026, 16:05") or \
                "dez." in local_time("2026-12-02T16:05:00Z", "Europe/Lisbon")
        with player_locale("el"):
            out = local_time("2026-12-02T16:05:00Z", "Europe/Athens")
            assert "Δεκ" in out and "18:05" in out
            assert "2026" in local_time("2026-12-02T16:05:00Z", "Europe/Athens", "long")


def test_an_illegal_order_is_refused_in_the_players_language(app, client, runner):
    from tests.platform.helpers import csrf_of, step_of

    made = _game_in(app, runner, "pt")
    link = path_of(made["seats"][0]["link"])
    page = client.get(link).get_data(as_text=True)
    resp = client.post(link, data={"csrf_token": csrf_of(page), "step_no": step_of(page), "notation": "PLAY X-1"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert 'class="error"' in html
    error = html.split('class="error" role="alert">', 1)[1].split("</div>", 1)[0]
    assert error and "order" not in error.lower().split(), error
