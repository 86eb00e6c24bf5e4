"""Reading the conquest order forms off a seat page the way a browser would send them."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

from sqlmodel import Session, select

from app.db import get_engine
from app.models import Game, Order


class _Forms(HTMLParser):
    """Every <form class="order ..."> of the page: its fields as a browser would post them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self.form: dict[str, Any] | None = None
        self.select: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "order" in a.get("class", "").split() and "anytime" not in a.get("class", ""):
            self.form = {"attrs": a, "hidden": {}, "numbers": [], "selects": {}, "button": ""}
        elif self.form is None:
            return
        elif tag == "input" and a.get("type") == "hidden":
            self.form["hidden"][a["name"]] = a.get("value", "")
        elif tag == "input" and a.get("type") == "number":
            self.form["numbers"].append(a)
        elif tag == "select" and a.get("name"):
            self.select = {"name": a["name"], "options": [], "selected": None}
            self.form["selects"][a["name"]] = self.select
        elif tag == "option" and self.select is not None:
            self.select["options"].append(a.get("value", ""))
            if "selected" in a:
                self.select["selected"] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "form" and self.form is not None:
            self.forms.append(self.form)
            self.form = None

    def handle_data(self, data: str) -> None:
        if self.form is not None and self.lasttag == "button" and data.strip():
            self.form["button"] = data.strip()


def order_forms(html: str) -> list[dict[str, Any]]:
    """The order forms of the page's "orders" section (not the notation box, not the anytime forms)."""
    section = html[html.index('id="orders"'):html.index("</section>", html.index('id="orders"'))]
    parser = _Forms()
    parser.feed(section)
    return [f for f in parser.forms if "form_index" in f["hidden"]]


def default_post(form: dict[str, Any], numbers: dict[str, str] | None = None) -> dict[str, str]:
    """What the form sends as drawn (each select's chosen option, each number box's value)."""
    data = dict(form["hidden"])
    for name, sel in form["selects"].items():
        data[name] = sel["selected"] if sel["selected"] is not None else sel["options"][0]
    for box in form["numbers"]:
        data[box["name"]] = box.get("value", "")
    data.update(numbers or {})
    return data


def place_all(form: dict[str, Any], pools: dict[str, int], theatre_of: dict[str, str]) -> dict[str, str]:
    """Number boxes filled to place every army of ``pools`` (theatre pools first, then general)."""
    left = dict(pools)
    out: dict[str, str] = {}
    for box in form["numbers"]:
        t = box["name"]
        h = theatre_of[t]
        n = left.get(h, 0) + left.get("G", 0)
        if n:
            out[t] = str(n)
            left[h], left["G"] = 0, 0
    return out


def game(app: Any, game_id: int) -> Game:
    with Session(get_engine(app)) as s:
        row = s.get(Game, game_id)
        assert row is not None
        return row


def order_count(app: Any, game_id: int) -> int:
    with Session(get_engine(app)) as s:
        return len(s.exec(select(Order).where(Order.game_id == game_id)).all())


def made(output: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(output)
    return out
