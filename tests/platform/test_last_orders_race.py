"""The last two owed orders, posted at the same moment, resolve their step once (on PostgreSQL each
order is written in one round trip: the statements after its insert still see the other order)."""

from __future__ import annotations

import threading

from sqlmodel import Session, select

from app import turns
from app.db import get_engine
from app.models import Game, Order, Seat, Step
from tests.platform.helpers import create_game, game_row


def _read_as_a_page_does(app, game_id):
    with Session(get_engine(app), expire_on_commit=False) as s:
        game = s.get(Game, game_id)
        seats = s.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)).all()
        s.expunge_all()
    return game, seats


def _post_at_once(app, game, seats):
    """Each seat's order for step 1, checked against ``game`` as read before, all written at the same moment."""
    start = threading.Barrier(len(seats))
    results, errors = [], []

    def post(seat, n):
        with app.app_context():
            try:
                start.wait(5)
                results.append(turns.accept_order(get_engine(app), game.id, seat.id, {"type": "PICK", "n": n},
                                                  step_no=1, checked=(game, seat)))
            except Exception as exc:  # noqa: BLE001 (reported below)
                errors.append(exc)

    threads = [threading.Thread(target=post, args=(seat, k + 1)) for k, seat in enumerate(seats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    return results


def test_the_last_two_orders_at_once_resolve_the_step_once(app, runner):
    for round_no in range(6):
        made = create_game(runner, "toy", (f"a{round_no}@example.org", f"b{round_no}@example.org"))
        game, seats = _read_as_a_page_does(app, made["game"])
        assert game.step_no == 1 and sorted(game.owed) == sorted(s.seat for s in seats)
        results = _post_at_once(app, game, seats)
        assert len(results) == 2
        assert sum(resolved for _row, resolved in results) == 1, "exactly one of the two resolved the step"
        after = game_row(app, made["game"])
        assert after.step_no == 2 and not after.all_in
        with Session(get_engine(app)) as s:
            resolved = s.exec(select(Step).where(Step.game_id == made["game"], Step.resolved_at != None)).all()  # noqa: E711
            stored = s.exec(select(Order.step_no, Order.seat).where(Order.game_id == made["game"])).all()
        assert [st.step_no for st in resolved] == [1]
        assert sorted(stored) == sorted((1, seat.seat) for seat in seats)
