"""Extract and compare: every message of the code and templates is translated in pt and el,
with the same placeholders, and the compiled .mo files match the .po files."""

from __future__ import annotations

import os
import re

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
I18N = os.path.join(ROOT, "app", "i18n")
LANGS = ("pt", "el")
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "lazy_gettext": None}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def extracted() -> dict[str, str]:
    """msgid (the singular for plurals) -> where it was found."""
    with open(os.path.join(I18N, "babel.cfg"), encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    out: dict[str, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS):
        msgid = message if isinstance(message, str) else message
        out.setdefault(msgid, f"{filename}:{lineno}")
    return out


def po(lang: str):
    with open(os.path.join(I18N, "translations", lang, "LC_MESSAGES", "messages.po"), "rb") as fh:
        return read_po(fh)


def _key(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


@pytest.fixture(scope="module")
def messages() -> dict:
    return extracted()


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_has_a_translation(messages, lang):
    cat = po(lang)
    missing = []
    for msgid, where in messages.items():
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = cat.get(key)
        text = entry.string if entry is not None else ""
        ok = all(text) if isinstance(text, tuple) else bool(text)
        if entry is None or not ok or entry.fuzzy:
            missing.append(f"{where}: {key!r}")
    assert not missing, f"{lang}: {len(missing)} messages without translation:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_their_placeholders(lang):
    wrong = []
    for entry in po(lang):
        if not entry.id or not entry.string:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        want = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            if set(PLACEHOLDER.findall(s)) != want or s.count("%%") != ids[-1].count("%%"):
                wrong.append(f"{ids[0]!r} -> {s!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogue_is_up_to_date(lang):
    path = os.path.join(I18N, "translations", lang, "LC_MESSAGES", "messages.mo")
    with open(path, "rb") as fh:
        compiled = {_key(m.id): _key(m.string) for m in read_mo(fh) if m.id}
    source = {_key(m.id): _key(m.string) for m in po(lang) if m.id and m.string and not m.fuzzy}
    assert compiled == source, f"{path} is stale: run pybabel compile -d app/i18n/translations"


def test_portuguese_catalogues_use_the_european_plural_rule():
    """European Portuguese: one singular (n == 1), zero is plural; Babel's default for "pt"
    is the Brazilian rule, so the header is set by hand and pybabel update keeps it."""
    folder = os.path.join(I18N, "translations", "pt", "LC_MESSAGES")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".po"):
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                text = fh.read()
            assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in text, name
