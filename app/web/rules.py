"""A one-page summary of a game's rules: ``/rules/<slug>``.

A game that ships ``templates/games/<slug>/rules.html`` has it shown inside the page;
any other game gets a generic page drawn from its title, seats and default options.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template
from jinja2 import TemplateNotFound

from app.games import all_games, get_rules

bp = Blueprint("rules", __name__)


def _own_page(slug: str) -> str | None:
    name = f"games/{slug}/rules.html"
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return None
    return name


@bp.route("/rules/<slug>", methods=["GET", "HEAD"])
def summary(slug: str) -> str:
    if slug not in all_games():
        abort(404)
    rules = get_rules(slug)
    options: dict[str, Any] = rules.default_options()
    return render_template("web/rules.html", slug=slug, rules=rules, options=options,
                           seats=rules.seats(options), own=_own_page(slug))
