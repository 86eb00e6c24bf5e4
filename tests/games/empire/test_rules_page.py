"""The one-page rules summary reads in the reader's language."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("flask")

from flask import render_template  # noqa: E402


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Empire: the rules on one page", "A round, turn by turn", "Maintenance: feed your Pop"]),
    ("pt", ["Império: as regras numa página", "Uma ronda, turno a turno", "Manutenção: alimente a População"]),
    ("el", ["Αυτοκρατορία: οι κανόνες σε μία σελίδα", "Ένας γύρος, φάση προς φάση", "Συντήρηση: θρέψτε"]),
])
def test_rules_summary_in_each_language(app, lang, words):
    with app.test_request_context(f"/?lang={lang}"):
        html = render_template("games/empire/rules.html", slug="empire")
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", html, flags=re.S)
    for w in words:
        assert w in text
    assert "rules." not in text and len(re.findall(r"<li>", html)) == 9
    if lang != "en":
        assert "Diplomacy" not in text and "Winning" not in text
