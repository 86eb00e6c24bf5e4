"""The project installs as a package: a wheel built from pyproject.toml runs outside the repository.

The wheel goes into a fresh virtualenv in a temporary folder.  The project's dependencies are
not downloaded again: a ``.pth`` file puts this interpreter's site-packages on the new
environment's path (a plain path line: the ``.pth`` files in that folder, among them the
editable install's finder that would import the checkout, are not run).  Then, with the
working directory outside the checkout, the installed app creates its database, a game,
resolves a step and mails the turn report, as an operator would.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache",
                              "instance", "tests", "bench")


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kwargs)
    assert out.returncode == 0, f"{cmd[-4:]} failed:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    return out


def _builds_without_isolation() -> bool:
    """Whether the installed setuptools can build a wheel by itself (>= 70.1, or the wheel package)."""
    major, minor = (int(part) for part in importlib.metadata.version("setuptools").split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def build_wheel(tmp_path) -> str:
    """A wheel of the checkout, built from a copy of it (no build/ or egg-info left in the repository)."""
    src, dist = tmp_path / "src", tmp_path / "dist"
    shutil.copytree(ROOT, src, ignore=SKIP)
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)]
    if _builds_without_isolation():
        cmd.insert(5, "--no-build-isolation")
    _run(cmd)
    (wheel,) = dist.glob("pbem-*.whl")
    return str(wheel)


def fresh_venv(tmp_path, wheel: str) -> str:
    """A virtualenv with the wheel installed and this interpreter's dependencies visible; its python."""
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = str(venv / "bin" / "python")
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    with open(os.path.join(purelib, "project-dependencies.pth"), "w") as fh:
        fh.write("".join(f"{path}\n" for path in sorted(deps)))
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index",
          "--ignore-installed", wheel])
    return python


@pytest.mark.slow
def test_the_wheel_installs_and_runs_outside_the_repository(tmp_path, smtp):
    wheel = build_wheel(tmp_path)
    python = fresh_venv(tmp_path, wheel)
    work, instance = tmp_path / "work", tmp_path / "instance"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLASK_", "PBEM_", "PYTHON"))}
    env.update(PBEM_INSTANCE=str(instance), FLASK_SECRET_KEY="package-test-secret-0123456789",
               FLASK_BASE_URL="https://pbem.example.org", FLASK_MAIL_SERVER="127.0.0.1",
               FLASK_MAIL_PORT=str(smtp.port))

    def flask(*args: str) -> subprocess.CompletedProcess[str]:
        return _run([python, "-m", "flask", "--app", "app", *args], cwd=work, env=env)

    where = _run([python, "-c", "import app, app.paths as p; print(app.__file__); print(p.TEMPLATES)"],
                 cwd=work, env=env).stdout.split()
    site = os.path.join(str(tmp_path / "venv"), "lib")
    assert all(path.startswith(site) for path in where), f"the checkout leaked in: {where}"
    assert os.path.isfile(os.path.join(where[1], "reports", "report.html"))

    assert "database ready" in flask("init-db").stdout.lower()
    assert (instance / "pbem.sqlite").is_file()
    made = json.loads(flask("game", "create", "duel", "--player", "a@example.org", "--bot",
                            "--hours", "0.0005").stdout)
    with sqlite3.connect(instance / "pbem.sqlite") as db:
        assert db.execute("SELECT slug, step_no FROM game WHERE id = ?", (made["game"],)).fetchone() == ("duel", 1)
    time.sleep(2)  # the deadline (1.8 s) passes
    summary = json.loads(flask("tick").stdout)
    assert summary["steps"] >= 1, summary
    with sqlite3.connect(instance / "pbem.sqlite") as db:
        assert db.execute("SELECT step_no FROM game WHERE id = ?", (made["game"],)).fetchone()[0] >= 2
    deliver = flask("mail", "deliver")
    counts = json.loads(deliver.stdout)
    assert counts["sent"] >= 2 and counts["failed"] == 0 and counts["deferred"] == 0, counts
    assert "mail batch:" in deliver.stderr, "the installed app logs (LOG_LEVEL INFO by default)"

    received = smtp.sink.messages
    assert {m["to"][0] for m in received} == {"a@example.org"}
    pdfs = [part.get_content() for m in received for part in m["msg"].iter_attachments()
            if part.get_content_type() == "application/pdf"]
    assert pdfs and all(pdf.startswith(b"%PDF") for pdf in pdfs), [m["msg"]["Subject"] for m in received]
