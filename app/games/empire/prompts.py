"""Prompts: what each owed seat must decide, with forms drawn from the state.

A form offers only what the rules allow the seat now (its own stock, provinces and
troops; nothing it may not see), and a choice that depends on another says so
(``depends_on`` / ``when``): no decision needs the notation.
"""

from __future__ import annotations

from typing import Any

from app.games.empire import data, tribute
from app.games.empire.admin_form import admin_fields, build_choices, choice, market_choices, mode_choices, others
from app.games.empire.notation import format_line
from app.games.empire.state import State, active, controlled, name, owner, troops_of, who
from app.games.empire.text import amount, amounts, province, res_name, seat_name, tribute_name, troop
from app.games.empire.windows import open_to
from app.games.text import msg

KIND = {"T3A": "diplomacy_propose", "T3B": "diplomacy_answer", "T4": "admin",
        "T7A": "maintenance_loss", "T7B": "maintenance_loss", "T8": "population", "T9": "tribute_choice"}
ORDER_TYPE = {"T3A": "PROPOSE", "T3B": "ANSWER", "T4": "ADMIN", "T7A": "LOSE", "T7B": "LOSE",
              "T8": "ROUTE", "T9": "PAY"}
#: the largest quantity an offer may ask for in the form (the notation takes more)
MAX_GET = 20


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


Text = tuple[Any, str, list[dict[str, Any]]]


def offer_fields(state: State, seat: str, i: int) -> list[dict[str, Any]]:
    """Offer ``i``: give n of a resource held, get m of another, to a player or anyone."""
    res = state["players"][seat]["res"]
    gives = [choice(f"{n} {r}", amount(n, r)) for r in data.TRADE_GOODS for n in range(1, res[r] + 1)]
    if not gives:
        return []
    gets = [choice(r, res_name(r), [g["value"] for g in gives if g["value"].split()[1] != r])
            for r in data.TRADE_GOODS]
    return [
        {"name": f"offer{i}_give", "label": msg("field.offer_give", i=i), "type": "choice", "required": False,
         "choices": gives},
        {"name": f"offer{i}_get_n", "label": msg("field.offer_get_n"), "type": "int", "min": 1, "max": MAX_GET,
         "default": 1, "required": False},
        {"name": f"offer{i}_get", "label": msg("field.offer_get"), "type": "choice", "required": False,
         "depends_on": f"offer{i}_give", "choices": gets},
        {"name": f"offer{i}_to", "label": msg("field.offer_to"), "type": "choice", "required": False,
         "choices": [choice(c, seat_name(c)) for c in others(state, seat)]},
    ]


def _propose(state: State, seat: str) -> Text:
    fields = [f for i in range(1, data.MAX_OFFERS + 1) for f in offer_fields(state, seat, i)]
    pacts = [choice(f"PACT {c} PROVINCE {p}", msg("choice.pact", seat=seat_name(c), province=province(p)))
             for c in others(state, seat) for p in controlled(state, seat)]
    if pacts:
        fields.append({"name": "pact", "label": msg("field.pact"), "type": "choice",
                       "required": False, "choices": pacts})
    ex = "OFFER GIVE 1 FOOD GET 1 WOOD"
    if controlled(state, seat) and others(state, seat):
        ex += f"; PACT {others(state, seat)[0]} PROVINCE {controlled(state, seat)[0]}"
    return msg("prompt.text.T3A"), ex, [{"label": msg("prompt.send.T3A"), "base": {"type": "PROPOSE"},
                                         "fields": fields}]


def _answer(state: State, seat: str) -> Text:
    offers, pacts = open_to(state, seat)
    res = state["players"][seat]["res"]
    fields = []
    for o in offers:
        terms = {"seat": who(state, o["from"]), "give": amount(o["give_n"], o["give"]),
                 "get": amount(o["get_n"], o["get"])}
        decline = choice(f"DECLINE OFFER {o['id']}", msg("choice.decline"))
        if res[o["get"]] >= o["get_n"]:
            fields.append({"name": f"answer_{o['id']}", "label": msg("field.answer_offer", **terms),
                           "type": "choice", "required": False, "code": o["id"],
                           "choices": [choice(f"ACCEPT OFFER {o['id']}", msg("choice.accept")), decline]})
        else:  # one choice, and why: "(none)" beside "decline" would be two ways to say the same
            have = amount(res[o["get"]], o["get"])
            fields.append({"name": f"answer_{o['id']}", "label": msg("field.answer_offer_cannot", **terms, have=have),
                           "type": "choice", "code": o["id"], "choices": [decline]})
    for p in pacts:
        desc = msg("field.answer_pact", seat=who(state, p["from"]), province=province(p["province"]))
        choices = [choice(f"ACCEPT PACT {p['id']} PROVINCE {q}", msg("choice.accept_pact", province=province(q)))
                   for q in controlled(state, seat)]
        choices.append(choice(f"DECLINE PACT {p['id']}", msg("choice.decline")))
        fields.append({"name": f"answer_{p['id']}", "label": desc, "type": "choice", "required": False,
                       "choices": choices, "code": p["id"]})
    first = offers[0]["id"] if offers else None
    ex = f"ACCEPT OFFER {first}" if first else f"DECLINE PACT {pacts[0]['id']}"
    return msg("prompt.text.T3B"), ex, [{"label": msg("prompt.send.T3B"), "base": {"type": "ANSWER"},
                                         "fields": fields}]


def _admin(state: State, seat: str) -> Text:
    mine = troops_of(state, seat)
    ex = f"MOVE {mine[0]} {data.PROVINCES[state['troops'][mine[0]]['province']]['adj'][0]}; " \
        f"MODE {mine[0]} CONQUEST" if mine else "MARKET BUY WOOD 1"
    return msg("prompt.text.T4"), ex, [{"label": msg("prompt.send.T4"), "base": {"type": "ADMIN"},
                                        "fields": admin_fields(state, seat)}]


def _lose(state: State, seat: str) -> Text:
    chooser = state["phase"] == "T7B"
    victim = state["choosers"][seat] if chooser else seat
    s = state["maint"][victim]
    ids = troops_of(state, victim)
    choices = [choice(t, msg("choice.troop", troop=troop(t, state["troops"][t]["kind"]),
                             province=province(state["troops"][t]["province"]))) for t in ids]
    colour = name(state, victim)
    field_name = f"lose_for_{colour}" if chooser else "lose"
    base = "LOSE-FOR " + colour if chooser else "LOSE"
    ex = f"{base} " + " ".join(ids[:s])
    if chooser:
        text = msg("prompt.text.T7B", seat=who(state, victim), n=s)
    else:
        text = msg("prompt.text.T7A", n=s)
    forms: list[dict[str, Any]] = [
        {"label": msg("prompt.send.T7", n=s), "base": {"type": "LOSE"},
         "fields": [{"name": field_name, "label": msg("field.lose", n=s), "type": "multi", "exactly": s,
                     "choices": choices}]},
        {"label": msg("prompt.dont_choose"), "base": {"type": "LOSE", "lines": []}, "fields": []}]
    return text, ex, forms


def _route(state: State, seat: str) -> Text:
    pop = state["players"][seat]["res"]["POP"]
    room = max(0, data.MAX_SIMPLE - len(troops_of(state, seat, kind="S")))
    fields: list[dict[str, Any]] = []
    if pop:
        fields.append({"name": "route_gold", "label": msg("field.route_gold"), "type": "int", "min": 0,
                       "max": pop, "required": False, "total": pop})
        for p in controlled(state, seat) if room else []:
            fields.append({"name": f"troops_{p}", "label": msg("field.route_troops", province=province(p)),
                           "type": "int", "min": 0, "max": min(pop, room), "required": False, "total": pop})
    fields.append({"name": "tribute_free", "label": msg("field.tribute_free"),
                   "type": "choice", "required": False,
                   "choices": [choice(f"TRIBUTE FREE {r}", res_name(r)) for r in data.RESOURCES]})
    pairs = [[a, b] for i, a in enumerate(data.SIMPLE) for b in data.SIMPLE[i:]]
    fields.append({"name": "tribute_simple", "label": msg("field.tribute_simple"),
                   "type": "choice", "required": False,
                   "choices": [choice(f"TRIBUTE SIMPLE {a} {b}", msg("label.pair", a=res_name(a), b=res_name(b)))
                               for a, b in pairs]})
    home = controlled(state, seat)
    ex = f"ROUTE GOLD 1; ROUTE TROOPS 1 AT {home[0]}" if home else "ROUTE GOLD 1"
    text = msg("prompt.text.T8", pop=pop, tribute=tribute_name(state["tribute"]))
    return text, ex, [{"label": msg("prompt.send.T8"), "base": {"type": "ROUTE"}, "fields": fields}]


def _pay(state: State, seat: str) -> Text:
    """One field per payment owed; the second lists, for each form, the first payments it may follow."""
    k = state["pay_window"][seat]
    res = dict(state["players"][seat]["res"])
    t = state["tribute"]
    firsts = tribute.options(res, t)[1]

    def value(form: list[str]) -> str:
        return format_line({"op": "PAY", "res": form})

    fields: list[dict[str, Any]] = [
        {"name": "pay1", "label": msg("field.pay", i=1), "type": "choice",
         "choices": [choice(value(f), tribute.describe(f)) for f in firsts]}]
    if k > 1:
        seconds: dict[str, list[str]] = {}
        for f in firsts:
            after = dict(res)
            for r in f:
                after[r] -= 1
            for g in tribute.options(after, t)[1]:
                seconds.setdefault(value(g), []).append(value(f))
        fields.append({"name": "pay2", "label": msg("field.pay", i=2), "type": "choice", "depends_on": "pay1",
                       "choices": [choice(v, tribute.describe(tribute_form(v)), when) for v, when in seconds.items()]})
    ex = "; ".join(format_line(x) for x in tribute.default_lines(state, seat))
    text = msg("prompt.text.T9", tribute=tribute_name(t), n=k)
    return text, ex, [{"label": msg("prompt.send.T9"), "base": {"type": "PAY"}, "fields": fields}]


def tribute_form(value: str) -> list[str]:
    """``PAY WOOD FOOD`` -> ``["WOOD", "FOOD"]`` (``PAY NONE`` -> [])."""
    return [r for r in value.split()[1:] if r != "NONE"]


BUILDERS = {"T3A": _propose, "T3B": _answer, "T4": _admin, "T7A": _lose, "T7B": _lose,
            "T8": _route, "T9": _pay}


def prompt(state: State, seat: str) -> dict[str, Any]:
    ph = state["phase"]
    text, example, forms = BUILDERS[ph](state, seat)
    res = state["players"][seat]["res"]
    text = msg("prompt.holding", text=text, stock=amounts([(r, res[r]) for r in data.RESOURCES]))
    title = msg("prompt.title", round=state["round"], title={"msg": f"prompt.title.{ph}"})
    return {"kind": KIND[ph], "title": title, "text": text,
            "example": f"{ORDER_TYPE[ph]}: {example}", "forms": forms,
            "seconds": data.DEADLINES[KIND[ph]]}


__all__ = ["owed_seats", "prompt", "KIND", "ORDER_TYPE", "owner", "market_choices", "build_choices",
           "mode_choices"]
