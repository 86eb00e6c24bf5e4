"""Order windows: check a submission line by line and apply it.

Each ``apply_<window>(state, seat, lines)`` works on a state it may change
(a scratch copy when validating) and returns the list of errors, each the
message ``refuse.line`` (``LINE: message``, see ``text.py``).  A submission with any error is rejected as a
whole (E007).
"""

from __future__ import annotations

from typing import Any

from app.games.empire import data
from app.games.empire.lines import describe
from app.games.empire.state import (
    State,
    add_troop,
    controlled,
    owner,
    seat_of,
    troops_of,
    who,
)
from app.games.empire.text import amount, amounts, joined, offer_ref, province, troop, troops_by_group
from app.games.text import msg, name

ADMIN_ORDER = {"MARKET": 0, "BUILD": 1, "MOVE": 2, "MODE": 3, "LOSSES": 4}


Error = dict[str, Any]


def _err(line: dict[str, Any], code: str, **args: Any) -> Error:
    """``LINE: message``: the line in the player's words and the refusal ``refuse.<code>``."""
    return msg("refuse.line", line=describe(line), why=msg(f"refuse.{code}", **args))


def _other_active(state: State, seat: str, colour: str) -> str | None:
    other = seat_of(state, colour)
    if other is None or other == seat or state["players"][other]["eliminated"]:
        return None
    return other


# ---------------------------------------------------------------- 3A proposals
def apply_propose(state: State, seat: str, lines: list[dict[str, Any]]) -> list[Error]:
    errors: list[Error] = []
    res = state["players"][seat]["res"]
    letter = data.COLOUR_LETTER[state["colour"][seat]]
    offers = pacts = 0
    for d in lines:
        if d["op"] == "OFFER":
            offers += 1
            if offers > data.MAX_OFFERS:
                errors.append(_err(d, "E301"))
            elif d["give"] not in data.TRADE_GOODS or d["get"] not in data.TRADE_GOODS:
                errors.append(_err(d, "E302"))
            elif d["give"] == d["get"]:
                errors.append(_err(d, "E303"))
            elif d["give_n"] > res[d["give"]]:
                errors.append(_err(d, "E304", held=amount(res[d["give"]], d["give"]), n=d["give_n"]))
            elif "to" in d and _other_active(state, seat, d["to"]) is None:
                errors.append(_err(d, "E305"))
            else:
                state["offers"].append({
                    "id": f"{letter}-O{offers}", "from": seat,
                    "to": _other_active(state, seat, d["to"]) if "to" in d else None,
                    "give_n": d["give_n"], "give": d["give"], "get_n": d["get_n"], "get": d["get"]})
        else:
            pacts += 1
            other = _other_active(state, seat, d["with"])
            if other is None:
                errors.append(_err(d, "E305"))
            elif pacts > 1:
                errors.append(_err(d, "E306"))
            elif owner(state, d["province"]) != seat:
                errors.append(_err(d, "E307", province=province(d["province"])))
            else:
                state["pact_props"].append({"id": f"{letter}-PACT", "from": seat, "to": other,
                                            "province": d["province"]})
    return errors


def open_to(state: State, seat: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Offers and pact proposals open to ``seat`` in 3B."""
    offers = [o for o in state["offers"] if o["from"] != seat and o["to"] in (None, seat)]
    pacts = [p for p in state["pact_props"] if p["to"] == seat]
    return offers, pacts


# ---------------------------------------------------------------- 3B answers
def apply_answer(state: State, seat: str, lines: list[dict[str, Any]]) -> list[Error]:
    errors: list[Error] = []
    offers, pacts = open_to(state, seat)
    offer_ids = {o["id"]: o for o in offers}
    pact_ids = {p["id"]: p for p in pacts}
    res = state["players"][seat]["res"]
    seen: set[str] = set()
    answers = state.setdefault("answers", {}).setdefault(seat, {})
    for d in lines:
        if d["op"].endswith("OFFER"):
            o = offer_ids.get(d["id"])
            if o is None:
                errors.append(_err(d, "E311", **offer_ref(d["id"])))
                continue
            if d["op"] == "ACCEPT_OFFER" and res[o["get"]] < o["get_n"]:
                errors.append(_err(d, "E312", held=amount(res[o["get"]], o["get"]),
                                   seat=offer_ref(d["id"])["seat"], n=amount(o["get_n"], o["get"])))
                continue
        else:
            if d["id"] not in pact_ids:
                errors.append(_err(d, "E313", **offer_ref(d["id"])))
                continue
            if d["op"] == "ACCEPT_PACT" and owner(state, d["province"]) != seat:
                errors.append(_err(d, "E314", province=province(d["province"])))
                continue
        if d["id"] in seen:
            errors.append(_err(d, "E315"))
            continue
        seen.add(d["id"])
        answers[d["id"]] = d.get("province", 0) if d["op"].startswith("ACCEPT") else None
    return errors


# ---------------------------------------------------------------- 4 admin
def _stock(res: dict[str, int]) -> Any:
    return amounts([(r, res[r]) for r in data.SIMPLE])


def apply_admin(state: State, seat: str, lines: list[dict[str, Any]],
                log: list[Any] | None = None) -> list[Error]:
    errors: list[Error] = []
    pl = state["players"][seat]
    res = pl["res"]
    market = build = False
    new_id: str | None = None
    moved: set[str] = set()
    moded: set[str] = set()
    moves: list[tuple[str, int]] = []
    for d in sorted(lines, key=lambda x: ADMIN_ORDER[x["op"]]):
        op = d["op"]
        tid = d.get("troop")
        if tid is not None:
            if tid == "NEW":
                if new_id is None:
                    errors.append(_err(d, "E417"))
                    continue
                tid = new_id
            elif state["troops"].get(tid, {}).get("owner") != seat:
                errors.append(_err(d, "E004", troop=troop(tid)))
                continue
        if op == "MARKET":
            r, n = d["res"], d["n"]
            if market:
                errors.append(_err(d, "E401"))
            elif r not in data.MARKET_GOODS:
                errors.append(_err(d, "E402"))
            elif d["side"] == "BUY" and res["GOLD"] < n:
                errors.append(_err(d, "E403", n=n, gold=amount(n, "GOLD"), held=amount(res["GOLD"], "GOLD")))
            elif d["side"] == "SELL" and n % data.MARKET_SELL_LOT:
                errors.append(_err(d, "E404"))
            elif d["side"] == "SELL" and res[r] < n:
                errors.append(_err(d, "E405", held=amount(res[r], r)))
            else:
                market = True
                if d["side"] == "BUY":
                    res["GOLD"] -= n
                    res[r] += data.MARKET_BUY_RATE * n
                else:
                    res[r] -= n
                    res["GOLD"] += n // data.MARKET_SELL_LOT
                if log is not None:
                    log.append(msg("admin.buy", got=amount(data.MARKET_BUY_RATE * n, r), gold=amount(n, "GOLD"))
                               if d["side"] == "BUY" else
                               msg("admin.sell", sold=amount(n, r),
                                   gold=amount(n // data.MARKET_SELL_LOT, "GOLD")))
        elif op == "BUILD":
            what, p = d["what"], d["province"]
            prov = state["provinces"][str(p)]
            cost = data.BUILD_COST[what]
            if build:
                errors.append(_err(d, "E406"))
            elif owner(state, p) != seat:
                errors.append(_err(d, "E407", province=province(p)))
            elif what != "HEAVY" and prov["building"]:
                errors.append(_err(d, "E408", province=province(p), building=name("building", prov["building"])))
            elif what == "INF" and p in data.NO_INF:
                errors.append(_err(d, "E409"))
            elif any(res[r] < n for r, n in cost.items()):
                errors.append(_err(d, "E410", building=name("building", what), cost=amounts(cost),
                                   stock=_stock(res)))
            elif what == "HEAVY" and len(troops_of(state, seat, kind="H")) >= data.MAX_HEAVY:
                errors.append(_err(d, "E411"))
            else:
                build = True
                for r, n in cost.items():
                    res[r] -= n
                if what == "HEAVY":
                    new_id = add_troop(state, seat, "H", p)
                else:
                    prov["building"] = what
                if log is not None:
                    built = troop(new_id or "NEW")
                    log.append(msg("admin.build_heavy", province=province(p), troop=built) if what == "HEAVY"
                               else msg("admin.build", building=name("building", what), province=province(p)))
        elif op == "MOVE":
            assert tid is not None
            here = state["troops"][tid]["province"]
            if tid in moved:
                errors.append(_err(d, "E412", troop=troop(tid)))
            elif d["province"] not in data.PROVINCES[here]["adj"]:
                errors.append(_err(d, "E413", a=province(d["province"]), b=province(here)))
            else:
                moved.add(tid)
                moves.append((tid, d["province"]))
        elif op == "MODE":
            assert tid is not None
            if d["mode"] not in data.MODES:
                errors.append(_err(d, "E414"))
            elif "target" in d and (d["mode"] != "ATTACK"
                                    or _other_active(state, seat, d["target"]) is None):
                errors.append(_err(d, "E415"))
            elif tid in moded:
                errors.append(_err(d, "E416", troop=troop(tid)))
            else:
                moded.add(tid)
                t = state["troops"][tid]
                t["mode"] = d["mode"]
                t.pop("target", None)
                if "target" in d:
                    t["target"] = d["target"]
        else:  # LOSSES
            ids = [new_id if x == "NEW" else x for x in d["troops"]]
            bad = next((x for x in d["troops"] if x != "NEW"
                        and state["troops"].get(x, {}).get("owner") != seat), None)
            if bad is not None:
                errors.append(_err(d, "E004", troop=troop(bad)))
            elif "NEW" in d["troops"] and new_id is None:
                errors.append(_err(d, "E417"))
            elif len(set(ids)) != len(ids):
                errors.append(_err(d, "E418"))
            else:
                pl["losses"] = [x for x in ids if x is not None]
    # every move at once: positions are read before any troop moves
    for tid, p in moves:
        state["troops"][tid]["province"] = p
    if log is not None and moves:
        dests: dict[int, list[str]] = {}
        for tid, p in moves:
            dests.setdefault(p, []).append(tid)
        log.append(msg("admin.moves", moves=joined([msg("admin.move", troop=troops_by_group(ids), n=province(p))
                                                    for p, ids in dests.items()], "join.comma")))
    return errors


# ---------------------------------------------------------------- 7A / 7B losses
def apply_lose(state: State, seat: str, lines: list[dict[str, Any]]) -> tuple[list[Error], str, list[str]]:
    """7A (``LOSE``, own troops) or 7B (``LOSE-FOR``, as chooser).

    Returns (errors, affected player, troops removed).
    """
    errors: list[Error] = []
    chooser = state["phase"] == "T7B"
    victim = state["choosers"][seat] if chooser else seat
    removed: list[str] = []
    if len(lines) > 1:
        return [_err(lines[1], "E701_one")], victim, removed
    for d in lines:
        if chooser != (d["op"] == "LOSE_FOR") or chooser and seat_of(state, d["player"]) != victim:
            colour = d.get("player", state["colour"][seat])
            errors.append(_err(d, "E703", seat=name("colour", colour)))
            continue
        s = state["maint"][victim]
        ids = d["troops"]
        bad = next((x for x in ids if state["troops"].get(x, {}).get("owner") != victim), None)
        if len(ids) != s or len(set(ids)) != len(ids):
            errors.append(_err(d, "E701", n=s))
        elif bad is not None:
            errors.append(_err(d, "E702", troop=troop(bad), seat=who(state, victim)))
        else:
            for x in ids:
                del state["troops"][x]
            removed = list(ids)
    return errors, victim, removed


# ---------------------------------------------------------------- 8 routing
def apply_route(state: State, seat: str, lines: list[dict[str, Any]]) -> list[Error]:
    errors: list[Error] = []
    pl = state["players"][seat]
    pop = pl["res"]["POP"]
    seen: set[str] = set()
    total = 0
    new_troops = 0
    in_play = len(troops_of(state, seat, kind="S"))
    pref: dict[str, Any] = {}
    for d in lines:
        op = d["op"]
        key = op + (str(d["province"]) if op == "ROUTE_TROOPS" else "")
        if op in ("ROUTE_GOLD", "ROUTE_TROOPS"):
            if total + d["n"] > pop:
                errors.append(_err(d, "E801", n=total + d["n"], pop=pop))
            elif op == "ROUTE_TROOPS" and owner(state, d["province"]) != seat:
                errors.append(_err(d, "E802", province=province(d["province"])))
            elif op == "ROUTE_TROOPS" and in_play + new_troops + d["n"] > data.MAX_SIMPLE:
                left = data.MAX_SIMPLE - in_play - new_troops
                errors.append(_err(d, "E803", n=left))
            elif key in seen:
                errors.append(_err(d, "E806_troops"))
            else:
                seen.add(key)
                total += d["n"]
                if op == "ROUTE_GOLD":
                    pl["res"]["GOLD"] += d["n"]
                else:
                    new_troops += d["n"]
                    for _ in range(d["n"]):
                        add_troop(state, seat, "S", d["province"])
                pl["res"]["POP"] -= d["n"]
        elif op == "TRIBUTE_FREE":
            if d["res"] not in data.RESOURCES:
                errors.append(_err(d, "E804"))
            elif key in seen:
                errors.append(_err(d, "E806"))
            else:
                seen.add(key)
                pref["free"] = d["res"]
        else:
            if any(r not in data.SIMPLE for r in d["res"]):
                errors.append(_err(d, "E805"))
            elif key in seen:
                errors.append(_err(d, "E806"))
            else:
                seen.add(key)
                pref["simple"] = list(d["res"])
    pl["pref"] = pref
    return errors


def routing_choices(state: State, seat: str) -> list[int]:
    return controlled(state, seat)
