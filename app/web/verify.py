"""Public verification pages: the dice commitment, the replay verdict, the export.

``/g/<id>/verify`` shows the seed commitment while a game runs; after the end
it shows the revealed seed, the verdict of a full replay and every order with
its receipt nonce.  ``/g/<id>/export.json`` is the finished game as data (what
``flask --app app verify --file`` checks).
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, make_response, render_template

from app.db import get_session
from app.kinds import GameStatus
from app.models import Game
from app.verify import ReplayReport, export_game, replay_export

bp = Blueprint("verify", __name__, url_prefix="/g")

#: Replay verdicts of finished games (they never change), per process.
_verdicts: dict[tuple[int, str], ReplayReport] = {}


def _game(game_id: int) -> Game:
    if game_id > 2**63 - 1:  # beyond any database integer
        abort(404)
    game = get_session().get(Game, game_id)
    return game or abort(404)


@bp.route("/<int:game_id>/verify", methods=["GET", "HEAD"])
def verify_page(game_id: int) -> Response:
    game = _game(game_id)
    report = None
    receipts: list[dict] = []
    if game.status == GameStatus.FINISHED:
        data = export_game(get_session(), game, str(current_app.config["SECRET_KEY"]))
        cache_key = (game.id or 0, game.seed_hash)
        report = _verdicts.get(cache_key)
        if report is None:
            report = _verdicts[cache_key] = replay_export(data)
        receipts = data["receipts"]
    resp = make_response(render_template("web/verify.html", game=game, report=report, receipts=receipts))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.route("/<int:game_id>/export.json", methods=["GET", "HEAD"])
def export_json(game_id: int) -> Response:
    game = _game(game_id)
    if game.status != GameStatus.FINISHED:
        body = {"game": game.id, "status": game.status, "seed_hash": game.seed_hash,
                "error": "The game has not ended: its seed and orders are revealed at the end."}
        resp = make_response(json.dumps(body), 409)
    else:
        data = export_game(get_session(), game, str(current_app.config["SECRET_KEY"]))
        resp = make_response(json.dumps(data, indent=1, sort_keys=True))
        resp.headers["Content-Disposition"] = f'inline; filename="game-{game.id}-export.json"'
    resp.headers["Content-Type"] = "application/json"
    resp.headers["Cache-Control"] = "no-store"
    return resp
