"""Find the player-facing English of a game engine in its source (for the catalogue tests).

Collects the messages of ``IllegalOrder(...)``/``InvalidOrder(...)``, of the
engines' event helpers (``say``, ``finish``, ``ev``) and the
values of ``"text"``, ``"title"``, ``"label"`` and ``"help"`` keys in dict
literals, as *shapes*: the literal text with ``{}`` where an f-string
interpolates a value.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator

GAMES = os.path.join(os.path.dirname(__file__), "..", "games")
KEYS = ("text", "title", "label", "help")
#: calls whose argument (by position) is a message: refusals and the engines' event helpers
CALLS = {"IllegalOrder": 0, "InvalidOrder": 0, "say": 1, "finish": 4, "ev": 0}


def _shapes(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            else:
                out.append("{}")
        yield "".join(out)
    elif isinstance(node, ast.IfExp):
        yield from _shapes(node.body)
        yield from _shapes(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        lefts = list(_shapes(node.left)) or ["{}"]
        rights = list(_shapes(node.right)) or ["{}"]
        for a in lefts:
            for b in rights:
                yield a + b


def shape_of(template: str) -> str:
    """A catalogue template ("{a} is not adjacent to {b}.") as a shape ("{} is not adjacent to {}.")."""
    return re.sub(r"\{[A-Za-z_][A-Za-z0-9_]*\}", "{}", template)


def engine_messages(slug: str) -> dict[str, list[str]]:
    """Every shape of player-facing English in ``app/games/<slug>/*.py`` -> where it occurs."""
    root = os.path.join(GAMES, slug)
    found: dict[str, list[str]] = {}
    for name in sorted(os.listdir(root)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        for node in ast.walk(tree):
            values: list[ast.AST] = []
            if isinstance(node, ast.Call) and node.args:
                func = node.func
                fname = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                at = CALLS.get(fname)
                if at is not None and len(node.args) > at:
                    values.append(node.args[at])
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in KEYS and value is not None:
                        values.append(value)
            for value in values:
                for shape in _shapes(value):
                    if re.search(r"[A-Za-z]{2}", shape.replace("{}", "")):
                        found.setdefault(shape, []).append(f"{name}:{value.lineno}")
    return found
