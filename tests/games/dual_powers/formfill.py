"""Filling a Dual Powers prompt form with legal values, as a player using the page would."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

from app.games.dual_powers import data

FORM_KIND = {"OBJECTIVE": "objective", "PLACE": "place"}


def kind_of(form: dict[str, Any]) -> str:
    """A short name of a form: objective, place, score, bonus or the PLAY action (move, pass ...)."""
    base = form["base"]
    if base["type"] in FORM_KIND:
        return FORM_KIND[base["type"]]
    if base["type"] == "UNREST":
        return base["choice"].lower()
    return str(base["action"]).lower()


def _field(form: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((f for f in form["fields"] if f["name"] == name), None)


def _allowed(field: dict[str, Any], values: dict[str, Any]) -> list[str]:
    parent = field.get("depends_on")
    return [c["value"] for c in field["choices"]
            if not parent or "when" not in c or values.get(parent) in c["when"]]


def legal_values(form: dict[str, Any], rng: Random) -> dict[str, Any]:
    """Field values (as posted: strings, lists for checkboxes) that the form offers together."""
    values: dict[str, Any] = {}
    if form.get("combos"):  # the legal combinations, bonus action included (None: left empty)
        values.update({k: v for k, v in rng.choice(form["combos"]).items() if v is not None})
        route = [r for r in form.get("routes", []) if r["token"] == values.get("token") and r["to"] == values.get("to")]
        if route:
            values["via"] = route[0]["via"]
    for field in form["fields"]:
        name = field["name"]
        if name in values or name == "via" or name.startswith("bonus") or name == "connection":
            continue
        if field["type"] == "multi":
            limit = data.CARDS[values["card"]]["recruit"]
            fits = [c["value"] for c in field["choices"] if c["recruit"] <= limit]
            values[name] = [rng.choice(fits)]
        elif field["type"] == "bool":
            if name == "special":
                values[name] = "on"
        elif field.get("required", True) or name == "region":
            values[name] = rng.choice(_allowed(field, values))
    conn = _field(form, "connection")
    if conn and "special" in values:
        picks = _allowed(conn, values)
        if picks:
            values["connection"] = rng.choice(picks)
    bonus = _field(form, "bonus")
    if bonus and "bonus" in (form.get("combos") or [{}])[0]:
        return values
    if bonus and (bonus.get("required", True) or (kind_of(form) in ("pass", "place") and rng.random() < 0.5)):
        kinds = _allowed(bonus, values)
        if kinds:
            values["bonus"] = rng.choice(kinds)
            for name in ("bonus_token", "bonus_to"):
                field = _field(form, name)
                picks = _allowed(field, values) if field else []
                if picks:
                    values[name] = rng.choice(picks)
    return values


def each_turn(app: Any, game_id: int, most: int) -> Iterator[tuple[Any, str, list[dict[str, Any]]]]:
    """(the game, a seat that owes, its forms) once per step and seat, up to ``most`` times, while the
    game runs: the caller answers each before the next is read."""
    from tests.platform.helpers import game_row

    sent: set[tuple[int, str]] = set()
    for _ in range(most):
        game = game_row(app, game_id)
        if not game.owed or game.status != "running":
            return
        seat = next(s for s in sorted(game.owed) if (game.step_no, s) not in sent)
        sent.add((game.step_no, seat))
        yield game, seat, game.owed[seat]["forms"]


def send_and_see_it_stored(page, box) -> None:
    """Send the form open in ``box`` (a Chromium page) and check that the page says the order is on file."""
    box.locator("button[type=submit]").first.click()
    page.wait_for_load_state()
    assert "Your order" in page.inner_text("body")
    page.context.close()
