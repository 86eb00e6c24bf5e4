"""A seat's link is read as plain rows made into detached objects (``db.detached``): one written back updates its row,
it is never inserted a second time."""

from __future__ import annotations

from sqlmodel import Session, func, select

from app.db import detached, get_engine, write_session
from app.models import Seat
from tests.platform.helpers import create_game


def test_a_detached_seat_added_to_a_write_updates_its_row(app, runner):
    made = create_game(runner)
    engine = get_engine(app)
    with Session(engine) as s:
        loaded = s.exec(select(Seat).where(Seat.game_id == made["game"], Seat.seat == "A")).one()
        values = loaded.model_dump()
        before = s.exec(select(func.count()).select_from(Seat)).one()
    seat = detached(Seat, values)
    assert seat.seat == "A" and seat.game_id == made["game"] and seat.id == loaded.id
    seat.missed = 2
    with write_session(engine) as session:
        session.add(seat)
    with Session(engine) as s:
        assert s.exec(select(func.count()).select_from(Seat)).one() == before
        assert s.get(Seat, loaded.id).missed == 2

