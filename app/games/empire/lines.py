"""An order line in the player's words (for refusals): ``Westgold: 2 Wood for 1 Iron``, not notation."""

from __future__ import annotations

from typing import Any

from app.games.empire import data
from app.games.empire.notation import canonical
from app.games.empire.text import amount, offer_ref, province, troop, troop_list
from app.games.text import listing, msg, name


def describe(d: dict[str, Any]) -> Any:
    """A parsed order line as a message (its notation if it is none of the known lines)."""
    op = d.get("op")
    if op == "OFFER":
        give, get = amount(d["give_n"], d["give"]), amount(d["get_n"], d["get"])
        if "to" in d:
            return msg("line.offer_to", give=give, get=get, seat=name("colour", d["to"]))
        return msg("line.offer", give=give, get=get)
    if op == "PACT":
        return msg("line.pact", seat=name("colour", d["with"]), province=province(d["province"]))
    if op in ("ACCEPT_OFFER", "DECLINE_OFFER", "DECLINE_PACT"):
        return msg(f"line.{op.lower()}", **offer_ref(d["id"]))
    if op == "ACCEPT_PACT":
        return msg("line.accept_pact", **offer_ref(d["id"]), province=province(d["province"]))
    if op == "MARKET" and d["side"] == "BUY":
        return msg("line.buy", got=amount(data.MARKET_BUY_RATE * d["n"], d["res"]), gold=amount(d["n"], "GOLD"))
    if op == "MARKET":
        return msg("line.sell", sold=amount(d["n"], d["res"]))
    if op == "BUILD":
        return msg("line.build", building=name("building", d["what"]), province=province(d["province"]))
    if op == "MOVE":
        return msg("line.move", troop=troop(d["troop"]), province=province(d["province"]))
    if op == "MODE" and "target" in d:
        return msg("line.mode_target", troop=troop(d["troop"]), mode=name("mode", d["mode"]) if d["mode"]
                   in data.MODES else d["mode"], seat=name("colour", d["target"]))
    if op == "MODE":
        return msg("line.mode", troop=troop(d["troop"]),
                   mode=name("mode", d["mode"]) if d["mode"] in data.MODES else d["mode"])
    if op == "LOSSES":
        return msg("line.losses", troops=troop_list(d["troops"]))
    if op in ("LOSE", "LOSE_FOR"):
        return msg("line.lose", troops=troop_list(d["troops"]))
    if op == "ROUTE_GOLD":
        return msg("line.route_gold", n=d["n"])
    if op == "ROUTE_TROOPS":
        return msg("line.route_troops", n=d["n"], province=province(d["province"]))
    if op == "TRIBUTE_FREE":
        return msg("line.tribute_free", res=name("resource", d["res"]))
    if op == "TRIBUTE_SIMPLE":
        return msg("line.tribute_simple", a=name("resource", d["res"][0]), b=name("resource", d["res"][1]))
    if op == "PAY":
        what = listing([amount(1, r) for r in d["res"]]) if d["res"] else msg("label.nothing")
        return msg("line.pay", what=what)
    return str(op)


def order_in_words(order: dict[str, Any]) -> Any:
    """A whole order (notation dict or a form's fields) in words: each line described, joined by
    " · " (``{"parts": [...]}``), or what an empty order means in its window."""
    o = canonical(order)
    parts = [describe(d) for d in o["lines"]]
    return {"parts": parts} if parts else msg(f"words.none.{o['type']}")
