"""A board alone, full size: ``/p/<token>/board`` (the seat's own view) and ``/g/<id>/board`` (a spectator's).

The page holds the SVG and little else, so that a phone can zoom it (pinch or the
browser's zoom); each shows exactly what the page it opens from shows.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, make_response, render_template, request

from app.db import get_session
from app.games import get_rules
from app.models import Game
from app.render_env import game_svg
from app.web.play import find_seat

bp = Blueprint("boards", __name__)

#: The width of an SVG's viewBox: its "actual size" in CSS pixels.
VIEWBOX = re.compile(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)')


def _page(game: Game, seat: str | None, back: str) -> Response:
    rules = get_rules(game.slug)
    svg = game_svg(game.slug, rules.view(game.state, seat), seat) if rules.draws_board else ""
    box = VIEWBOX.search(svg[:2000])
    natural = max(int(float(box.group(1))), 600) if box else 1200
    actual = request.args.get("actual") == "1"  # the SVG at its own size (pan), else fitting the screen (pinch)
    resp = make_response(render_template("web/board.html", game=game, seat=seat, svg=svg, back=back, actual=actual,
                                         natural=natural))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/p/<token>/board", methods=["GET", "HEAD"])
def seat_board(token: str) -> Response:
    game, seat = find_seat(token)
    return _page(game, seat.seat, f"/p/{token}")


@bp.route("/g/<int:game_id>/board", methods=["GET", "HEAD"])
def public_board(game_id: int) -> Response:
    game = get_session().get(Game, game_id) or abort(404)
    return _page(game, None, f"/g/{game.id}")
