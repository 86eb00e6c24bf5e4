"""GM actions go through ``app.turns.control``: pause, resume, retry, extend (capped), resolve now."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from app import turns
from app.db import get_engine, write_session
from app.kinds import GameStatus, GmActionKind
from app.models import Event, Game, GmAction
from tests.platform.helpers import create_game, csrf_of, game_row, path_of


def _log(app, game_id: int) -> tuple[list[str], list[str]]:
    with Session(get_engine(app)) as s:
        actions = [a.action for a in s.exec(select(GmAction).where(GmAction.game_id == game_id)
                                            .order_by(GmAction.id)).all()]
        events = [e.text for e in s.exec(select(Event).where(Event.game_id == game_id).order_by(Event.id)).all()]
    return actions, events


def test_a_pause_moves_the_deadline_by_the_time_away_and_counts_against_the_cap(app, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--hours", "24")
    deadline = game_row(app, made["game"]).deadline
    start = deadline - timedelta(hours=20)
    with write_session(get_engine(app)) as session:
        game = session.get(Game, made["game"])
        assert turns.pause(session, game, start) and not turns.pause(session, game, start)
    assert game_row(app, made["game"]).status == GameStatus.PAUSED
    with write_session(get_engine(app)) as session:
        game = session.get(Game, made["game"])
        assert turns.resume(session, game, start + timedelta(hours=2))
        assert turns.extension_left(session, game, 10) == 8
        with pytest.raises(turns.Refused, match="8 hours left"):
            turns.extend(session, game, 9, start, cap_hours=10)
    game = game_row(app, made["game"])
    moved = deadline + timedelta(hours=2)
    assert game.status == "running" and game.deadline.replace(tzinfo=None) == moved.replace(tzinfo=None)
    actions, events = _log(app, made["game"])
    assert actions == [GmActionKind.PAUSE, GmActionKind.RESUME]
    assert events[-2:] == ["The GM paused the game.", "The GM resumed the game."]


def test_retry_runs_a_crashed_game_again_and_resolve_now_plays_the_defaults(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"))
    with write_session(get_engine(app)) as session:  # the state a crashed resolution leaves
        game = session.get(Game, made["game"])
        game.status, game.attempts = "crashed", 5
    gm = path_of(made["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    assert client.post(gm, data={"csrf_token": csrf_of(page), "action": "retry"}).status_code == 303
    game = game_row(app, made["game"])
    assert game.status == "running" and game.attempts == 0 and game.step_no == 1
    assert client.post(gm, data={"csrf_token": csrf_of(page), "action": "resolve"}).status_code == 303
    assert game_row(app, made["game"]).step_no == 2, "every seat got its default order"
    actions, _events = _log(app, made["game"])
    assert actions == [GmActionKind.RESUME, GmActionKind.RESOLVE]
