"""The previous version of a game's bot, played from its own revision's code.

``previous_revision`` tells which revision holds a game's bot as it was before its latest
change (or the revision asked for), ``Checkouts`` extracts that revision's ``app`` package into
a temporary directory (``git archive``), and ``ask`` has a child process run the old bot there:
this module run as a script, answering one JSON line per request::

    {"slug": ..., "view": ..., "prompt": ..., "seed": ...}  ->  {"order": ...} or {"error": "..."}

The rng the old bot gets is ``random.Random(seed)``, as ``step_rng`` makes it.  The child
imports the old ``app``; the current one, imported by the arena, is not disturbed.  One child
per process and revision, started on first use and reused across games.  The old bot reads
today's views and prompts: when their shape has changed since, it fails (the arena says so)
or plays worse.

This module imports nothing of ``app``.
"""

from __future__ import annotations

import io
import json
import os
import random
import select
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class NotAvailable(Exception):
    """No previous version to play (not a git checkout, unknown revision ...)."""


class PreviousFailed(Exception):
    """The previous bot could not answer (import error, changed protocol, crash)."""


@dataclass(frozen=True)
class Revision:
    """A revision to take the previous bot from, and how it was chosen (for the report)."""

    rev: str
    note: str


def git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise NotAvailable(getattr(e, "stderr", None) or str(e)) from e
    return done.stdout.strip()


def is_checkout(root: Path) -> bool:
    """Whether ``root`` is the top of a git work tree (not a copy inside some other repository)."""
    try:
        top = git(root, "rev-parse", "--show-toplevel")
    except NotAvailable:
        return False
    return Path(top).resolve() == root.resolve()


def previous_revision(root: Path, slug: str, wanted: str | None = None) -> Revision:
    """The revision of ``slug``'s previous bot: ``wanted`` when given; else HEAD when the bot's
    modules (``app/games/<slug>/bot*.py``) have uncommitted changes; else the parent of the
    last commit that changed them.  Raises ``NotAvailable``."""
    if not is_checkout(root):
        raise NotAvailable("not a git checkout")
    if wanted:
        try:
            rev = git(root, "rev-parse", "--verify", "--quiet", f"{wanted}^{{commit}}")
        except NotAvailable:
            raise NotAvailable(f"unknown revision {wanted!r}") from None
        return Revision(rev, f"{rev[:8]} ({wanted})")
    bots = f"app/games/{slug}/bot*.py"
    if git(root, "status", "--porcelain", "--", bots):
        rev = git(root, "rev-parse", "HEAD")
        return Revision(rev, f"{rev[:8]} (HEAD: the bot has uncommitted changes)")
    last = git(root, "log", "-1", "--format=%H %s", "--", bots)
    if not last:
        raise NotAvailable(f"no commit changed {bots}")
    commit, subject = last.split(" ", 1)
    try:
        rev = git(root, "rev-parse", "--verify", "--quiet", f"{commit}^")
    except NotAvailable:
        raise NotAvailable(f"{commit[:8]} brought the first bot") from None
    return Revision(rev, f'{rev[:8]} (before {commit[:8]} "{subject[:60]}")')


class Checkouts:
    """``app`` as it was at each revision, extracted once into a temporary directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.dirs: dict[str, str] = {}

    def get(self, rev: str) -> str:
        if rev not in self.dirs:
            data = subprocess.run(["git", "archive", rev, "app"], cwd=self.root, capture_output=True,
                                  check=True).stdout
            base = tempfile.mkdtemp(prefix=f"arena-{rev[:8]}-")
            with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                tar.extractall(base, filter="data")
            self.dirs[rev] = base
        return self.dirs[rev]

    def close(self) -> None:
        close_children()
        for base in self.dirs.values():
            shutil.rmtree(base, ignore_errors=True)
        self.dirs.clear()


class Previous:
    """The previous versions of the bots for one run: which revision for each game, its code."""

    def __init__(self, root: Path, wanted: str | None, games: int) -> None:
        self.root, self.wanted, self.games = root, wanted, games
        self.checkouts = Checkouts(root)

    def ready(self, slug: str, view: dict[str, Any], prompt: dict[str, Any]) -> tuple[str, str]:
        """The directory of ``slug``'s previous bot once it has answered ``prompt`` (a probe),
        and the line saying which revision; ("", why) when it cannot play."""
        try:
            revision = previous_revision(self.root, slug, self.wanted)
            old = self.checkouts.get(revision.rev)
            ask(old, slug, view, prompt, "probe")
        except NotAvailable as e:
            return "", f"previous version: not available ({e})"
        except PreviousFailed as e:
            return "", f"previous version {revision.note}: cannot play: {str(e)[:200]}"
        return old, f"previous version: {revision.note}"


def order_or_random(rules: Any, state: dict[str, Any], seat: str, seed: str, old: str, faults: Counter[str]) -> Any:
    """The previous bot's order (its rng seeded as ``step_rng`` seeds the current bot's); when it
    fails or writes an illegal order, a random legal order instead, the failure counted."""
    try:
        order = ask(old, rules.slug, rules.view(state, seat), rules.owed(state)[seat], seed)
        rules.validate(state, seat, order)
        return order
    except Exception as e:  # noqa: BLE001 - the old code's failures are counted, not fatal
        faults[f"{type(e).__name__}: {e}"[:200]] += 1
        return rules.random_order(state, seat, random.Random(seed))


# --------------------------------------------------------------------------- the child process

_children: dict[tuple[int, str], subprocess.Popen[str]] = {}
ANSWER_WITHIN = 120  # seconds: an old bot that hangs is stopped, not waited for


def _child(directory: str) -> subprocess.Popen[str]:
    """This process's child for ``directory`` (a forked worker starts its own)."""
    key = (os.getpid(), directory)
    proc = _children.get(key)
    if proc is None or proc.poll() is not None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        proc = subprocess.Popen([sys.executable, __file__, directory], cwd=directory, env=env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        _children[key] = proc
    return proc


def ask(directory: str, slug: str, view: dict[str, Any], prompt: dict[str, Any], seed: str) -> dict[str, Any]:
    """The previous bot's order for this view and prompt; raises ``PreviousFailed``."""
    proc = _child(directory)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps({"slug": slug, "view": view, "prompt": prompt, "seed": seed}) + "\n")
        proc.stdin.flush()
        if not select.select([proc.stdout], [], [], ANSWER_WITHIN)[0]:
            proc.kill()
            raise PreviousFailed(f"no answer within {ANSWER_WITHIN} s")
        line = proc.stdout.readline()
    except (OSError, TypeError, ValueError) as e:
        raise PreviousFailed(f"{type(e).__name__}: {e}") from e
    if not line:
        raise PreviousFailed(f"its process ended (exit {proc.wait()})")
    reply = json.loads(line)
    if "error" in reply:
        raise PreviousFailed(reply["error"])
    order: dict[str, Any] = reply["order"]
    return order


def close_children() -> None:
    for key, proc in list(_children.items()):
        if key[0] == os.getpid():
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=10)
            del _children[key]


def serve(directory: str) -> None:
    """Answer ai_order requests with the ``app`` found in ``directory`` (run as the child)."""
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever the old code prints stays out of the replies
    sys.path.insert(0, directory)
    try:
        from app.games import get_rules
    except Exception as e:  # noqa: BLE001 - any import failure is the answer to every request
        broken = f"cannot import its app.games: {type(e).__name__}: {e}"
    else:
        broken = ""
    for line in sys.stdin:
        request = json.loads(line)
        try:
            if broken:
                raise PreviousFailed(broken)
            rules = get_rules(request["slug"])
            order = rules.ai_order(request["view"], request["prompt"], random.Random(request["seed"]))
            reply = {"order": order}
            text = json.dumps(reply)
        except Exception as e:  # noqa: BLE001 - reported to the arena, which goes on
            why = str(e) if isinstance(e, PreviousFailed) else f"its ai_order raised {type(e).__name__}: {e}"
            text = json.dumps({"error": why})
        out.write(text + "\n")
        out.flush()


if __name__ == "__main__":
    serve(sys.argv[1])
