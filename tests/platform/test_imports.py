"""The imports of ``app`` and ``jobs`` form a tree (no circle), and deferred imports say why.

The module graph is read from the source with ``ast``: every import, those
inside functions included.  ``from . import x`` and ``from app import mail``
name the module ``x`` / ``app.mail`` when it is one, else the package;
``import a.b`` names ``a.b``; a package's ``__init__`` is a node of its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "jobs")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()

def _module_of(path: Path) -> str:
    return next(name for name, where in MODULES.items() if where == path)


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _targets(node: ast.Import | ast.ImportFrom, module: str) -> Iterator[str]:
    """The project modules an import statement loads (outside ones are left out)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in MODULES:
                yield alias.name
        return
    base = node.module or ""
    if node.level:
        package = module if _is_package(module) else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in MODULES:
            yield sub
        elif base in MODULES:
            yield base


class _Imports(ast.NodeVisitor):
    """Every import of one module: (line, target, inside a function)."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.depth = 0
        self.found: list[tuple[ast.Import | ast.ImportFrom, str, bool]] = []

    def _function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        for target in _targets(node, self.module):
            self.found.append((node, target, self.depth > 0))

    visit_Import = visit_ImportFrom = _import


def _imports(module: str) -> list[tuple[ast.Import | ast.ImportFrom, str, bool]]:
    visitor = _Imports(module)
    visitor.visit(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    return visitor.found


def module_graph() -> dict[str, set[str]]:
    return {module: {target for _node, target, _deep in _imports(module)} for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, and modules importing themselves."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative (no recursion limit)
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def _cycle_path(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One circle through the component's first module, for the failure message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    todo = [start]
    while todo:
        node = todo.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                todo.append(child)
    return component


def test_the_cycle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["d"]]
    assert _cycle_path(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]


def test_imports_resolve_to_the_modules_they_load() -> None:
    def targets(code: str, module: str) -> list[str]:
        node = ast.parse(code).body[0]
        assert isinstance(node, ast.Import | ast.ImportFrom)
        return list(_targets(node, module))

    assert targets("from app import mail", "app.notify") == ["app.mail"]
    assert targets("from app import create_app", "app.notify") == ["app"]
    assert targets("from . import handler", "app.mailin.server") == ["app.mailin.handler"]
    assert targets("from .text import body_text", "app.mailin.handler") == ["app.mailin.text"]
    assert targets("from . import lang", "app.i18n") == ["app.i18n.lang"], "a package's own submodule"
    assert targets("from .. import models", "app.mailin.server") == ["app.models"]
    assert targets("import app.mail", "jobs") == ["app.mail"]
    assert targets("from app.mail import queue_mail", "jobs") == ["app.mail"]
    assert targets("import json", "app.mail") == []
    graph = module_graph()
    assert "app.mail" in graph["app.mailin.imap"] and "app.web.play" in graph["app.web"]


def _report(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    return "\n".join(f"  {len(c)} modules: {', '.join(c)}\n    e.g. {' -> '.join(_cycle_path(graph, c))}"
                     for c in found)


def test_no_import_cycles() -> None:
    graph = module_graph()
    found = cycles(graph)
    assert not found, "import cycles (counting imports inside functions):\n" + _report(graph, found)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for child in graph[todo.pop()] - seen:
            seen.add(child)
            todo.append(child)
    return seen


def test_the_render_service_does_not_import_the_web_cli_or_mail() -> None:
    """Render workers import ``app.render_pool`` and what it imports: never the app factory's other layers."""
    reached = _reachable(module_graph(), "app.render_pool")
    banned = ("app.web", "app.cli", "app.mail", "app.mailin", "app.turns", "app.notify", "app.leagues", "jobs")
    assert {"app.render_env", "app.report_html", "app.reports"} <= reached
    assert "app" not in reached, "nothing on the render path uses the app factory (app/__init__.py)"
    assert sorted(m for m in reached if any(m == b or m.startswith(b + ".") for b in banned)) == []


def _comment_near(lines: list[str], node: ast.stmt, import_lines: set[int]) -> bool:
    """A comment on the import's own line(s), or on the line above it or above its block of imports.

    (A block: imports one after another, blank lines between groups allowed.)
    """
    own = lines[node.lineno - 1:(node.end_lineno or node.lineno)]
    if any("#" in line for line in own):
        return True
    number = node.lineno - 1  # 1-based number of the line above
    while number >= 1 and (number in import_lines or not lines[number - 1].strip()):
        number -= 1
    return number >= 1 and "#" in lines[number - 1]


def test_imports_inside_functions_say_why() -> None:
    """An import deferred into a function carries a comment (optional dependency, start-up cost, ...)."""
    silent: list[str] = []
    for path in MODULES.values():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            imports = [node for node in ast.walk(func) if isinstance(node, ast.Import | ast.ImportFrom)]
            import_lines = {n for node in imports for n in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
            for node in imports:
                if not _comment_near(lines, node, import_lines):
                    silent.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not silent, "imports inside functions without a comment saying why:\n" + "\n".join(
        f"  {line}" for line in sorted(set(silent)))
