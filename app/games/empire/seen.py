"""What the bot reasons on: the game rebuilt from one seat's view.

The bot decides from what its seat may know, by construction: ``seen(view)`` rebuilds
a state of the usual shape from ``view(state, seat)`` alone.  Everything public is
there as it is; of what is hidden, only the seat's own part (its objectives, losses,
tribute preference, payments owed) is filled in; other seats' objectives, the deck's
order and the offers and pacts proposed between others are left empty.
"""

from __future__ import annotations

from typing import Any

from app.games.empire.state import State

_OFFER_EXTRAS = ("from_colour", "to_colour", "give_amount", "get_amount")
_PROPOSAL_EXTRAS = ("from_colour", "to_colour", "province_name")
_PACT_EXTRAS = ("colours", "colour_names", "province_names")


def _strip(item: dict[str, Any], extras: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in extras}


def _player(view: dict[str, Any], p: dict[str, Any], seat_of: dict[str, str]) -> dict[str, Any]:
    mine = p["seat"] == view["seat"]
    private = view.get("private") or {}
    objectives = private.get("objectives", []) if mine else []
    return {
        "colour": p["colour"], "res": dict(p["res"]), "spoils": p["spoils"],
        "trade": [seat_of[c] for c in p["trade_partners"]], "trade_round": p["trade_round"],
        "peace": p["peace"], "objectives": [o["code"] for o in objectives],
        "completed": [o["code"] for o in objectives if o["completed"]],
        "losses": list(private.get("losses", [])) if mine else [],
        "pref": dict(private.get("tribute_preference", {})) if mine else {},
        "effects": list(p["effects"]), "eliminated": p["eliminated"], "next": dict(p["next"]),
    }


def seen(view: dict[str, Any]) -> State:
    """A state of the usual shape holding only what ``view``'s seat may know."""
    seat = view["seat"]
    seat_of = {c: s for s, c in view["colours"].items()}
    private = view.get("private") or {}
    chooser = private.get("choosing_for")
    return {
        "options": {"mode": view["mode"], "round_limit": view["round_limit"]},
        "seats": [p["seat"] for p in view["players"]],
        "colour": dict(view["colours"]),
        "round": view["round"], "first": view["first"], "phase": view["phase"],
        "tribute": view["tribute"], "tribute_roll": view.get("tribute_roll"),
        "players": {p["seat"]: _player(view, p, seat_of) for p in view["players"]},
        "provinces": {str(p["id"]): {"owner": p["owner"], "building": p["building"], "centre": p["centre"]}
                      for p in view["provinces"]},
        "troops": {t["id"]: {"owner": t["owner"], "kind": t["kind"], "num": t["num"], "province": t["province"],
                             "mode": t["mode"], **({"target": t["target"]} if t.get("target") else {})}
                   for t in view["troops"]},
        "deck": [], "discard": list(view["discard"]),
        "revealed": {p["seat"]: p["setback"]["card"] for p in view["players"] if p["setback"]},
        "offers": [_strip(o, _OFFER_EXTRAS) for o in view["offers"]],
        "pact_props": [_strip(p, _PROPOSAL_EXTRAS) for p in view["pact_proposals"]],
        "pacts": [_strip(x, _PACT_EXTRAS) for x in view["pacts"]],
        "maint": dict(view["maintenance_due"]),
        "choosers": {seat: seat_of[chooser]} if chooser else {},
        "pay_window": {seat: private["payments_owed"]} if view["phase"] == "T9" and seat in view["owed"] else {},
        "result": None,
    }
