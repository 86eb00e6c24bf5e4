"""Helpers for platform tests: create games, read links, submit forms."""

from __future__ import annotations

import json
import re

from sqlmodel import Session, select

from app.db import get_engine
from app.models import Game, OutboxMail


def create_game(runner, slug="toy", players=("a@example.org", "b@example.org"), *extra):
    args = ["game", "create", slug]
    for p in players:
        args += ["--player", p]
    result = runner.invoke(args=args + list(extra))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def path_of(link: str) -> str:
    return "/" + link.split("/", 3)[3]


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def step_of(html: str) -> str:
    return re.search(r'name="step_no" value="(\d+)"', html).group(1)


def post_form(client, link, fields, form_index="0"):
    page = client.get(path_of(link)).get_data(as_text=True)
    data = {"csrf_token": csrf_of(page), "step_no": step_of(page), "form_index": form_index, **fields}
    return client.post(path_of(link), data=data)


def game_row(app, game_id) -> Game:
    with Session(get_engine(app)) as s:
        return s.get(Game, game_id)


def mails(app, **where) -> list[OutboxMail]:
    with Session(get_engine(app)) as s:
        q = select(OutboxMail).order_by(OutboxMail.id)
        for k, v in where.items():
            q = q.where(getattr(OutboxMail, k) == v)
        return list(s.exec(q).all())


def post_notation(client, link, text):
    """Open the seat's page, then post ``text`` in its notation box, as a player does."""
    page = client.get(path_of(link)).get_data(as_text=True)
    return client.post(path_of(link), data={"csrf_token": csrf_of(page), "step_no": step_of(page), "notation": text})
