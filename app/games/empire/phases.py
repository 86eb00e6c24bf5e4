"""The automatic turns and the flow from one window to the next (spec §4)."""

from __future__ import annotations

import random
from typing import Any

from app.games.empire import data, tribute
from app.games.empire.combat import combat
from app.games.empire.state import (
    State,
    active,
    controlled,
    default_loss,
    ev,
    has_effect,
    left_of,
    lose,
    right_of,
    round_order,
    troops_of,
    who,
)
from app.games.empire.text import (
    amount,
    amounts,
    card,
    card_told,
    objective,
    province,
    tribute_name,
    troop,
    troops_by_group,
)
from app.games.empire.windows import open_to
from app.games.text import listing, msg, name

Events = list[dict[str, Any]]


# ---------------------------------------------------------------- turns 1, 2
def start_round(state: State, rng: random.Random) -> Events:
    roll = rng.randint(1, 6)
    state["tribute"] = data.TRIBUTE_DIE[roll]
    state["tribute_roll"] = roll
    events = [ev(msg("event.round_start", round=state["round"], first=who(state, state["first"]),
                     roll=roll, tribute=tribute_name(state["tribute"])), roll=roll)]
    events += produce(state)
    state["phase"] = "T3A"
    return events


def produce(state: State) -> Events:
    events = []
    for seat in round_order(state):
        res = state["players"][seat]["res"]
        gained: dict[str, int] = {}
        for p in controlled(state, seat):
            info = data.PROVINCES[p]
            prov = state["provinces"][str(p)]
            amount = info["amount"] + (1 if prov["building"] == "INF" else 0)
            gained[info["res"]] = gained.get(info["res"], 0) + amount
            gained["POP"] = gained.get("POP", 0) + data.POP_PER_PROVINCE
            if prov["centre"]:
                gained["GOLD"] = gained.get("GOLD", 0) + data.CENTRE_GOLD
                gained["POP"] = gained.get("POP", 0) + data.CENTRE_POP
        for r, n in gained.items():
            res[r] += n
        if gained:
            events.append(ev(msg("event.produce", seat=who(state, seat), what=amounts(gained))))
    return events


# ---------------------------------------------------------------- turn 3
def after_proposals(state: State) -> Events:
    events = []
    for o in state["offers"]:
        to = o["to"]
        give, get = amount(o["give_n"], o["give"]), amount(o["get_n"], o["get"])
        text = (msg("event.offer_to", seat=who(state, o["from"]), give=give, get=get, to=who(state, to)) if to
                else msg("event.offer_all", seat=who(state, o["from"]), give=give, get=get))
        events.append(ev(text, [o["from"], to] if to else None))
    for p in state["pact_props"]:
        events.append(ev(msg("event.pact_proposed", seat=who(state, p["from"]),
                             to=who(state, p["to"]), province=province(p["province"])),
                         [p["from"], p["to"]]))
    state["answers"] = {}
    state["phase"] = "T3B"
    if not any(open_to(state, s)[0] or open_to(state, s)[1] for s in active(state)):
        state["phase"] = "T4"
    return events


def resolve_diplomacy(state: State) -> Events:
    events: Events = []
    answers = state.get("answers", {})
    order = round_order(state)
    for proposer in order:
        for o in [x for x in state["offers"] if x["from"] == proposer]:
            pres = state["players"][proposer]["res"]
            offer = {"seat": who(state, proposer), "give": amount(o["give_n"], o["give"]),
                     "get": amount(o["get_n"], o["get"])}
            accepters = [s for s in order if o["id"] in answers.get(s, {})
                         and answers[s][o["id"]] is not None]
            answered = [s for s in order if o["id"] in answers.get(s, {})]
            parties = [proposer] + answered if o["to"] is None else [proposer, o["to"]]
            if pres[o["give"]] < o["give_n"]:
                events.append(ev(msg("event.offer_lacks", **offer), parties))
                continue
            partner = None
            walk, cur = [], proposer
            for _ in range(len(order) - 1):
                cur = left_of(state, cur)
                walk.append(cur)
            for s in walk:
                if s in accepters and state["players"][s]["res"][o["get"]] >= o["get_n"]:
                    partner = s
                    break
            if partner is None:
                if accepters:
                    events.append(ev(msg("event.offer_no_acceptor", **offer), parties))
                else:
                    events.append(ev(msg("event.offer_not_taken", **offer), parties))
                continue
            sres = state["players"][partner]["res"]
            pres[o["give"]] -= o["give_n"]
            sres[o["give"]] += o["give_n"]
            sres[o["get"]] -= o["get_n"]
            pres[o["get"]] += o["get_n"]
            events.append(ev(msg("event.trade", seat=who(state, proposer),
                                 give=amount(o["give_n"], o["give"]), partner=who(state, partner),
                                 get=amount(o["get_n"], o["get"]))))
            for a, b in ((proposer, partner), (partner, proposer)):
                pl = state["players"][a]
                if not pl["trade_round"]:
                    pl["trade_round"] = True
                    pl["trade"].append(b)
            for s in accepters:
                if s != partner:
                    events.append(ev(msg("event.offer_taken", partner=who(state, partner), **offer), [s]))
    for proposer in order:
        for p in [x for x in state["pact_props"] if x["from"] == proposer]:
            q = answers.get(p["to"], {}).get(p["id"])
            if q:
                state["pacts"].append({"id": p["id"], "parties": [proposer, p["to"]],
                                       "provinces": [p["province"], q]})
                events.append(ev(msg("event.pact", a=who(state, proposer), b=who(state, p["to"]),
                                     p=province(p["province"]), q=province(q))))
            else:
                events.append(ev(msg("event.pact_declined", to=who(state, p["to"]), seat=who(state, proposer),
                                     province=province(p["province"])),
                                 [proposer, p["to"]]))
    state["offers"], state["pact_props"], state["answers"] = [], [], {}
    state["phase"] = "T4"
    return events


# ---------------------------------------------------------------- turns 5-7
def setback(state: State, rng: random.Random) -> Events:
    events: Events = []
    for seat in round_order(state):
        if not state["deck"]:
            state["deck"] = list(state["discard"])
            state["discard"] = []
            rng.shuffle(state["deck"])
            events.append(ev(msg("event.deck_shuffled")))
        if not state["deck"]:
            continue
        drawn = state["deck"].pop(0)
        state["revealed"][seat] = drawn
        events.append(ev(msg("event.setback", seat=who(state, seat), card=card(drawn),
                             effect=apply_setback(state, seat, drawn[:3]))))
    return events


def apply_setback(state: State, seat: str, code: str) -> dict[str, Any]:
    pl = state["players"][seat]
    if code in data.SETBACK_LOSSES:
        lost = [(r, lose(state, seat, r, n)) for r, n in data.SETBACK_LOSSES[code].items()]
        if not any(n for _, n in lost):
            return msg("effect.none_to_lose", what=listing([name("resource", r) for r, _ in lost]))
        return msg("effect.loses", what=amounts([(r, n) for r, n in lost if n]))
    if code == "S08":
        tid = default_loss(state, seat)
        if tid is None:
            return msg("effect.no_troop")
        del state["troops"][tid]
        return msg("effect.deserts", troop=troop(tid))
    if code in ("S09", "S10"):
        kind, res = ("INF", "WOOD") if code == "S09" else ("WALL", "STONE")
        provs = [p for p in controlled(state, seat) if state["provinces"][str(p)]["building"] == kind]
        if provs:
            state["provinces"][str(min(provs))]["building"] = None
            return msg("effect.destroyed", building=name("building", kind), province=province(min(provs)))
        taken = lose(state, seat, res, 2)
        if not taken:
            return msg("effect.no_building_none", building=name("building", kind), what=name("resource", res))
        return msg("effect.no_building", building=name("building", kind), what=amount(taken, res))
    if code == "S13":
        mine = {t["province"] for t in state["troops"].values() if t["owner"] == seat}
        cands = [p for p in controlled(state, seat)
                 if p not in mine and not state["provinces"][str(p)]["centre"]]
        if not cands:
            return msg("effect.nothing")
        state["provinces"][str(max(cands))]["owner"] = None
        return msg("effect.neutral", province=province(max(cands)))
    if code == "S17":
        gone = [x for x in state["pacts"] if seat in x["parties"]]
        state["pacts"] = [x for x in state["pacts"] if seat not in x["parties"]]
        partners = dict.fromkeys(s for x in gone for s in x["parties"] if s != seat)
        others = listing([who(state, s) for s in partners])
        return msg("effect.pacts_cancelled", seats=others) if gone else msg("effect.no_pact")
    if code == "S18":
        pl["res"]["FOOD"] += 2
        return msg("effect.gains", what=amount(2, "FOOD"))
    if code == "S20":
        return msg("effect.none")
    pl["effects"].append(code)
    return card_told(code, state["colour"][seat])


def maintenance(state: State) -> Events:
    events: Events = []
    state["maint"] = {}
    for seat in round_order(state):
        res = state["players"][seat]["res"]
        food_due = res["POP"] + (2 if has_effect(state, seat, "S15") else 0)
        troops = troops_of(state, seat)
        gold_due = len(troops) + (2 if has_effect(state, seat, "S16") else 0)
        if res["FOOD"] >= food_due:
            res["FOOD"] -= food_due
            food: Any = msg("maint.food", paid=amount(food_due, "FOOD"))
        else:
            paid, short = res["FOOD"], food_due - res["FOOD"]
            res["FOOD"] = 0
            lost = min(short, res["POP"])
            res["POP"] -= lost
            food = msg("maint.food_short", paid=paid, due=food_due, lost=amount(lost, "POP"))
        if res["GOLD"] >= gold_due:
            res["GOLD"] -= gold_due
            gold: Any = msg("maint.gold", paid=amount(gold_due, "GOLD"))
        else:
            paid, short = res["GOLD"], gold_due - res["GOLD"]
            res["GOLD"] = 0
            owe = min(short, len(troops))
            gold = msg("maint.gold_short", paid=paid, due=gold_due, n=owe)
            gone = []
            for tid in state["players"][seat]["losses"]:
                if owe and tid in state["troops"] and state["troops"][tid]["owner"] == seat:
                    del state["troops"][tid]
                    gone.append(tid)
                    owe -= 1
            if gone:
                gold = msg("maint.standing", text=gold, troops=troops_by_group(gone))
            if owe:
                state["maint"][seat] = owe
        events.append(ev(msg("event.maintenance", seat=who(state, seat), food=food, gold=gold)))
    state["phase"] = "T7A" if state["maint"] else "T8"
    return events


def after_admin(state: State, rng: random.Random) -> Events:
    """Turns 5, 6 and 7 (automatic, maybe opening 7A)."""
    events = setback(state, rng)
    events += combat(state, rng)
    events += maintenance(state)
    return events


def after_lose(state: State, missed: list[str]) -> Events:
    """After 7A: open 7B for the right neighbours of those who did not choose."""
    for seat in list(state["maint"]):
        if seat not in missed:
            del state["maint"][seat]
    state["choosers"] = {right_of(state, s): s for s in missed}
    state["phase"] = "T7B" if missed else "T8"
    return []


def default_losses(state: State, seats: list[str]) -> Events:
    events = []
    for seat in seats:
        gone = []
        for _ in range(state["maint"].get(seat, 0)):
            tid = default_loss(state, seat)
            if tid is None:
                break
            del state["troops"][tid]
            gone.append(tid)
        if gone:
            events.append(ev(msg("event.default_loss", seat=who(state, seat), troops=troops_by_group(gone))))
    state["maint"] = {}
    state["choosers"] = {}
    state["phase"] = "T8"
    return events


# ---------------------------------------------------------------- turn 9 and end of round
def after_routing(state: State, rng: random.Random) -> Events:
    events = [ev(msg("event.tribute_is", tribute=tribute_name(state["tribute"])))]
    events += tribute.start_payments(state)
    if state["pay_window"]:
        state["phase"] = "T9"
        return events
    return events + end_round(state, rng)


def objective_met(state: State, seat: str, obj: str) -> bool:
    provs = controlled(state, seat)
    blds = [state["provinces"][str(p)]["building"] for p in provs]
    pl = state["players"][seat]
    troops = troops_of(state, seat)
    need = data.OBJECTIVE_NEED
    if obj == "O1":
        return len(provs) >= need["O1"]
    if obj == "O2":
        return blds.count("WALL") >= need["O2"]
    if obj == "O3":
        return blds.count("INF") >= need["O3"]
    if obj == "O4":
        return any(state["provinces"][str(p)]["centre"] not in (None, pl["colour"]) for p in provs)
    if obj == "O5":
        return bool(pl["spoils"] >= need["O5"])
    if obj == "O6":
        return len(pl["trade"]) >= need["O6"] and len(set(pl["trade"])) >= need["O6_partners"]
    if obj == "O7":
        heavy = sum(state["troops"][t]["kind"] == "H" for t in troops)
        return len(troops) >= need["O7"] and heavy >= need["O7_heavy"]
    if obj == "O8":
        return 6 in provs and 7 in provs and len(provs) >= need["O8"]
    return False


def tiebreak(state: State, seat: str) -> list[int]:
    pl = state["players"][seat]
    return [len(controlled(state, seat)), len(troops_of(state, seat)), pl["spoils"]]


def end_round(state: State, rng: random.Random) -> Events:
    events: Events = []
    state["pacts"], state["pact_props"], state["offers"] = [], [], []
    state["answers"] = {}
    state["discard"] += [state["revealed"][s] for s in state["seats"] if s in state["revealed"]]
    state["revealed"] = {}
    state["pay_window"] = {}
    for seat in state["seats"]:
        pl = state["players"][seat]
        pl["effects"], pl["pref"], pl["trade_round"] = [], {}, False
    for seat in active(state):
        if not controlled(state, seat):
            pl = state["players"][seat]
            pl["eliminated"] = True
            pl["eliminated_round"] = state["round"]
            pl["res"] = {r: 0 for r in data.RESOURCES}
            for tid in troops_of(state, seat):
                del state["troops"][tid]
            events.append(ev(msg("event.eliminated", seat=who(state, seat))))
    alive = active(state)
    winners: list[str] = []
    if len(alive) <= 1:
        winners = alive
    else:
        met = []
        for seat in alive:
            pl = state["players"][seat]
            done = [o for o in pl["objectives"] if objective_met(state, seat, o)]
            if state["options"]["mode"] == "long":
                pl["completed"] = sorted(set(pl["completed"]) | set(done))
                if len(pl["completed"]) == len(pl["objectives"]):
                    met.append(seat)
            elif done:
                pl["completed"] = done
                met.append(seat)
        if met:
            best = max(tiebreak(state, s) for s in met)
            winners = [s for s in met if tiebreak(state, s) == best]
        elif state["round"] >= state["options"]["round_limit"]:
            key = {s: [len(state["players"][s]["completed"])] + tiebreak(state, s) for s in alive}
            best = max(key.values())
            winners = [s for s in alive if key[s] == best]
            events.append(ev(msg("event.round_limit", n=state["options"]["round_limit"])))
    if winners:
        state["phase"] = "over"
        state["winners"] = winners
        events.append(ev(msg("event.game_over", n=len(winners),
                             who=listing([who(state, s) for s in winners]))))
        for seat in state["seats"]:
            objs = state["players"][seat]["objectives"]
            events.append(ev(msg("event.objectives", seat=who(state, seat),
                                 objectives=listing([objective(o) for o in objs]))))
        return events
    state["first"] = right_of(state, state["first"])
    state["round"] += 1
    return events + start_round(state, rng)
