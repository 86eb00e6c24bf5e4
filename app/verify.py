"""Verifiable dice and order receipts.

A game's secret seed is committed at the start (its SHA-256 is on every page
and report) and revealed when the game ends.  ``replay_game`` then replays the
game from its options, the revealed seed and the stored orders, and confirms
that every stored step state, every default order and every bot order is what
the seed gives: no die was rolled and no card shuffled other than the seed says.

Order receipts: when a player submits an order they get
``SHA-256(canonical JSON of the order + nonce)``, the nonce being an HMAC of
the order's id under the server key.  The nonces are published with the orders
when the game ends, so anyone can recompute every receipt.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlmodel import Session, select

from app.db import get_engine, get_session
from app.games import get_rules
from app.games.base import ANYTIME_STEP, bot_order, round_trip, step_rng
from app.kinds import MACHINE_SOURCES, GameStatus, OrderSource
from app.models import Game, Order, Seat, Step
from app.tokens import seed_hash

EXPORT_FORMAT = "pbem-game-export/1"


# --------------------------------------------------------------------------- receipts


def canonical_json(order: Any) -> str:
    """The one spelling of an order that receipts hash (sorted keys, no spaces, UTF-8)."""
    return json.dumps(order, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def order_nonce(key: str, order_id: int) -> str:
    """The secret nonce of a stored order (revealed at the end of the game)."""
    return hmac.new(str(key).encode(), f"receipt|{order_id}".encode(), hashlib.sha256).hexdigest()


def receipt_of(order: Any, nonce: str) -> str:
    """``SHA-256(canonical_json(order) + nonce)`` as hex."""
    return hashlib.sha256((canonical_json(order) + nonce).encode("utf-8")).hexdigest()


def order_receipt(key: str, order_id: int, order: Any) -> str:
    return receipt_of(order, order_nonce(key, order_id))


# --------------------------------------------------------------------------- replay


@dataclass
class ReplayReport:
    """What a replay found: ``ok`` when every check passed."""

    game_id: int | None
    slug: str
    seed_ok: bool = False
    steps_checked: int = 0
    defaults_checked: int = 0
    bot_orders_checked: int = 0
    receipts_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.seed_ok and not self.problems and self.steps_checked > 0

    def summary(self) -> str:
        verdict = "OK" if self.ok else "MISMATCH"
        return (f"{verdict}: game {self.game_id} ({self.slug}): seed matches commitment: "
                f"{'yes' if self.seed_ok else 'no'}; {self.steps_checked} steps replayed, "
                f"{self.defaults_checked} default and {self.bot_orders_checked} bot orders re-drawn, "
                f"{self.receipts_checked} receipts checked; {len(self.problems)} problems")

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "game": self.game_id, "slug": self.slug, "seed_ok": self.seed_ok,
                "steps_checked": self.steps_checked, "defaults_checked": self.defaults_checked,
                "bot_orders_checked": self.bot_orders_checked, "receipts_checked": self.receipts_checked,
                "problems": list(self.problems)}


def replay_export(data: dict[str, Any]) -> ReplayReport:
    """Replay an exported game (``export_game``'s dict, e.g. read from a file)."""
    report = ReplayReport(data.get("game"), str(data.get("slug", "")))
    seed = data.get("seed") or ""
    if not seed:
        report.problems.append("the seed is not revealed (the game has not ended)")
        return report
    report.seed_ok = seed_hash(seed) == data.get("seed_hash")
    if not report.seed_ok:
        report.problems.append("the revealed seed does not match the published commitment")
    try:
        rules = get_rules(report.slug)
    except LookupError as exc:
        report.problems.append(str(exc))
        return report
    options = data.get("options") or {}
    seats = rules.seats(options)
    bots = set(data.get("bots") or [])
    state = round_trip(rules.setup(options, seats, step_rng(seed, 0, "setup")))
    steps = sorted(data.get("steps") or [], key=lambda s: s["step_no"])
    for index, step in enumerate(steps):
        step_no = step["step_no"]
        if step.get("state") is not None and round_trip(step["state"]) != state:
            report.problems.append(f"step {step_no}: the stored state differs from the replayed one")
            return report
        orders = step.get("orders")
        if orders is None:  # the open (or final) step: nothing applied
            continue
        apply: Callable[..., tuple[dict[str, Any], list[dict[str, Any]]]]
        args: tuple[Any, ...]
        if ANYTIME_STEP in orders:  # closed by an order sent at any time, not by a resolution
            sent = orders[ANYTIME_STEP]
            apply, args = rules.apply_anytime, (sent["seat"], sent["order"], step_rng(seed, step_no, "anytime"))
        else:
            sources = step.get("sources") or {}
            for seat in step.get("defaulted") or []:
                # a missed order is the game's default, or the auto-command's once a seat is in civil disorder
                drawn = [rules.default_order(state, seat, step_rng(seed, step_no, f"default:{seat}"))]
                if sources.get(seat) != OrderSource.DEFAULT:
                    drawn.append(bot_order(rules, state, seat, step_rng(seed, step_no, f"bot:{seat}")))
                report.defaults_checked += 1
                if orders.get(seat) not in [round_trip(o) for o in drawn]:
                    report.problems.append(f"step {step_no}: {seat}'s default order is not the seeded one")
            for seat in sorted(bots):
                if seat in orders and seat not in (step.get("defaulted") or []):
                    want = bot_order(rules, state, seat, step_rng(seed, step_no, f"bot:{seat}"))
                    report.bot_orders_checked += 1
                    if round_trip(want) != orders[seat]:
                        report.problems.append(f"step {step_no}: bot {seat}'s order is not the seeded one")
            apply, args = rules.resolve, (orders, step_rng(seed, step_no))
        try:
            new_state, _events = apply(state, *args)
        except Exception as exc:  # noqa: BLE001 (a replay failure is a finding, not a crash)
            report.problems.append(f"step {step_no}: replay failed: {type(exc).__name__}: {exc}")
            return report
        state = round_trip(new_state)
        report.steps_checked += 1
        if index == len(steps) - 1:
            report.problems.append(f"step {step_no}: no stored state after the last resolution")
    if data.get("final_state") is not None and round_trip(data["final_state"]) != state:
        report.problems.append("the final state differs from the replayed one")
    for row in data.get("receipts") or []:
        report.receipts_checked += 1
        if receipt_of(row["order"], row["nonce"]) != row["receipt"]:
            report.problems.append(f"order {row.get('id')}: the receipt does not match the order")
    return report


def export_game(session: Any, game: Any, key: str) -> dict[str, Any]:
    """A finished game as JSON data: options, seed, every step's orders and states, every receipt.

    :raises ValueError: the game has not finished (its seed and orders are still secret).
    """
    if game.status != GameStatus.FINISHED:
        raise ValueError("the game has not finished: its seed and orders are still secret")
    steps = session.exec(select(Step).where(Step.game_id == game.id).order_by(Step.step_no)).all()
    seats = session.exec(select(Seat).where(Seat.game_id == game.id)).all()
    orders = session.exec(select(Order).where(Order.game_id == game.id).order_by(Order.id)).all()
    return {
        "format": EXPORT_FORMAT,
        "game": game.id, "slug": game.slug, "title": game.title, "options": game.options,
        "seed": game.seed, "seed_hash": game.seed_hash,
        "bots": sorted(s.seat for s in seats if s.is_bot),
        "steps": [{"step_no": s.step_no, "turn_key": s.turn_key, "state": s.state, "orders": s.orders,
                   "defaulted": s.defaulted,
                   "sources": {o.seat: o.source for o in orders
                               if o.step_no == s.step_no and o.source in MACHINE_SOURCES}}
                  for s in steps],
        "final_state": game.state,
        "receipts": [{"id": o.id, "step_no": o.step_no, "seat": o.seat, "source": o.source, "text": o.text,
                      "order": o.order, "canonical": canonical_json(o.order),
                      "nonce": order_nonce(key, o.id or 0), "receipt": order_receipt(key, o.id or 0, o.order)}
                     for o in orders],
    }


def replay_game(game: Any, session: Any = None) -> ReplayReport:
    """Replay a finished game from the database and check every step against it.

    Needs an application context when ``session`` is not given.
    """
    if game.status != GameStatus.FINISHED:
        report = ReplayReport(game.id, game.slug)
        report.problems.append("the game has not ended: its seed is still secret")
        return report
    key = str(current_app.config["SECRET_KEY"])
    if session is None:
        with Session(get_engine()) as own:
            return replay_export(export_game(own, game, key))
    return replay_export(export_game(session, game, key))


# --------------------------------------------------------------------------- command line


def _verify_command() -> Any:
    @click.command("verify")
    @click.argument("game_id", type=int, required=False)
    @click.option("--file", "path", type=click.Path(exists=True, dir_okay=False),
                  help="Check an exported game (export.json) instead of the database.")
    @with_appcontext
    def verify_command(game_id: int | None, path: str | None) -> None:
        """Replay a finished game from its revealed seed and orders; exit 1 on any mismatch."""
        if path:
            with open(path, encoding="utf-8") as fh:
                report = replay_export(json.load(fh))
        elif game_id is None:
            raise click.UsageError("give a GAME_ID or --file")
        else:
            game = get_session().get(Game, game_id)
            if game is None:
                raise click.ClickException(f"no game {game_id}")
            report = replay_game(game, get_session())
        click.echo(json.dumps(report.as_dict()))
        click.echo(report.summary())
        if not report.ok:
            raise SystemExit(1)

    return verify_command


verify_command = _verify_command()
