"""Prompts: what each owed seat must decide, with forms drawn from the state."""

from __future__ import annotations

from typing import Any

from app.games.empire import data, tribute
from app.games.empire.notation import format_line
from app.games.empire.state import State, active, controlled, name, owner, troops_of
from app.games.empire.windows import open_to

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


def _choice(value: str, label: str | None = None) -> dict[str, str]:
    return {"value": value, "label": label or value}


def _text_form(kind: str, example: str) -> dict[str, Any]:
    return {"label": "Write the whole set in notation", "base": {"type": kind},
            "fields": [{"name": "text", "label": f"Orders, one per line or split by ';' (e.g. {example})",
                        "type": "text", "required": False}]}


def _others(state: State, seat: str) -> list[str]:
    return [name(state, s) for s in active(state) if s != seat]


def _propose(state: State, seat: str) -> tuple[str, str, list[dict[str, Any]]]:
    pacts = [_choice(f"PACT {c} PROVINCE {p}", f"Pact with {c}, protecting {data.province_label(p)}")
             for c in _others(state, seat) for p in controlled(state, seat)]
    fields: list[dict[str, Any]] = [
        {"name": f"offer{i}", "label": f"Offer {i}: GIVE n R GET m R [TO player]", "type": "text",
         "required": False} for i in (1, 2, 3)]
    fields.append({"name": "pact", "label": "Pact proposal (none: no pact)", "type": "choice",
                   "required": False, "choices": pacts})
    ex = "OFFER GIVE 1 FOOD GET 1 WOOD"
    if controlled(state, seat) and _others(state, seat):
        ex += f"; PACT {_others(state, seat)[0]} PROVINCE {controlled(state, seat)[0]}"
    text = ("Turn 3A. Propose up to 3 trades (one resource for another; without TO the offer is "
            "open to everyone) and at most one pact protecting one of your provinces.")
    return text, ex, [{"label": "Send proposals", "base": {"type": "PROPOSE"}, "fields": fields}]


def _answer(state: State, seat: str) -> tuple[str, str, list[dict[str, Any]]]:
    offers, pacts = open_to(state, seat)
    fields = []
    for o in offers:
        desc = (f"{o['id']} from {name(state, o['from'])}: they give {o['give_n']} {o['give']}, "
                f"you give {o['get_n']} {o['get']}")
        fields.append({"name": f"answer_{o['id']}", "label": desc + " (none: declined)", "type": "choice",
                       "required": False,
                       "choices": [_choice(f"ACCEPT OFFER {o['id']}", "accept"),
                                   _choice(f"DECLINE OFFER {o['id']}", "decline")]})
    for p in pacts:
        desc = (f"{p['id']} from {name(state, p['from'])}: protects their "
                f"{data.province_label(p['province'])}; name one of yours (none: declined)")
        choices = [_choice(f"DECLINE PACT {p['id']}", "decline")]
        choices += [_choice(f"ACCEPT PACT {p['id']} PROVINCE {q}", f"accept, protecting "
                            f"{data.province_label(q)}") for q in controlled(state, seat)]
        fields.append({"name": f"answer_{p['id']}", "label": desc, "type": "choice", "required": False,
                       "choices": choices})
    first = offers[0]["id"] if offers else None
    ex = f"ACCEPT OFFER {first}" if first else f"DECLINE PACT {pacts[0]['id']}"
    text = "Turn 3B. Accept or decline what was offered to you; anything unanswered is declined."
    return text, ex, [{"label": "Send answers", "base": {"type": "ANSWER"}, "fields": fields}]


def market_choices(state: State, seat: str) -> list[dict[str, str]]:
    res = state["players"][seat]["res"]
    out: list[dict[str, str]] = []
    for r in data.MARKET_GOODS:
        out += [_choice(f"MARKET BUY {r} {n}", f"buy {2 * n} {r} for {n} Gold")
                for n in range(1, res["GOLD"] + 1)]
    for r in data.MARKET_GOODS:
        out += [_choice(f"MARKET SELL {r} {q}", f"sell {q} {r} for {q // 3} Gold")
                for q in range(3, res[r] + 1, 3)]
    return out


def build_choices(state: State, seat: str) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    heavy_ok = len(troops_of(state, seat, kind="H")) < data.MAX_HEAVY
    for p in controlled(state, seat):
        prov = state["provinces"][str(p)]
        for what in ("INF", "WALL", "HEAVY"):
            if what == "HEAVY" and not heavy_ok or what != "HEAVY" and prov["building"]:
                continue
            if what == "INF" and p in data.NO_INF:
                continue
            cost = ", ".join(f"{n} {r}" for r, n in data.BUILD_COST[what].items())
            out.append(_choice(f"BUILD {what} {p}", f"{what} in {data.province_label(p)} ({cost})"))
    return out


def mode_choices(state: State, seat: str, tid: str) -> list[dict[str, str]]:
    out = [_choice(f"MODE {tid} {m}", m) for m in data.MODES]
    out += [_choice(f"MODE {tid} ATTACK TARGET {c}", f"ATTACK, target {c}") for c in _others(state, seat)]
    return out


def _admin(state: State, seat: str) -> tuple[str, str, list[dict[str, Any]]]:
    fields: list[dict[str, Any]] = [
        {"name": "market", "label": "Market, one transaction (none: no trade)", "type": "choice",
         "required": False,
         "choices": market_choices(state, seat)},
        {"name": "build", "label": "Build one (none: no build)", "type": "choice", "required": False,
         "choices": build_choices(state, seat)},
    ]
    mine = troops_of(state, seat)
    for tid in mine:
        here = state["troops"][tid]["province"]
        fields.append({"name": f"move_{tid}", "label": f"{tid} in {data.province_label(here)}: move "
                       "(none: stay)",
                       "type": "choice", "required": False,
                       "choices": [
                           _choice(f"MOVE {tid} {p}", f"to {data.province_label(p)}")
                           for p in data.PROVINCES[here]["adj"]]})
        t = state["troops"][tid]
        keep = t["mode"] + (f" target {t['target']}" if t.get("target") else "")
        fields.append({"name": f"mode_{tid}", "label": f"{tid}: combat mode (none: keep {keep})",
                       "type": "choice",
                       "required": False, "choices": mode_choices(state, seat, tid)})
    fields.append({"name": "losses", "label": "Standing LOSSES order: troops to remove first if "
                   "Maintenance is short (blank keeps the current one)", "type": "text", "required": False})
    fields.append({"name": "zextra", "label": "Other lines (e.g. MOVE NEW 2; MODE NEW ATTACK)",
                   "type": "text", "required": False})
    ex = f"MOVE {mine[0]} {data.PROVINCES[state['troops'][mine[0]]['province']]['adj'][0]}; " \
        f"MODE {mine[0]} CONQUEST" if mine else "MARKET BUY WOOD 1"
    text = ("Turn 4. One market transaction, one build, a move to an adjacent province for any "
            "troop and a combat mode for any troop. Moves of all players happen at once; nothing "
            "fights until turn 6. If any line is wrong, the whole set is rejected.")
    return text, ex, [{"label": "Send administration orders", "base": {"type": "ADMIN"},
                       "fields": fields}]


def _lose(state: State, seat: str) -> tuple[str, str, list[dict[str, Any]]]:
    chooser = state["phase"] == "T7B"
    victim = state["choosers"][seat] if chooser else seat
    s = state["maint"][victim]
    ids = troops_of(state, victim)
    choices = [_choice(t, f"{t} in {data.province_label(state['troops'][t]['province'])}") for t in ids]
    colour = name(state, victim)
    field_name = f"lose_for_{colour}" if chooser else "lose"
    base = "LOSE-FOR " + colour if chooser else "LOSE"
    ex = f"{base} " + " ".join(ids[:s])
    if chooser:
        text = (f"Turn 7B. {colour} could not pay for {s} troop(s) and did not choose in time; "
                f"as their right neighbour you choose which {s} go. If you do not, the default "
                "loss rule applies.")
    else:
        text = (f"Turn 7A. You lack Gold for {s} troop(s): choose exactly {s} to remove. If you do "
                "not, your right neighbour chooses.")
    forms: list[dict[str, Any]] = [{"label": f"Remove these {s}", "base": {"type": "LOSE"},
              "fields": [{"name": field_name, "label": f"Exactly {s} troop(s)", "type": "multi",
                          "choices": choices}]},
             {"label": "Do not choose", "base": {"type": "LOSE", "lines": []}, "fields": []}]
    return text, ex, forms


def _route(state: State, seat: str) -> tuple[str, str, list[dict[str, Any]]]:
    pop = state["players"][seat]["res"]["POP"]
    fields: list[dict[str, Any]] = [
        {"name": "route_gold", "label": "Pop to route into Gold", "type": "int", "min": 0, "max": pop,
         "required": False}]
    for p in controlled(state, seat):
        fields.append({"name": f"troops_{p}", "label": f"Pop to route into new troops in "
                       f"{data.province_label(p)}", "type": "int", "min": 0, "max": pop,
                       "required": False})
    fields.append({"name": "tribute_free", "label": "If tribute is FREE, pay with (none: no preference)",
                   "type": "choice",
                   "required": False, "choices": [_choice(f"TRIBUTE FREE {r}", r) for r in data.RESOURCES]})
    pairs = [[a, b] for i, a in enumerate(data.SIMPLE) for b in data.SIMPLE[i:]]
    fields.append({"name": "tribute_simple",
                   "label": "If you must substitute two simple resources (none: no preference)",
                   "type": "choice", "required": False,
                   "choices": [_choice(f"TRIBUTE SIMPLE {a} {b}", f"{a} + {b}") for a, b in pairs]})
    home = controlled(state, seat)
    ex = f"ROUTE GOLD 1; ROUTE TROOPS 1 AT {home[0]}" if home else "ROUTE GOLD 1"
    text = (f"Turn 8. Route population (you have {pop}) into Gold or new troops, one for one. "
            f"This round's tribute is {state['tribute']}.")
    return text, ex, [{"label": "Send routing", "base": {"type": "ROUTE"}, "fields": fields}]


def _pay(state: State, seat: str) -> tuple[str, str, list[dict[str, Any]]]:
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
        fields.append({"name": f"pay{i}", "label": f"Payment {i}", "type": "choice",
                       "choices": [_choice(format_line({"op": "PAY", "res": f})) for f in forms]})
    ex = "; ".join(format_line(x) for x in tribute.default_lines(state, seat))
    text = (f"Turn 9. Tribute is {t}; you owe {k} payment(s) and must choose how to pay"
            + (" (the second is checked against what the first leaves)." if k == 2 else "."))
    return text, ex, [{"label": "Pay tribute", "base": {"type": "PAY"}, "fields": fields}]


BUILDERS = {"T3A": _propose, "T3B": _answer, "T4": _admin, "T7A": _lose, "T7B": _lose,
            "T8": _route, "T9": _pay}
TITLES = {"T3A": "Diplomacy: your proposals", "T3B": "Diplomacy: your answers",
          "T4": "Administration and strategy", "T7A": "Maintenance: choose troops to lose",
          "T7B": "Maintenance: choose troops for your neighbour", "T8": "Population routing",
          "T9": "Tribute: choose how to pay"}


def prompt(state: State, seat: str) -> dict[str, Any]:
    ph = state["phase"]
    text, example, forms = BUILDERS[ph](state, seat)
    res = state["players"][seat]["res"]
    text += " You hold " + ", ".join(f"{res[r]} {r}" for r in data.RESOURCES) + "."
    forms = forms + [_text_form(ORDER_TYPE[ph], example)]
    return {"kind": KIND[ph], "title": f"Round {state['round']}: {TITLES[ph]}", "text": text,
            "example": f"{ORDER_TYPE[ph]}: {example}", "forms": forms,
            "seconds": data.DEADLINES[KIND[ph]]}


__all__ = ["owed_seats", "prompt", "KIND", "ORDER_TYPE", "owner"]
