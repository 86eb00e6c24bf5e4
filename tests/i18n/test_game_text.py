"""Game text is message ids; the platform's own refusals are gettext messages too.

Each game's catalogue is tested in ``tests/i18n/test_<slug>_text.py``; this file holds what
is common: the engines stay free of I/O and translation libraries, and the platform's
refusals (GM pages, leagues, absences, the order page) read in the reader's language.
"""

from __future__ import annotations

import ast
import os
import re

import pytest

from app.i18n import gametext
from app.i18n.terms import N_
from app.notices import Refusal, reason, seat_name
from app.turns.control import Refused


def test_engines_do_not_import_flask_or_babel():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "app", "games")
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                for node in ast.walk(tree):
                    mods = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                        [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                    for mod in mods:
                        assert mod.split(".")[0] not in ("flask", "flask_babel", "babel"), f"{name} imports {mod}"


@pytest.mark.parametrize(("exc", "en", "pt", "el"), [
    (Refusal(N_("The absence must end after it starts.")), "The absence must end after it starts.",
     "A ausência tem de terminar depois de começar.", "Η απουσία πρέπει να τελειώνει μετά την αρχή της."),
    (Refusal(N_("That would be more than {limit} days away in {year}."), limit=30, year=2027),
     "That would be more than 30 days away in 2027.", "Isso seriam mais de 30 dias de ausência em 2027.",
     "Αυτό θα ήταν πάνω από 30 ημέρες απουσίας το 2027."),
    (Refused(N_("GM extensions are capped: {hours:g} hours left in this game."), hours=12.0),
     "GM extensions are capped: 12 hours left in this game.",
     "Os prolongamentos do GM têm limite: restam 12 horas neste jogo.",
     "Οι παρατάσεις του GM έχουν όριο: απομένουν 12 ώρες σε αυτό το παιχνίδι."),
])
def test_platform_refusals_read_in_the_readers_language(exc, en, pt, el):
    assert str(exc) == en
    assert gametext.render("", reason(exc), "pt") == pt
    assert gametext.render("", reason(exc), "el") == el


def test_a_refusal_names_a_seat_as_the_game_does():
    exc = Refused(N_("No mail to {seat} yet."), seat=seat_name("SOV"))
    assert str(exc) == "No mail to SOV yet."  # the platform's own English (logs) knows no game
    assert gametext.render("dual_powers", reason(exc), "en") == "No mail to Soviet yet."
    assert re.search(r"[\u0370-\u03ff]", gametext.render("dual_powers", reason(exc), "el"))


def test_a_plain_error_is_shown_as_it_is():
    assert reason(ValueError("unknown game 'x'")) == "unknown game 'x'"


def test_a_bad_option_reads_in_the_gms_language(app, client):
    """The GM page's refusal of an option names the allowed values, in the GM's language."""
    from app.games import get_rules

    with pytest.raises(ValueError) as caught:
        get_rules("conquest").check_options({"round_limit": 8})
    assert str(caught.value) == "round_limit must be one of 0, 30, 50, 80, not 8"
    assert gametext.render("", reason(caught.value), "pt") == "round_limit tem de ser um de 0, 30, 50, 80, não 8"
    page = client.post("/gm/new", data={"slug": "conquest", "players": "a@example.org\nb@example.org",
                                        "options": '{"round_limit": 8}'}, headers={"Accept-Language": "el"})
    assert page.status_code == 200
    assert "πρέπει να είναι ένα από τα 0, 30, 50, 80" in page.get_data(as_text=True)


def test_unknown_message_ids_from_requests_neither_grow_memory_nor_flood_the_log(caplog):
    gametext.MISSING.clear()
    for i in range(gametext.MAX_MISSING + 500):
        gametext.render("", {"msg": f"seat.{i}{'x' * 5000}"}, "en")
    assert len(gametext.MISSING) == gametext.MAX_MISSING
    assert all(len(msg_id) <= 80 for _slug, msg_id in gametext.MISSING)
    assert len(caplog.records) <= gametext.MAX_MISSING
    gametext.MISSING.clear()
