"""Every user-facing string of a template is marked for translation.

The template is lexed with Jinja: text outside ``{% trans %}`` blocks and
outside tags, comments, ``<style>`` and ``<script>`` must have no words left
(a small allowlist takes symbols, codes and proper names), and so must the
visible attributes (placeholder, title, aria-label, alt).  String literals
printed directly (``{{ "none" }}``, ``x or "empty"``, ``... else "human"``,
``{"ACTIVE": "active"}[...]``) must go through ``_()`` too.
"""

from __future__ import annotations

import ast
import os
import re

import pytest
from jinja2 import Environment

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "templates")
SKIP_DIRS = {"static"}
#: words that are the same in every language (codes, symbols, names, notation)
ALLOW = {
    "PBEM", "SHA-256", "JSON", "Message-ID", "UTF-8", "PDF", "GM", "VP", "L1", "L2", "L3", "μ ± σ", "H",
    "TRADE", "F = A+B+C+D+E", "UTC", "flask --app app verify --file export.json", "export.json",
}
WORD = re.compile(r"[A-Za-z\u0370-\u03ff]{2,}")
MARK = "\x00"
HEX = re.compile(r"#[0-9a-fA-F]{3,6}")


def templates() -> list[str]:
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            if name.endswith((".html", ".txt")):
                out.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
    return sorted(out)


def _env() -> Environment:
    return Environment(extensions=["jinja2.ext.i18n"])


def visible_text(source: str) -> tuple[str, list[str]]:
    """(the text outside Jinja code and trans blocks, literal strings printed directly)."""
    env = _env()
    parts: list[str] = []
    printed: list[str] = []
    in_trans = False
    block_start = False
    prev: tuple[str, str] = ("", "")
    in_var = False
    for _lineno, kind, value in env.lex(source):
        if kind == "block_begin":
            block_start = True
            parts.append(MARK)
            continue
        if block_start and kind == "name":
            if value == "trans":
                in_trans = True
            elif value == "endtrans":
                in_trans = False
        if kind != "whitespace":
            block_start = False
        if kind == "variable_begin":
            in_var = True
        elif kind == "variable_end":
            in_var = False
        if kind == "data" and not in_trans:
            parts.append(value)
        elif kind != "data":
            parts.append(MARK)
        if kind == "string":
            value = ast.literal_eval(value)
        if in_var and not in_trans and kind == "string" and WORD.search(value) and not HEX.fullmatch(value):
            before = prev[1] if prev[0] in ("name", "operator") else prev[0]
            if before in ("variable_begin", "or", "else", ":", "~"):
                printed.append(value)
        if kind != "whitespace":
            prev = (kind, value)
    return "".join(parts), printed


def unmarked(name: str) -> list[str]:
    with open(os.path.join(ROOT, name), encoding="utf-8") as fh:
        source = fh.read()
    text, printed = visible_text(source)
    found = [f"printed literal {s!r}" for s in printed if s.strip() not in ALLOW]
    if name.endswith(".html"):
        text = re.sub(r"<!--.*?-->", MARK, text, flags=re.S)
        text = re.sub(r"<(style|script)\b.*?</\1>", MARK, text, flags=re.S | re.I)
        for attr in re.findall(r'\b(?:placeholder|title|aria-label|alt)="([^"]*)"', text):
            if WORD.search(attr.replace(MARK, " ")) and attr.strip() not in ALLOW:
                found.append(f"attribute {attr!r}")
        text = re.sub(r"<[^>]*>", MARK, text)
        text = re.sub(r"&[a-z]+;|&#\d+;", " ", text)
    text = text.replace("%%PREFS_LINK%%", MARK).replace("%%ORDER_LINK%%", MARK)
    for chunk in re.split(f"[{MARK}\n]", text):
        chunk = chunk.strip(" \t.,:;()[]·—–-|/#*+=!?'\"")
        if chunk and WORD.search(chunk) and chunk not in ALLOW:
            found.append(f"text {chunk!r}")
    return found


@pytest.mark.parametrize("name", templates())
def test_every_visible_string_is_marked(name):
    assert unmarked(name) == [], f"{name}: mark these for translation (_() or {{% trans %}})"


def test_the_checker_catches_unmarked_text():
    assert visible_text("<p>Hello {{ _('World') }}</p>")[0].count("Hello") == 1
    assert "World" not in visible_text("{% trans %}World{% endtrans %}")[0]
    assert visible_text('{{ x or "none yet" }}')[1] == ["none yet"]
    assert visible_text('{{ x|join(", ") }}')[1] == []
