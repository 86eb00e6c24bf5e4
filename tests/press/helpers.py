"""Helpers for press tests: a game, each seat's link, posts from a seat page."""

from __future__ import annotations

import json

from sqlmodel import Session, select

from app.db import get_engine
from app.models import OutboxMail, Press, Seat
from tests.platform.helpers import csrf_of, path_of

PLAYERS = ("a@example.org", "b@example.org", "c@example.org")


def create(runner, slug="toy3", players=PLAYERS, *extra) -> dict:
    args = ["game", "create", slug]
    for p in players:
        args += ["--player", p]
    out = runner.invoke(args=args + list(extra))
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def links(made: dict) -> dict[str, str]:
    return {s["seat"]: path_of(s["link"]) for s in made["seats"]}


def page(client, link: str) -> str:
    resp = client.get(link)
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def write(client, link: str, text: str, to=("*",)):
    data = {"csrf_token": csrf_of(page(client, link)), "text": text, "to": list(to)}
    return client.post(f"{link}/press", data=data)


def stored(app) -> list[Press]:
    with Session(get_engine(app)) as s:
        return list(s.exec(select(Press).order_by(Press.id)).all())


def press_mails(app) -> list[OutboxMail]:
    with Session(get_engine(app)) as s:
        return [m for m in s.exec(select(OutboxMail).order_by(OutboxMail.id)).all() if m.kind.startswith("press")]


def seat(app, game_id: int, name: str) -> Seat:
    with Session(get_engine(app)) as s:
        return s.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == name)).one()
