"""Processor runs in child processes (spawned), for the crash and race tests."""

from __future__ import annotations

import os
import signal
import sys
from datetime import datetime


def make_app(url: str):  # type: ignore[no-untyped-def]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if root not in sys.path:
        sys.path.insert(0, root)
    from app import create_app
    from app.games import register
    from tests.platform.toygame import RULES

    register(RULES)
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret-key-0123456789", "DATABASE_URL": url,
                       "BASE_URL": "https://pbem.example.org", "MAIL_SERVER": ""})


def tick(url: str, now_iso: str, kill_at: str = "", kill_game: int = 0) -> dict:
    """``process_due`` at ``now_iso``; with ``kill_at`` the process SIGKILLs itself at that checkpoint."""
    app = make_app(url)
    from app import turns
    from app.db import get_engine

    current = {"game": 0}
    if kill_at:
        real = turns.resolve.resolve_step

        def tracking(session, game_id, step_no, now, **kw):  # type: ignore[no-untyped-def]
            current["game"] = game_id
            return real(session, game_id, step_no, now, **kw)

        def checkpoint(name: str) -> None:
            if name == kill_at and (not kill_game or current["game"] == kill_game):
                os.kill(os.getpid(), signal.SIGKILL)

        turns.resolve.resolve_step = tracking
        turns.resolve._checkpoint = checkpoint
    with app.app_context():
        return turns.process_due(get_engine(), datetime.fromisoformat(now_iso))


if __name__ == "__main__":
    import json

    print(json.dumps(tick(sys.argv[1], sys.argv[2], *(sys.argv[3:4]), *(int(a) for a in sys.argv[4:5]))))
