"""The one-page rules summary a player reads before playing, in each language."""

from __future__ import annotations

import pytest
from flask import render_template

from app.i18n import player_locale

HEADINGS = {"en": ("the rules on one page", "Control and strength", "Will of the People"),
            "pt": ("as regras numa página", "Controlo e força", "Vontade do Povo"),
            "el": ("οι κανόνες σε μία σελίδα", "Έλεγχος και δύναμη", "Λαϊκή Θέληση")}


@pytest.mark.parametrize("lang", ["en", "pt", "el"])
def test_rules_summary_reads_in_the_players_language(app, lang):
    with app.test_request_context("/"), player_locale(lang):
        html = render_template("games/dual_powers/rules.html", slug="dual_powers")
    for words in HEADINGS[lang]:
        assert words in html
    if lang != "en":
        assert "Control and strength" not in html and "The goal" not in html
    assert "C-RED" not in html and "R01" not in html  # names, not codes
