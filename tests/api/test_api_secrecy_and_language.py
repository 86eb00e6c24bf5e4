"""The API shows a seat only what its page shows, and game text in the player's language."""

from __future__ import annotations

import json
import re

from app.games import get_rules
from tests.api.openapi_check import checked
from tests.platform.helpers import game_row, path_of
from tests.reliability.leakscan import pattern


def _made(runner, slug, *emails):
    args = ["game", "create", slug]
    for email in emails:
        args += ["--player", email]
    return json.loads(runner.invoke(args=args).output)


def test_a_seat_never_reads_another_seats_secrets(app, client, runner):
    made = _made(runner, "dual_powers", "a@example.org", "b@example.org")
    game = game_row(app, made["game"])
    rules = get_rules("dual_powers")
    texts = {}
    for s in made["seats"]:
        token = path_of(s["link"]).rsplit("/", 1)[1]
        texts[s["seat"]] = checked(client.get(f"/api/v1/seat/{token}?since=0")).get_data(as_text=True)
    texts[None] = checked(client.get(f"/api/v1/game/{made['game']}")).get_data(as_text=True)
    seen = 0
    for owner in texts:
        if owner is None:
            continue
        for secret in filter(None, rules.secrets(game.state, owner)):
            seen += bool(pattern(secret).search(texts[owner]))
            for viewer, text in texts.items():
                if viewer != owner:
                    assert not pattern(secret).search(text), (owner, secret, viewer)
    assert seen, "the owner sees its own secrets (the scan can see them)"
    assert game.seed not in "".join(texts.values())


def _has_message(data) -> bool:
    if isinstance(data, dict):
        if isinstance(data.get("msg"), str) or isinstance(data.get("platform"), str):
            return True
        return any(_has_message(v) for v in data.values())
    if isinstance(data, list):
        return any(_has_message(v) for v in data)
    return False


def test_game_text_is_rendered_in_the_players_language(app, client, runner):
    made = _made(runner, "duel", "a@example.org", "b@example.org")
    token = path_of(made["seats"][0]["link"]).rsplit("/", 1)[1]
    english = checked(client.get(f"/api/v1/seat/{token}")).get_json()
    greek = checked(client.get(f"/api/v1/seat/{token}?lang=el")).get_json()
    for data in (english, greek):
        assert not _has_message(data), "every message is rendered as a string"
        assert isinstance(data["prompt"]["title"], str) and data["prompt"]["title"]
    assert greek["language"] == "el"
    assert greek["prompt"]["title"] != english["prompt"]["title"]
    # machine values stay as they are
    assert greek["prompt"]["forms"][0]["base"] == english["prompt"]["forms"][0]["base"]
    values = [[c["value"] for c in f.get("choices", [])] for f in english["prompt"]["forms"][0]["fields"]]
    assert values == [[c["value"] for c in f.get("choices", [])] for f in greek["prompt"]["forms"][0]["fields"]]


def test_a_refusal_reads_in_the_players_language(app, client, runner):
    made = _made(runner, "duel", "a@example.org", "b@example.org")
    token = path_of(made["seats"][0]["link"]).rsplit("/", 1)[1]
    seat = client.get(f"/api/v1/seat/{token}").get_json()
    tile = seat["prompt"]["forms"][0]["base"]["tile"]
    body = {"notation": f"PLACE {tile} 40 40 0"}
    en = checked(client.post(f"/api/v1/seat/{token}/orders", json=body), body)
    el = checked(client.post(f"/api/v1/seat/{token}/orders?lang=el", json=body), body)
    assert en.status_code == el.status_code == 422
    assert en.get_json()["problem"] == "illegal" and en.get_json()["message"]
    # the game's reason in the player's language (a string, never a message id)
    assert en.get_json()["message"] == "Your first tile must be placed at (0,0)."
    assert re.search(r"[\u0370-\u03ff]", el.get_json()["message"]) and "(0,0)" in el.get_json()["message"]
