"""The front page."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from app.games import all_games

bp = Blueprint("site", __name__)


@bp.route("/")
def index() -> str:
    return render_template("web/index.html", games=all_games(), dev=current_app.config["DEV_MAILBOX"])
