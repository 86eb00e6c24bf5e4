"""A whole game of each kind played through the JSON API alone, every answer checked against docs/openapi.yaml.

One seat is a client outside the platform (``tests/api/client.py``): it reads the seat,
builds an order from the prompt's forms and posts it; bots fill the other seats. The
scheduler's part (``tick``) stands in for the clock when the client owes nothing.
"""

from __future__ import annotations

import json
import random

import pytest
from sqlmodel import Session, select

from app.db import get_engine
from app.models import Order
from tests.api.client import orders_to_try
from tests.api.openapi_check import checked
from tests.platform.helpers import path_of

#: Short games (few rounds, few players) so that the four end within seconds.
OPTIONS = {"dual_powers": [], "conquest": ["players=2", "round_limit=30"], "duel": [],
           "empire": ["players=3", "round_limit=4"]}


@pytest.mark.parametrize("slug", sorted(OPTIONS))
def test_a_whole_game_through_the_api(app, client, runner, slug):
    from app.web.limits import get_limiter

    get_limiter(app).enabled = False
    app.config["RENDER_WORKERS"] = 0
    args = ["game", "create", slug, "--player", "client@example.org", "--bot"]
    for option in OPTIONS[slug]:
        args += ["--option", option]
    made = json.loads(runner.invoke(args=args).output)
    me = next(s for s in made["seats"] if s["email"] == "client@example.org")
    token = path_of(me["link"]).rsplit("/", 1)[1]
    rnd = random.Random(slug)
    taken = idle = 0
    for _ in range(2000):
        seat = checked(client.get(f"/api/v1/seat/{token}")).get_json()
        if seat["game"]["status"] != "running":
            break
        if not seat["owes"]:
            idle += 1
            assert idle < 5, seat["waiting_for"]
            runner.invoke(args=["tick"])
            continue
        idle = 0
        for body in orders_to_try(seat["prompt"], rnd):
            body["step_no"] = seat["game"]["step_no"]
            resp = checked(client.post(f"/api/v1/seat/{token}/orders", json=body), body)
            assert resp.status_code in (201, 409, 422), resp.get_data(as_text=True)
            if resp.status_code == 201:
                taken += 1
                break
            if resp.status_code == 409:
                break
        else:
            pytest.fail(f"no legal order found for {seat['prompt'].get('title')!r}")
    assert seat["game"]["status"] == "finished", seat["game"]
    assert seat["outcome"] and seat["game"]["seed"]
    assert taken >= 1, "the client played"  # (a Conquest bot may reach its objective within three rounds)
    with Session(get_engine(app)) as s:
        sources = set(s.exec(select(Order.source).where(Order.game_id == made["game"],
                                                        Order.seat == me["seat"])).all())
    assert "api" in sources
    full = checked(client.get(f"/api/v1/seat/{token}?since=0")).get_json()
    assert full["log"] and all(isinstance(e["text"], str) and e["text"] for e in full["log"])
    public = checked(client.get(f"/api/v1/game/{made['game']}")).get_json()
    assert public["game"]["status"] == "finished" and public["outcome"]
