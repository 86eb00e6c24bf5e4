"""The one-page rules summary of WW2 Conquest, read in each language before playing."""

from __future__ import annotations

import re

import pytest

from tests.games.jinja_env import app_env


def _render(lang: str) -> str:
    from flask_babel import force_locale

    app = app_env()._app  # noqa: SLF001 (the application behind the test templates)
    with app.app_context(), app.test_request_context(), force_locale(lang):
        return app.jinja_env.get_template("games/conquest/rules.html").render(slug="conquest")


@pytest.mark.parametrize(("lang", "heading", "words"), [
    ("en", "WW2 Conquest in one page", ["Mobilisation", "joker", "ties go to the defender"]),
    ("pt", "WW2 Conquest numa página", ["Mobilização", "jóquer", "os empates favorecem o defensor"]),
    ("el", "Το WW2 Conquest σε μία σελίδα", ["Επιστράτευση", "μπαλαντέρ", "οι ισοπαλίες ευνοούν τον αμυνόμενο"]),
])
def test_the_rules_summary_reads_in_the_readers_language(lang, heading, words):
    html = _render(lang)
    assert f"<h2>{heading}</h2>" in html
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(style|code)\b.*?</\1>", " ", html, flags=re.S))
    for word in words:
        assert word in text
    if lang == "el":  # Greek throughout, but for the game's name and the notation examples
        assert not [w for w in re.findall(r"\b[A-Za-z]{3,}\b", text) if w not in ("WW2", "Conquest")]
    # the notation examples are the same in every language
    assert "<code>ATTACK Egypt Libya REPEAT=CONQUER</code>" in html
