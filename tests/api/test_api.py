"""The JSON API (``/api/v1``): the seat, orders through the one gate, the public view; errors as JSON."""

from __future__ import annotations

import json

from sqlmodel import Session

from app.db import get_engine
from app.models import Order
from tests.api.openapi_check import checked
from tests.platform.helpers import create_game, game_row, path_of


def post(client, token, body):
    """POST an order and validate the exchange against the OpenAPI document."""
    return checked(client.post(f"/api/v1/seat/{token}/orders", json=body), body)


def token_of(link: str) -> str:
    return path_of(link).rsplit("/", 1)[1]


def _toy(runner):
    made = create_game(runner)
    return made, [token_of(s["link"]) for s in made["seats"]]


def test_seat_answers_view_prompt_deadline_and_log(app, client, runner):
    made, (a, b) = _toy(runner)
    resp = checked(client.get(f"/api/v1/seat/{a}"))
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    data = resp.get_json()
    assert data["seat"] == made["seats"][0]["seat"]
    assert data["game"]["id"] == made["game"] and data["game"]["status"] == "running"
    assert data["game"]["seed"] is None and data["game"]["deadline"]
    assert data["owes"] is True and data["prompt"]["forms"]
    assert "state" not in data


def test_post_notation_returns_receipt_and_resolution(app, client, runner):
    made, (a, b) = _toy(runner)
    seat = client.get(f"/api/v1/seat/{a}").get_json()
    example = seat["prompt"]["example"]
    resp = post(client, a, {"notation": example, "step_no": seat["game"]["step_no"]})
    assert resp.status_code == 201, resp.get_data(as_text=True)
    got = resp.get_json()
    assert got["status"] == "stored" and got["step_no"] == 1 and len(got["receipt"]) == 64
    with Session(get_engine(app)) as s:
        row = s.get(Order, got["order_id"])
        assert row.source == "api"
    again = client.get(f"/api/v1/seat/{a}").get_json()
    assert again["order_on_file"]["receipt"] == got["receipt"]
    # the page shows the same receipt
    page = client.get(path_of(made["seats"][0]["link"]) + f"?done=saved&r={got['order_id']}").get_data(as_text=True)
    assert got["receipt"] in page


def test_json_order_goes_through_the_gate(app, client, runner):
    made, (a, b) = _toy(runner)
    seat = client.get(f"/api/v1/seat/{a}").get_json()
    form = seat["prompt"]["forms"][0]
    order = dict(form.get("base") or {})
    for field in form.get("fields") or []:
        if field.get("type") == "choice":
            order[field["name"]] = field["choices"][0]["value"]
        elif field.get("type") == "int":
            order[field["name"]] = field.get("min") or 0
    resp = post(client, a, {"order": order})
    assert resp.status_code in (201, 422), resp.get_data(as_text=True)


def test_refusals_and_errors_are_json(app, client, runner):
    made, (a, b) = _toy(runner)
    bad = post(client, a, {"notation": "NOT AN ORDER <x>"})
    assert bad.status_code == 422 and bad.get_json()["error"] == "refused" and bad.get_json()["message"]
    closed = post(client, a, {"notation": "x", "step_no": 99})
    assert closed.status_code == 409 and closed.get_json()["error"] == "closed"
    both = post(client, a, {"notation": "x", "order": {}})
    assert both.status_code == 400
    not_json = client.post(f"/api/v1/seat/{a}/orders", data="notation=x")
    assert not_json.status_code == 415 and not_json.get_json()["error"] == "unsupported_media_type"
    unknown = checked(client.get("/api/v1/seat/" + "x" * 43))
    assert unknown.status_code == 404 and unknown.get_json()["error"] == "not_found"
    assert checked(client.get("/api/v1/game/999999")).status_code == 404
    for resp in (client.get("/api/v1/nothing"), client.put(f"/api/v1/seat/{a}"),
                 client.get(f"/api/v1/seat/{a}?since=abc")):
        assert resp.status_code in (400, 404, 405) and resp.mimetype == "application/json", resp.status_code
        assert json.loads(resp.get_data(as_text=True))["error"]
        assert resp.headers["Cache-Control"] == "no-store"


def test_bad_tokens_are_rate_limited_like_the_pages(app, client, runner):
    app.config["RATELIMIT_BAD_TOKENS"] = "3 per minute"
    made, (a, b) = _toy(runner)
    codes = [client.get("/api/v1/seat/" + "y" * 43).status_code for _ in range(5)]
    assert codes[:3] == [404, 404, 404] and codes[-1] == 429
    limited = checked(client.get("/api/v1/seat/" + "y" * 43))
    assert limited.status_code == 429 and limited.get_json()["error"] == "too_many_requests"


def test_public_view_and_openapi_document(app, client, runner):
    made, (a, b) = _toy(runner)
    resp = checked(client.get(f"/api/v1/game/{made['game']}"))
    data = resp.get_json()
    assert data["game"]["id"] == made["game"] and {s["seat"] for s in data["seats"]} == {
        s["seat"] for s in made["seats"]}
    doc = client.get("/api/v1/openapi.yaml")
    assert doc.status_code == 200 and doc.get_data(as_text=True).startswith("openapi: 3.1")


def test_language_parameter_does_not_store(app, client, runner):
    made, (a, b) = _toy(runner)
    assert client.get(f"/api/v1/seat/{a}?lang=pt").get_json()["language"] == "pt"
    assert client.get(f"/api/v1/seat/{a}").get_json()["language"] == "en"
    assert game_row(app, made["game"]).status == "running"


def test_api_tokens_are_masked_in_logs():
    from app.logs import redact

    token = "A" * 43
    for path in (f"/api/v1/seat/{token}", f"/api/v1/seat/{token}/orders?lang=pt"):
        assert token not in redact(f'"GET {path} HTTP/1.1" 200')


def test_public_game_follows_the_browsers_language(app, client, runner):
    made, _tokens = _toy(runner)
    resp = checked(client.get(f"/api/v1/game/{made['game']}", headers={"Accept-Language": "pt-PT,pt;q=0.9"}))
    assert resp.get_json()["language"] == "pt"
    assert checked(client.get(f"/api/v1/game/{made['game']}?lang=el")).get_json()["language"] == "el"
