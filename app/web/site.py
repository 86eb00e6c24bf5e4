"""The front page."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from app.games import all_games

bp = Blueprint("site", __name__)


@bp.route("/")
def index() -> str:
    # "Start a game" only where anyone may (a server with a creation key gives its GMs the page's address)
    open_to_all = not current_app.config.get("GM_CREATE_KEY") and current_app.config["ENV_NAME"] != "production"
    return render_template("web/index.html", games=all_games(), dev=current_app.config["DEV_MAILBOX"],
                           may_start=open_to_all)
