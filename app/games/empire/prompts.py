"""Prompts: what each owed seat must decide, with forms drawn from the state."""

from __future__ import annotations

from typing import Any

from app.games.empire import data, tribute
from app.games.empire.notation import format_line
from app.games.empire.state import State, active, controlled, name, owner, troops_of, who
from app.games.empire.text import amount, amounts, province, res_name, seat_name, tribute_name
from app.games.empire.windows import open_to
from app.games.text import msg
from app.games.text import name as term

KIND = {"T3A": "diplomacy_propose", "T3B": "diplomacy_answer", "T4": "admin",
        "T7A": "maintenance_loss", "T7B": "maintenance_loss", "T8": "population", "T9": "tribute_choice"}
ORDER_TYPE = {"T3A": "PROPOSE", "T3B": "ANSWER", "T4": "ADMIN", "T7A": "LOSE", "T7B": "LOSE",
              "T8": "ROUTE", "T9": "PAY"}


def owed_seats(state: State) -> list[str]:
    ph = state["phase"]
    if ph in ("T3A", "T4", "T8"):
        return active(state)
    if ph == "T3B":
        return [s for s in active(state) if any(open_to(state, s))]
    if ph == "T7A":
        return [s for s in active(state) if s in state["maint"]]
    if ph == "T7B":
        return [s for s in active(state) if s in state["choosers"]]
    if ph == "T9":
        return [s for s in active(state) if s in state["pay_window"]]
    return []


def _choice(value: str, label: Any = None) -> dict[str, Any]:
    """A choice: its value is notation; its label a message (or the notation itself)."""
    return {"value": value, "label": label or value}


def _text_form(kind: str, example: str) -> dict[str, Any]:
    return {"label": msg("prompt.text_form"), "base": {"type": kind},
            "fields": [{"name": "text", "label": msg("prompt.text_field", example=example),
                        "type": "text", "required": False}]}


def _others(state: State, seat: str) -> list[str]:
    return [name(state, s) for s in active(state) if s != seat]


Text = tuple[Any, str, list[dict[str, Any]]]


def _propose(state: State, seat: str) -> Text:
    pacts = [_choice(f"PACT {c} PROVINCE {p}", msg("choice.pact", seat=seat_name(c), province=province(p)))
             for c in _others(state, seat) for p in controlled(state, seat)]
    fields: list[dict[str, Any]] = [
        {"name": f"offer{i}", "label": msg("field.offer", i=i), "type": "text",
         "required": False} for i in (1, 2, 3)]
    fields.append({"name": "pact", "label": msg("field.pact"), "type": "choice",
                   "required": False, "choices": pacts})
    ex = "OFFER GIVE 1 FOOD GET 1 WOOD"
    if controlled(state, seat) and _others(state, seat):
        ex += f"; PACT {_others(state, seat)[0]} PROVINCE {controlled(state, seat)[0]}"
    return msg("prompt.text.T3A"), ex, [{"label": msg("prompt.send.T3A"), "base": {"type": "PROPOSE"},
                                         "fields": fields}]


def _answer(state: State, seat: str) -> Text:
    offers, pacts = open_to(state, seat)
    fields = []
    for o in offers:
        desc = msg("field.answer_offer", id=o["id"], seat=who(state, o["from"]),
                   give=amount(o["give_n"], o["give"]), get=amount(o["get_n"], o["get"]))
        fields.append({"name": f"answer_{o['id']}", "label": desc, "type": "choice",
                       "required": False,
                       "choices": [_choice(f"ACCEPT OFFER {o['id']}", msg("choice.accept")),
                                   _choice(f"DECLINE OFFER {o['id']}", msg("choice.decline"))]})
    for p in pacts:
        desc = msg("field.answer_pact", id=p["id"], seat=who(state, p["from"]),
                   province=province(p["province"]))
        choices = [_choice(f"DECLINE PACT {p['id']}", msg("choice.decline"))]
        choices += [_choice(f"ACCEPT PACT {p['id']} PROVINCE {q}",
                            msg("choice.accept_pact", province=province(q))) for q in controlled(state, seat)]
        fields.append({"name": f"answer_{p['id']}", "label": desc, "type": "choice", "required": False,
                       "choices": choices})
    first = offers[0]["id"] if offers else None
    ex = f"ACCEPT OFFER {first}" if first else f"DECLINE PACT {pacts[0]['id']}"
    return msg("prompt.text.T3B"), ex, [{"label": msg("prompt.send.T3B"), "base": {"type": "ANSWER"},
                                         "fields": fields}]


def market_choices(state: State, seat: str) -> list[dict[str, Any]]:
    res = state["players"][seat]["res"]
    out: list[dict[str, Any]] = []
    for r in data.MARKET_GOODS:
        out += [_choice(f"MARKET BUY {r} {n}", msg("choice.buy", got=amount(data.MARKET_BUY_RATE * n, r),
                                                   gold=amount(n, "GOLD")))
                for n in range(1, res["GOLD"] + 1)]
    for r in data.MARKET_GOODS:
        out += [_choice(f"MARKET SELL {r} {q}", msg("choice.sell", sold=amount(q, r),
                                                    gold=amount(q // data.MARKET_SELL_LOT, "GOLD")))
                for q in range(3, res[r] + 1, 3)]
    return out


def build_choices(state: State, seat: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    heavy_ok = len(troops_of(state, seat, kind="H")) < data.MAX_HEAVY
    for p in controlled(state, seat):
        prov = state["provinces"][str(p)]
        for what in ("INF", "WALL", "HEAVY"):
            if what == "HEAVY" and not heavy_ok or what != "HEAVY" and prov["building"]:
                continue
            if what == "INF" and p in data.NO_INF:
                continue
            out.append(_choice(f"BUILD {what} {p}", msg("choice.build", building=term("building", what),
                                                         province=province(p),
                                                         cost=amounts(data.BUILD_COST[what]))))
    return out


def mode_choices(state: State, seat: str, tid: str) -> list[dict[str, Any]]:
    out = [_choice(f"MODE {tid} {m}", term("mode", m)) for m in data.MODES]
    out += [_choice(f"MODE {tid} ATTACK TARGET {c}", msg("choice.mode_target", mode=term("mode", "ATTACK"),
                                                         seat=seat_name(c)))
            for c in _others(state, seat)]
    return out


def _admin(state: State, seat: str) -> Text:
    fields: list[dict[str, Any]] = [
        {"name": "market", "label": msg("field.market"), "type": "choice",
         "required": False,
         "choices": market_choices(state, seat)},
        {"name": "build", "label": msg("field.build"), "type": "choice", "required": False,
         "choices": build_choices(state, seat)},
    ]
    mine = troops_of(state, seat)
    for tid in mine:
        here = state["troops"][tid]["province"]
        fields.append({"name": f"move_{tid}", "label": msg("field.move", troop=tid, province=province(here)),
                       "type": "choice", "required": False,
                       "choices": [
                           _choice(f"MOVE {tid} {p}", msg("choice.move", province=province(p)))
                           for p in data.PROVINCES[here]["adj"]]})
        t = state["troops"][tid]
        keep: Any = term("mode", t["mode"])
        if t.get("target"):
            keep = msg("label.mode_target", mode=keep, seat=seat_name(t["target"]))
        fields.append({"name": f"mode_{tid}", "label": msg("field.mode", troop=tid, mode=keep),
                       "type": "choice",
                       "required": False, "choices": mode_choices(state, seat, tid)})
    fields.append({"name": "losses", "label": msg("field.losses"), "type": "text", "required": False})
    fields.append({"name": "zextra", "label": msg("field.extra"),
                   "type": "text", "required": False})
    ex = f"MOVE {mine[0]} {data.PROVINCES[state['troops'][mine[0]]['province']]['adj'][0]}; " \
        f"MODE {mine[0]} CONQUEST" if mine else "MARKET BUY WOOD 1"
    return msg("prompt.text.T4"), ex, [{"label": msg("prompt.send.T4"), "base": {"type": "ADMIN"},
                                        "fields": fields}]


def _lose(state: State, seat: str) -> Text:
    chooser = state["phase"] == "T7B"
    victim = state["choosers"][seat] if chooser else seat
    s = state["maint"][victim]
    ids = troops_of(state, victim)
    choices = [_choice(t, msg("choice.troop", troop=t, province=province(state["troops"][t]["province"])))
               for t in ids]
    colour = name(state, victim)
    field_name = f"lose_for_{colour}" if chooser else "lose"
    base = "LOSE-FOR " + colour if chooser else "LOSE"
    ex = f"{base} " + " ".join(ids[:s])
    if chooser:
        text = msg("prompt.text.T7B", seat=who(state, victim), n=s)
    else:
        text = msg("prompt.text.T7A", n=s)
    forms: list[dict[str, Any]] = [{"label": msg("prompt.send.T7", n=s), "base": {"type": "LOSE"},
              "fields": [{"name": field_name, "label": msg("field.lose", n=s), "type": "multi",
                          "choices": choices}]},
             {"label": msg("prompt.dont_choose"), "base": {"type": "LOSE", "lines": []}, "fields": []}]
    return text, ex, forms


def _route(state: State, seat: str) -> Text:
    pop = state["players"][seat]["res"]["POP"]
    fields: list[dict[str, Any]] = [
        {"name": "route_gold", "label": msg("field.route_gold"), "type": "int", "min": 0, "max": pop,
         "required": False}]
    for p in controlled(state, seat):
        fields.append({"name": f"troops_{p}", "label": msg("field.route_troops", province=province(p)),
                       "type": "int", "min": 0, "max": pop, "required": False})
    fields.append({"name": "tribute_free", "label": msg("field.tribute_free"),
                   "type": "choice", "required": False,
                   "choices": [_choice(f"TRIBUTE FREE {r}", res_name(r)) for r in data.RESOURCES]})
    pairs = [[a, b] for i, a in enumerate(data.SIMPLE) for b in data.SIMPLE[i:]]
    fields.append({"name": "tribute_simple", "label": msg("field.tribute_simple"),
                   "type": "choice", "required": False,
                   "choices": [_choice(f"TRIBUTE SIMPLE {a} {b}", msg("label.pair", a=res_name(a), b=res_name(b)))
                               for a, b in pairs]})
    home = controlled(state, seat)
    ex = f"ROUTE GOLD 1; ROUTE TROOPS 1 AT {home[0]}" if home else "ROUTE GOLD 1"
    text = msg("prompt.text.T8", pop=pop, tribute=tribute_name(state["tribute"]))
    return text, ex, [{"label": msg("prompt.send.T8"), "base": {"type": "ROUTE"}, "fields": fields}]


def _pay(state: State, seat: str) -> Text:
    k = state["pay_window"][seat]
    res = dict(state["players"][seat]["res"])
    t = state["tribute"]
    firsts = tribute.options(res, t)[1]
    fields = []
    seconds: list[list[str]] = []
    for f in firsts:
        after = dict(res)
        for r in f:
            after[r] -= 1
        for g in tribute.options(after, t)[1]:
            if g not in seconds:
                seconds.append(g)
    for i, forms in enumerate([firsts, seconds][:k], 1):
        fields.append({"name": f"pay{i}", "label": msg("field.pay", i=i), "type": "choice",
                       "choices": [_choice(format_line({"op": "PAY", "res": f}), tribute.describe(f))
                                   for f in forms]})
    ex = "; ".join(format_line(x) for x in tribute.default_lines(state, seat))
    text = msg("prompt.text.T9", tribute=tribute_name(t), n=k)
    return text, ex, [{"label": msg("prompt.send.T9"), "base": {"type": "PAY"}, "fields": fields}]


BUILDERS = {"T3A": _propose, "T3B": _answer, "T4": _admin, "T7A": _lose, "T7B": _lose,
            "T8": _route, "T9": _pay}


def prompt(state: State, seat: str) -> dict[str, Any]:
    ph = state["phase"]
    text, example, forms = BUILDERS[ph](state, seat)
    res = state["players"][seat]["res"]
    text = msg("prompt.holding", text=text, stock=amounts([(r, res[r]) for r in data.RESOURCES]))
    forms = forms + [_text_form(ORDER_TYPE[ph], example)]
    title = msg("prompt.title", round=state["round"], title={"msg": f"prompt.title.{ph}"})
    return {"kind": KIND[ph], "title": title, "text": text,
            "example": f"{ORDER_TYPE[ph]}: {example}", "forms": forms,
            "seconds": data.DEADLINES[KIND[ph]]}


__all__ = ["owed_seats", "prompt", "KIND", "ORDER_TYPE", "owner"]
