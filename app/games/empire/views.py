"""Views: what one seat (or the public) may see (spec §7)."""

from __future__ import annotations

from typing import Any

from app.games.empire import data
from app.games.empire.prompts import owed_seats
from app.games.empire.state import State, controlled, round_order, troops_of
from app.games.empire.text import amount, card_told, province, tribute_name, troop_list
from app.games.empire.text import card as card_label
from app.games.text import name


def objective_card(code: str, completed: bool) -> dict[str, Any]:
    card = {"id": f"objective:{code}", "code": code, "name": name("objective", code),
            "text": name("objective_text", code), "completed": completed}
    if completed:  # Long mode: completion is as secret as the card (spec §7)
        card["status"] = f"objective:{code}:completed"
    return card


def view(state: State, seat: str | None) -> dict[str, Any]:
    over = state["phase"] == "over"
    colour = state["colour"]
    players = []
    for s in state["seats"]:
        pl = state["players"][s]
        mine = troops_of(state, s)
        card = state["revealed"].get(s)
        players.append({
            "seat": s, "colour": pl["colour"], "res": dict(pl["res"]), "spoils": pl["spoils"],
            "trade_markers": len(pl["trade"]), "trade_partners": [colour[x] for x in pl["trade"]],
            "provinces": len(controlled(state, s)), "troops": len(mine),
            "heavy": sum(state["troops"][t]["kind"] == "H" for t in mine),
            "eliminated": pl["eliminated"], "objective_count": len(pl["objectives"]),
            "setback": None if card is None else {"card": card, "name": name("card", card[:3]),
                                                  "label": card_label(card),
                                                  "text": card_told(card, pl["colour"])},
            "effects": list(pl["effects"]),
            "trade_round": pl["trade_round"], "peace": pl["peace"], "next": dict(pl["next"]),
        })
    peace = {p for x in state["pacts"] for p in x["provinces"]}
    provinces = []
    for p, info in data.PROVINCES.items():
        prov = state["provinces"][str(p)]
        provinces.append({"id": p, "name": name("province", str(p)), "res": info["res"], "amount": info["amount"],
                          "adj": list(info["adj"]), "owner": prov["owner"],
                          "owner_colour": colour.get(prov["owner"]) if prov["owner"] else None,
                          "building": prov["building"], "centre": prov["centre"], "peace": p in peace})
    troops = [{"id": t, "owner": v["owner"], "colour": colour[v["owner"]], "kind": v["kind"],
               "num": v["num"], "province": v["province"], "mode": v["mode"], "target": v.get("target")}
              for t, v in state["troops"].items()]
    offers = [dict(o, from_colour=colour[o["from"]], to_colour=colour.get(o["to"]) if o["to"] else None,
                   give_amount=amount(o["give_n"], o["give"]), get_amount=amount(o["get_n"], o["get"]))
              for o in state["offers"] if o["to"] is None or seat in (o["from"], o["to"])]
    props = [dict(p, from_colour=colour[p["from"]], to_colour=colour[p["to"]], province_name=province(p["province"]))
             for p in state["pact_props"] if seat in (p["from"], p["to"])]
    out: dict[str, Any] = {
        "seat": seat, "round": state["round"], "phase": state["phase"],
        "turn": name("phase", state["phase"]),
        "mode": state["options"]["mode"], "round_limit": state["options"]["round_limit"],
        "first": state["first"], "round_order": round_order(state), "colours": dict(colour),
        "tribute": state["tribute"], "tribute_roll": state.get("tribute_roll"),
        "tribute_name": tribute_name(state["tribute"]) if state["tribute"] else None,
        "players": players, "provinces": provinces, "troops": troops,
        "pacts": [dict(x, colours=[colour[s] for s in x["parties"]],
                        colour_names=[name("colour", colour[s]) for s in x["parties"]],
                        province_names=[province(p) for p in x["provinces"]]) for x in state["pacts"]],
        "offers": offers, "pact_proposals": props,
        "deck_size": len(state["deck"]), "discard": list(state["discard"]),
        "owed": owed_seats(state), "game_over": over, "winners": state.get("winners", []),
        "maintenance_due": dict(state["maint"]) if state["phase"] in ("T7A", "T7B") else {},
    }
    if over:
        out["objectives"] = {s: [objective_card(o, o in state["players"][s]["completed"])
                                 for o in state["players"][s]["objectives"]] for s in state["seats"]}
        out["undealt_objectives"] = list(state.get("undealt", []))
    if seat in state["players"]:
        pl = state["players"][seat]
        out["private"] = {
            "colour": pl["colour"],
            "objectives": [objective_card(o, o in pl["completed"]) for o in pl["objectives"]],
            "losses": list(pl["losses"]), "losses_named": troop_list(pl["losses"]),
            "tribute_preference": dict(pl["pref"]),
            "payments_owed": state["pay_window"].get(seat, 0),
            "must_remove": state["maint"].get(seat, 0),
            "choosing_for": colour.get(state["choosers"].get(seat, ""), None),
        }
        if over:
            out["private"]["objectives"] = []
    return out
