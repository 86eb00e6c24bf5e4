"""The one gate: only ``app/turns/`` changes a game, and every source of orders goes through ``take_order``.

The first half reads the code (``ast``): no module outside ``app/turns`` sets a
game's status, deadline or step, builds ``Game``/``Step``/``Order`` rows or
updates the game table.  The second half sends the same orders from the web
form, the mail text and a bot through ``app.turns.take_order`` on the toy game.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlmodel import Session, select
from werkzeug.datastructures import MultiDict

from app import turns
from app.db import get_engine
from app.games.base import ANYTIME_STEP
from app.kinds import GameStatus, OrderSource, StepKind
from app.models import Game, Order, Seat
from tests.platform.helpers import create_game

ROOT = Path(__file__).resolve().parents[2]
#: What only the turn processor sets on a game.
GAME_FIELDS = {"status", "deadline", "step_no", "owed", "state", "all_in", "attempts", "turn_key", "finished_at",
               "notified_key", "last_error"}
#: Names other modules use for rows that are not games (outbox and inbound mails, seasons) but share field names.
OTHER_ROWS = {"row", "mail", "last", "season"}
#: Rows only the turn processor creates.
GAME_ROWS = {"Game", "Step", "Order"}


def _outside_the_gate() -> list[Path]:
    files = [*sorted((ROOT / "app").rglob("*.py")), *sorted((ROOT / "jobs").rglob("*.py"))]
    skip = (ROOT / "app" / "turns", ROOT / "app" / "games", ROOT / "app" / "migrations")
    return [f for f in files if not any(f.is_relative_to(s) for s in skip) and f.name != "models.py"]


def _breaches(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if (isinstance(target, ast.Attribute) and target.attr in GAME_FIELDS
                    and not (isinstance(target.value, ast.Name) and target.value.id in OTHER_ROWS)):
                found.append(f"{path.relative_to(root)}:{node.lineno} sets .{target.attr}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in GAME_ROWS:
                found.append(f"{path.relative_to(root)}:{node.lineno} creates {node.func.id} rows")
            if node.func.id == "update" and any(isinstance(a, ast.Name) and a.id == "Game" for a in node.args):
                found.append(f"{path.relative_to(root)}:{node.lineno} updates the game table")
    return found


def test_only_the_turn_processor_changes_a_game():
    files = _outside_the_gate()
    assert len(files) > 30 and any(f.name == "gm.py" for f in files)
    breaches = [b for f in files for b in _breaches(f)]
    assert breaches == []


def test_the_gate_check_sees_a_breach(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f(live, row, now):\n    live.status = 'paused'\n    live.deadline += now\n"
                      "    row.status = 'sent'\n    session.add(Order(game_id=1))\n"
                      "    update(Game).values(step_no=2)\n")
    assert len(_breaches(sample, tmp_path)) == 4


def test_kinds_keep_the_stored_words():
    assert GameStatus.RUNNING == "running" and f"{GameStatus.PAUSED}" == "paused"
    assert StepKind.ANYTIME == ANYTIME_STEP
    assert OrderSource.WEB.by_player and not OrderSource.BOT.by_player


# --------------------------------------------------------------------------- one door for orders


def _seats(app, game_id: int) -> dict[str, Seat]:
    with Session(get_engine(app), expire_on_commit=False) as s:
        seats = s.exec(select(Seat).where(Seat.game_id == game_id)).all()
        s.expunge_all()
        return {seat.seat: seat for seat in seats}


def _snapshot(app, game_id: int) -> tuple:
    with Session(get_engine(app)) as s:
        game = s.get(Game, game_id)
        orders = s.exec(select(Order).where(Order.game_id == game_id)).all()
        return (game.status, game.step_no, game.state, game.owed, game.all_in, game.deadline,
                sorted((o.seat, o.step_no, o.text) for o in orders))


@pytest.fixture
def toy(app, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"))
    return made["game"], _seats(app, made["game"])


BAD_TEXT = "PICK 7"
SOURCES = [OrderSource.WEB, OrderSource.MAIL, OrderSource.BOT]


@pytest.mark.parametrize("source", SOURCES)
def test_bad_text_is_refused_alike_from_every_source_and_changes_nothing(app, toy, source):
    game_id, seats = toy
    before = _snapshot(app, game_id)
    with app.app_context():
        step_no = 1 if source is OrderSource.WEB else None  # a page says which step it was drawn at
        taken = turns.take_order(seats["A"], BAD_TEXT, source, engine=get_engine(), step_no=step_no)
    assert taken.outcome is turns.Outcome.REFUSED and taken.problem is turns.Problem.ILLEGAL
    assert taken.message == "cannot read 'PICK 7': write PICK 1, PICK 2 or PICK 3"
    assert taken.row is None and not taken.ok and taken.prompt is not None and not taken.anytime
    assert _snapshot(app, game_id) == before


@pytest.mark.parametrize("source", SOURCES)
def test_an_order_for_a_step_that_is_not_open_is_closed_from_every_source(app, toy, source):
    game_id, seats = toy
    before = _snapshot(app, game_id)
    with app.app_context():
        taken = turns.take_order(seats["A"], "PICK 2", source, engine=get_engine(), step_no=7)  # a page of no step
    assert taken.outcome is turns.Outcome.CLOSED and taken.row is None
    assert _snapshot(app, game_id) == before


def test_a_bad_web_form_is_refused_with_the_players_words_and_changes_nothing(app, toy):
    game_id, seats = toy
    before = _snapshot(app, game_id)
    with app.test_request_context():
        taken = turns.take_order(seats["A"], MultiDict({"form_index": "0", "n": "7"}), OrderSource.WEB,
                                 engine=get_engine(), step_no=1)
        nothing = turns.take_order(seats["A"], MultiDict({"form_index": "0", "n": "1"}), OrderSource.WEB,
                                   engine=get_engine(), anytime=True)
    assert taken.outcome is turns.Outcome.REFUSED and taken.message == {
        "platform": turns.forms.NOT_A_CHOICE, "args": {"field": "Number", "value": "7"}}
    assert nothing.outcome is turns.Outcome.REFUSED and nothing.message == turns.intake.NOTHING_TO_SEND
    assert _snapshot(app, game_id) == before


def test_form_mail_and_bot_orders_are_stored_alike_and_the_step_resolves_when_all_are_in(app, toy):
    game_id, seats = toy
    with app.test_request_context():
        web = turns.take_order(seats["A"], MultiDict({"form_index": "0", "n": "2"}), OrderSource.WEB,
                               engine=get_engine(), step_no=1)
        again = turns.take_order(seats["A"], "PICK 3", OrderSource.MAIL, engine=get_engine())
        empty = turns.take_order(seats["B"], "", OrderSource.MAIL, engine=get_engine())
        too_long = turns.take_order(seats["B"], "PICK 1 " * 10, OrderSource.MAIL, engine=get_engine(), max_chars=20)
        bot = turns.take_order(seats["B"], "PICK 1", OrderSource.BOT, engine=get_engine())
    assert web.outcome is turns.Outcome.STORED and web.row.source == "web" and not web.resolved
    assert again.outcome is turns.Outcome.STORED and again.step_no == 1 and not again.resolved
    assert empty.outcome is turns.Outcome.EMPTY and too_long.problem is turns.Problem.TOO_LONG
    assert bot.outcome is turns.Outcome.STORED and bot.resolved and bot.row.source == "bot"
    assert bot.game.step_no == 2 and bot.game.state["score"] == {"A": 3, "B": 0}  # the last order counts
    with app.app_context():
        late = turns.take_order(seats["A"], "PICK 2", OrderSource.WEB, engine=get_engine(), step_no=1)
    assert late.outcome is turns.Outcome.CLOSED and late.game.step_no == 2
