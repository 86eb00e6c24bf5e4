"""One Portuguese: every Portuguese catalogue (the platform's and each game's) is European Portuguese.

The Dual Powers and Empire rulebooks are European Portuguese; a Brazilian form beside a
European one ("Rodada" beside "a jogar", "Moscou") reads as a mistake to either reader.
"""

from __future__ import annotations

import glob
import re

import pytest
from babel.messages.pofile import read_po

from app.i18n.lang import TRANSLATIONS

#: Brazilian forms and their European counterparts (what a Portuguese reader expects).
BRAZILIAN = {
    r"\brodadas?\b": "ronda",
    r"\bvocês?\b": "(the verb alone, or o senhor / a sua)",
    r"\bMoscou\b": "Moscovo",
    r"\bo controle\b|\bde controle\b": "controlo",
    r"\bregistros?\b": "registo",
    r"\bequipes?\b": "equipa",
    r"\btelas?\b": "ecrã",
    r"\busuários?\b": "utilizador",
    r"\bcelular\b": "telemóvel",
    r"\bestá[a-z]* [a-z]+(ando|endo|indo)\b": "está a + infinitive",
    r"\bcoringas?\b": "jóquer / curinga",
    r"\barquivo JSON\b|\bbaixar\b": "ficheiro / transferir",
}

CATALOGUES = sorted(glob.glob(f"{TRANSLATIONS}/pt/LC_MESSAGES/*.po"))


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.rsplit("/", 1)[1])
def test_portuguese_catalogues_are_european(path: str) -> None:
    with open(path, "rb") as fh:
        catalogue = read_po(fh)
    found = []
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in strings:
            for pattern, european in BRAZILIAN.items():
                hit = re.search(pattern, text or "", re.IGNORECASE)
                if hit:
                    found.append(f"{hit.group(0)!r} (say {european}) in {text!r}")
    assert not found, "\n".join(found)
