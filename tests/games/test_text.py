"""Game text as message ids: English written once, any language through gettext functions."""

from __future__ import annotations

import pytest

from app.games.base import IllegalOrder, InvalidOrder
from app.games.text import TN, Catalogue, T, listing, msg, name

CAT = Catalogue("toy", [
    T("not_adjacent", "{a} and {b} are not neighbours."),
    TN("armies", "{n} army", "{n} armies"),
    T("lost", "Lost {what}."),
    T("territory.MOS", "Moscow"),
    T("territory.KIE", "Kiev"),
])

PT = {
    "not_adjacent": "{a} e {b} não são vizinhos.",
    "territory.MOS": "Moscovo",
    "territory.KIE": "Kiev",
    "lost": "Perdeu {what}.",
}


def pt_gettext(ctx: str, english: str) -> str:
    return PT.get(ctx, english)


def pt_ngettext(ctx: str, one: str, many: str, n: int) -> str:
    assert ctx == "armies"
    return "{n} exército" if n == 1 else "{n} exércitos"


def pt_join(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " e " + items[-1] if len(items) > 1 else "".join(items)


def test_refusal_reads_english_and_carries_its_message() -> None:
    exc = CAT.refuse("not_adjacent", a=name("territory", "MOS"), b=name("territory", "KIE"))
    assert isinstance(exc, IllegalOrder) and isinstance(exc, ValueError)
    assert str(exc) == "Moscow and Kiev are not neighbours."
    assert exc.message == {"msg": "not_adjacent",
                           "args": {"a": {"msg": "territory.MOS"}, "b": {"msg": "territory.KIE"}}}
    assert isinstance(CAT.unreadable("lost", what="x"), InvalidOrder)
    assert IllegalOrder("plain").message == "plain"


def test_translated_with_names_from_the_glossary() -> None:
    m = msg("not_adjacent", a=name("territory", "MOS"), b=name("territory", "KIE"))
    assert CAT.render(m, pt_gettext, pt_ngettext, pt_join) == "Moscovo e Kiev não são vizinhos."


@pytest.mark.parametrize(("n", "en", "pt"), [(1, "1 army", "1 exército"), (2, "2 armies", "2 exércitos"),
                                              (0, "0 armies", "0 exércitos")])
def test_plural_forms(n: int, en: str, pt: str) -> None:
    assert CAT.english(msg("armies", n=n)) == en
    assert CAT.render(msg("armies", n=n), pt_gettext, pt_ngettext, pt_join) == pt


def test_lists_join_as_the_language_does() -> None:
    m = msg("lost", what=listing([msg("armies", n=2), name("territory", "MOS"), name("territory", "KIE")]))
    assert CAT.english(m) == "Lost 2 armies, Moscow and Kiev."
    assert CAT.render(m, pt_gettext, pt_ngettext, pt_join) == "Perdeu 2 exércitos, Moscovo e Kiev."


def test_a_broken_translation_falls_back_to_english_for_that_message_only() -> None:
    def broken(ctx: str, english: str) -> str:
        return "{c} e {b} não" if ctx == "not_adjacent" else PT.get(ctx, english)

    m = msg("not_adjacent", a=name("territory", "MOS"), b=name("territory", "KIE"))
    assert CAT.render(m, broken, pt_ngettext, pt_join) == "Moscovo and Kiev are not neighbours."


def test_an_unknown_id_is_reported_and_never_shown() -> None:
    seen: list[str] = []
    out = CAT.render(msg("no.such.id", where=name("territory", "MOS")), missing=seen.append)
    assert seen == ["no.such.id"]
    assert "no.such.id" not in out and out == "Moscow"
    assert CAT.render(name("seat", "RED"), missing=seen.append) == "RED"  # a name missing from the glossary


def test_an_id_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        Catalogue("x", [T("a", "A"), T("a", "B")])
