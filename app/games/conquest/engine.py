"""Applying orders and running the turn flow (spec 3.4-3.7, 5.1-5.5, 6, 7).

Every function here mutates the (already copied) state it is given and
appends events.  ``settle`` plays AI and abandoned seats until a human owes a
decision or the game is over.
"""

from __future__ import annotations

from typing import Any

from app.games.conquest import data
from app.games.conquest.state import (
    State,
    active_humans,
    armies_of,
    compute_pools,
    goal_met,
    in_field,
    is_robot,
    label,
    pool_total,
    roll,
    shuffle,
    territories_of,
    tname,
    under_auto_command,
)
from app.games.text import Msg, listing, msg, name

Events = list[dict[str, Any]]


def say(events: Events, text: Msg, to: list[str] | None = None, **fields: Any) -> None:
    events.append({"text": text, "to": to, **fields})


def card_name(c: str) -> Msg:
    """A supply card as players read it: its code, territory and symbol."""
    t = data.CARD_TERRITORY[c]
    symbol = name("symbol", data.CARD_SYMBOL[c])
    return msg("card", card=c, territory=tname(t), symbol=symbol) if t else msg("card.joker", card=c, symbol=symbol)


# -- end of game ---------------------------------------------------------------------------


def finish(state: State, events: Events, reason: str, winners: list[str], text: Msg) -> None:
    state["result"] = {"reason": reason, "winners": winners}
    state["pending"] = None
    humans = [s for s in state["order"] if state["kind"][s] == "human" and state["status"][s] != "ELIMINATED"]
    say(events, text, game_over=True, slots_released=humans)


def check_victory(state: State, seat: str, events: Events) -> bool:
    """Check point (D13): the commander on turn wins by objective or as last in field."""
    if state["result"] is not None:
        return True
    if state["status"][seat] in ("ABANDONED", "ELIMINATED"):
        return False
    if in_field(state) == [seat]:
        finish(state, events, "last", [seat], msg("event.wins_last", seat=label(state, seat)))
        return True
    if goal_met(state, seat):
        goal = state["objective"][seat]["goal"]
        finish(
            state,
            events,
            "objective",
            [seat],
            msg("event.wins_objective", seat=label(state, seat), goal=data.objective_text(goal)),
        )
        return True
    return False


def armistice(state: State, events: Events, why: Msg) -> None:
    """Spec 6.2: most territories, then most armies, among seats in field and not abandoned."""
    eligible = [s for s in in_field(state) if state["status"][s] != "ABANDONED"]
    if not eligible:
        finish(state, events, "armistice", [], msg("event.armistice_none", why=why))
        return
    key = {s: (len(territories_of(state, s)), armies_of(state, s)) for s in eligible}
    best = max(key.values())
    winners = [s for s in eligible if key[s] == best]
    names = listing(label(state, s) for s in winners)
    text = "event.armistice_shared" if len(winners) > 1 else "event.armistice_one"
    finish(state, events, "armistice", winners, msg(text, why=why, seats=names))


def check_absence(state: State, events: Events) -> None:
    """Trigger (b): no active human left in field."""
    if state["result"] is None and not active_humans(state):
        armistice(state, events, msg("why.no_humans"))


# -- mobilisation ----------------------------------------------------------------------------


def do_trade(state: State, seat: str, cards: list[str], bonus: str | None, events: Events) -> None:
    for c in cards:
        state["hands"][seat].remove(c)
    state["discard"].extend(cards)
    state["trades"] += 1
    value = data.trade_value(state["trades"])
    state["pools"]["G"] = state["pools"].get("G", 0) + value
    where = data.CARD_TERRITORY
    if bonus is None:
        bonus = next(
            (where[c] for c in cards if where[c] and state["owner"][where[c]] == seat),
            None,
        )
    shown = listing(card_name(c) for c in cards)
    args = {"seat": label(state, seat), "cards": shown, "trades": state["trades"], "n": value}
    if bonus:
        state["armies"][bonus] += 2
        say(events, msg("event.trade_bonus", **args, territory=tname(bonus, "in")))
    else:
        say(events, msg("event.trade", **args))
    check_victory(state, seat, events)


def do_place(state: State, seat: str, where: dict[str, int], events: Events) -> None:
    pools = state["pools"]
    for t in sorted(where, key=data.NUMBER.__getitem__):
        n = where[t]
        h = data.THEATRE[t]
        from_r = min(n, pools.get(h, 0))
        if h in pools:
            pools[h] -= from_r
        pools["G"] = pools.get("G", 0) - (n - from_r)
        state["armies"][t] += n
    for h in [k for k, v in pools.items() if k != "G" and v == 0]:
        del pools[h]
    order = sorted(where, key=data.NUMBER.__getitem__)
    items = listing(msg("place.item", n=where[t], territory=tname(t, "in")) for t in order)
    say(events, msg("event.place", seat=label(state, seat), where=items))
    check_victory(state, seat, events)


# -- offensive -------------------------------------------------------------------------------


def eliminate(state: State, loser: str, winner: str, events: Events) -> None:
    """Spec 6.3: cards pass, destruction objectives convert, victory check, absence check."""
    cards = state["hands"][loser]
    state["hands"][winner].extend(cards)
    state["hands"][loser] = []
    state["status"][loser] = "ELIMINATED"
    if loser in state.get("resuming", []):
        state["resuming"].remove(loser)
    say(
        events,
        msg("event.eliminated", loser=label(state, loser), winner=label(state, winner), n=len(cards)),
        slot_released=loser if state["kind"][loser] == "human" else None,
    )
    if cards:
        say(events, msg("event.receive_cards", cards=listing(card_name(c) for c in cards), loser=label(state, loser)),
            [winner])
    colour = state["colour"][loser]
    for s in state["order"]:
        obj = state["objective"].get(s)
        if obj and state["status"][s] != "ELIMINATED" and data.OBJECTIVES.get(obj["goal"], {}).get("destroy") == colour:
            if s == winner and state["status"][s] != "ABANDONED":
                finish(
                    state,
                    events,
                    "objective",
                    [s],
                    msg("event.wins_destroy", seat=label(state, s), colour=name("colour", colour)),
                )
                return
            if s != winner:
                obj["goal"], obj["converted"] = "O7", True
                say(
                    events,
                    msg("event.target_destroyed", colour=name("colour", colour)),
                    [s],
                )
    if check_victory(state, winner, events):
        return
    check_absence(state, events)


def do_roll(state: State, seat: str, a: str, b: str, rng: Any, events: Events) -> int:
    """One roll (spec 5.3 steps 1-6); returns d, or 0 if no conquest."""
    defender = state["owner"][b]
    d, e = min(3, state["armies"][a] - 1), min(3, state["armies"][b])
    att, dfn = roll(rng, d), roll(rng, e)
    lose_a = lose_d = 0
    for x, y in zip(sorted(att, reverse=True), sorted(dfn, reverse=True), strict=False):
        if x > y:
            lose_d += 1
        else:
            lose_a += 1
    state["armies"][a] -= lose_a
    state["armies"][b] -= lose_d
    say(
        events,
        msg("event.attack", seat=label(state, seat), b=tname(b, "the"), defender=label(state, defender),
            a=tname(a, "from"), att=" ".join(map(str, att)), dfn=" ".join(map(str, dfn)), al=lose_a, dl=lose_d),
        dice={"attacker": att, "defender": dfn, "from": a, "to": b},
    )
    state["last_roll"] = {
        "seat": seat,
        "from": a,
        "to": b,
        "attacker": att,
        "defender": dfn,
        "losses": [lose_a, lose_d],
        "conquered": state["armies"][b] == 0,
    }
    if state["armies"][b] > 0:
        check_victory(state, seat, events)
        return 0
    state["owner"][b] = seat
    state["armies"][b] = 1
    state["armies"][a] -= 1
    state["conquered"] = True
    say(events, msg("event.conquers", seat=label(state, seat), territory=tname(b, "the")))
    if not territories_of(state, defender):
        eliminate(state, defender, seat, events)
    check_victory(state, seat, events)
    return int(d)


def do_advance(state: State, seat: str, a: str, b: str, n: int, events: Events) -> None:
    state["armies"][a] -= n - 1
    state["armies"][b] += n - 1
    state["pending"] = None
    say(events, msg("event.occupies", seat=label(state, seat), territory=tname(b, "the"), n=n))
    check_victory(state, seat, events)


def do_attack(state: State, seat: str, order: dict[str, Any], rng: Any, events: Events) -> None:
    a, b = order["pair"].split("-")
    repeat, stop, adv = order.get("repeat", 1), order.get("stop", 2), order.get("advance", "ASK")
    rolls = 0
    while state["result"] is None and (repeat == "CONQUER" or rolls < repeat):
        if state["armies"][a] < max(2, stop):
            say(events, msg("event.halts", seat=label(state, seat), territory=tname(b, "to")))
            return
        rolls += 1
        d = do_roll(state, seat, a, b, rng, events)
        if d:
            if state["result"] is not None:
                return
            if adv == "ASK":
                if d > 1:
                    state["pending"] = {"from": a, "to": b, "d": d}
            else:
                do_advance(state, seat, a, b, d if adv == "MAX" else min(adv, d), events)
            return


# -- regroup and end of turn -------------------------------------------------------------------


def enter_regroup(state: State, seat: str) -> None:
    state["phase"] = "REGROUP"
    state["moves_left"] = {t: state["armies"][t] for t in territories_of(state, seat)}


def do_move(state: State, seat: str, a: str, b: str, n: int, events: Events) -> None:
    state["armies"][a] -= n
    state["armies"][b] += n
    state["moves_left"][a] -= n
    state["last_move_from"] = data.NUMBER[a]
    say(events, msg("event.moves", seat=label(state, seat), n=n, a=tname(a, "from"), b=tname(b, "the")))
    check_victory(state, seat, events)


def draw_card(state: State, seat: str, rng: Any, events: Events) -> None:
    if not state["draw"] and state["discard"]:
        state["draw"] = shuffle(state["discard"], rng)
        state["discard"] = []
        say(events, msg("event.reshuffle"))
    if not state["draw"]:
        say(events, msg("event.no_card_left", seat=label(state, seat)))
        return
    card = state["draw"].pop(0)
    state["hands"][seat].append(card)
    say(events, msg("event.draws", seat=label(state, seat)))
    say(events, msg("event.you_draw", card=card_name(card)), [seat])


def end_turn(state: State, rng: Any, events: Events, own: bool, timed_out: bool = False) -> None:
    """Spec 5.5, then the next turn start."""
    seat = state["current"]
    if state["result"] is not None:
        return
    if state["conquered"]:
        draw_card(state, seat, rng, events)
    if own:
        state["timeouts"][seat] = 0
    if timed_out and state["kind"][seat] == "human" and state["status"][seat] == "ACTIVE":
        state["timeouts"][seat] += 1
        if state["timeouts"][seat] >= data.TIMEOUTS_TO_FULL_AUTO:
            state["status"][seat] = "FULL_AUTO"
            say(
                events,
                msg("event.full_auto", seat=label(state, seat), n=state["timeouts"][seat]),
            )
    order = state["order"]
    i = order.index(seat)
    nxt, wrapped = seat, False
    for step in range(1, len(order) + 1):
        j = (i + step) % len(order)
        if j <= i:
            wrapped = True
        if state["status"][order[j]] != "ELIMINATED":
            nxt = order[j]
            break
    if wrapped:
        end_round(state, events)
        if state["result"] is not None:
            return
    state["serial"] += 1
    state["current"] = nxt
    start_turn(state, events)


def end_round(state: State, events: Events) -> None:
    """Spec 6.2 (a) round limit, then (c) three fully automatic rounds."""
    limit = state["options"]["round_limit"]
    if limit and state["round"] >= limit:
        armistice(state, events, msg("why.round_limit", limit=limit))
        return
    if round_under_auto_command(state):
        state["auto_rounds"] += 1
        if state["auto_rounds"] >= data.AUTO_ROUNDS_TO_ARMISTICE:
            armistice(state, events, msg("why.auto_rounds", n=state["auto_rounds"]))
            return
    else:
        state["auto_rounds"] = 0
    state["round"] += 1
    state["human_acted"] = False
    state["auto_at_start"] = under_auto_command(state)


def round_under_auto_command(state: State) -> bool:
    """Trigger (c) as the seed reads it: the humans in field were under auto-command for the
    whole round (from its start to its end, no human order), not merely absent from it, so a
    lone human who has just lost command still has three rounds to resume it."""
    return bool(state.get("auto_at_start", True) and under_auto_command(state) and not state["human_acted"])


def start_turn(state: State, events: Events) -> None:
    seat = state["current"]
    if seat in state.get("resuming", []):  # RESUME_COMMAND takes effect now (spec 7.3)
        state["resuming"].remove(seat)
        state["status"][seat] = "ACTIVE"
        state["timeouts"][seat] = 0
        say(events, msg("event.takes_command", seat=label(state, seat)))
    state.update(phase="MOBILISATION", pending=None, moves_left=None, conquered=False, last_move_from=0, last_roll=None)
    state["pools"] = {}
    if check_victory(state, seat, events):
        return
    state["pools"] = compute_pools(state, seat)
    bonus = [msg("bonus.item", theatre=name("theatre", h), n=n) for h, n in state["pools"].items() if h != "G"]
    args = {"round": state["round"], "serial": state["serial"], "seat": label(state, seat),
            "n": state["pools"]["G"]}
    if bonus:
        say(events, msg("event.turn_start_bonus", **args, bonus=listing(bonus)))
    else:
        say(events, msg("event.turn_start", **args))


def round1_done(state: State, rng: Any, events: Events) -> bool:
    """Round 1: the turn passes as soon as the last army is placed."""
    if state["round"] == 1 and state["result"] is None and pool_total(state) == 0:
        end_turn(state, rng, events, own=not is_robot(state, state["current"]))
        return True
    return False
