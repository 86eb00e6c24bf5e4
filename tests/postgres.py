"""A PostgreSQL server for the tests that need one: TEST_DATABASE_URL, or bin/start-postgres."""

from __future__ import annotations

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def server_url() -> tuple[str, str]:
    """(the server's URL, "") or ("", why there is none)."""
    if os.environ.get("TEST_DATABASE_URL"):
        return os.environ["TEST_DATABASE_URL"], ""
    script = os.path.join(ROOT, "bin", "start-postgres")
    if not shutil.which("pg_ctlcluster") and not shutil.which("apt-get"):
        return "", "no TEST_DATABASE_URL and no way to install PostgreSQL here"
    try:
        out = subprocess.run([script], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "", f"bin/start-postgres did not work: {exc}"
    if out.returncode != 0 or "postgresql" not in out.stdout:
        return "", f"bin/start-postgres did not work: {out.stderr[-300:]}"
    return out.stdout.strip().splitlines()[-1], ""
