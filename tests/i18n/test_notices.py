"""The platform's own notices (missed deadlines, GM actions) read in the player's language."""

from __future__ import annotations

from datetime import UTC, datetime

from app.i18n.gametext import render
from app.i18n.terms import N_
from app.notices import notice, seat_name

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def test_a_missed_deadline_notice_in_each_language() -> None:
    ev = notice("conquest", 1, 4, NOW, N_("{seat} missed {n} deadlines in a row: auto-command plays the seat "
                                         "until its player sends an order again."), seat=seat_name("RED"), n=3)
    assert ev.seq == -1 and ev.to is None
    assert ev.text.endswith("missed 3 deadlines in a row: auto-command plays the seat until its player sends an "
                            "order again.")
    pt = render("conquest", ev.data["msg"], "pt")
    el = render("conquest", ev.data["msg"], "el")
    assert "falhou 3 prazos seguidos" in pt and "missed" not in pt
    assert "έχασε 3 προθεσμίες" in el and "missed" not in el


def test_a_gm_extension_keeps_its_number_format() -> None:
    ev = notice("duel", 1, 1, NOW, N_("The GM extended the deadline by {hours:g} hours."), hours=12.0)
    assert ev.text == "The GM extended the deadline by 12 hours."
    assert render("duel", ev.data["msg"], "pt") == "O GM prolongou o prazo em 12 horas."


def test_a_notice_without_a_translation_reads_in_english() -> None:
    message = {"platform": "Something new happened to {seat}.", "args": {"seat": seat_name("RED")}}
    assert render("conquest", message, "el").startswith("Something new happened to ")
