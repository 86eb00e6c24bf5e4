"""The solo variant's Opposition (OPP): its turns and its secret objective (spec 6)."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import data, position
from app.games.dual_powers.text import msg, name

Event = dict[str, Any]


def opp_objective(row: list[str]) -> str | None:
    """The Opposition's objective from its row of played cards (rulebook Example H).

    Sum the day numbers per region; ties -> more cards; ties -> the region of the
    right-most (last played) card among the tied regions.  In that region the card
    with the highest VP; ties -> the later-played card (HOUSE RULE).
    """
    cards = [c for c in row if data.CARDS[c]["kind"] == "command"]
    if not cards:
        return None
    total: dict[str, int] = {}
    count: dict[str, int] = {}
    for c in cards:
        g = data.CARDS[c]["region"]
        total[g] = total.get(g, 0) + data.CARDS[c]["days"]
        count[g] = count.get(g, 0) + 1
    best = max(total.values())
    cand = [g for g in total if total[g] == best]
    if len(cand) > 1:
        most = max(count[g] for g in cand)
        cand = [g for g in cand if count[g] == most]
    if len(cand) > 1:
        chosen = next(data.CARDS[c]["region"] for c in reversed(cards) if data.CARDS[c]["region"] in cand)
    else:
        chosen = cand[0]
    in_region = [(i, c) for i, c in enumerate(cards) if data.CARDS[c]["region"] == chosen]
    return max(in_region, key=lambda ic: (data.CARDS[ic[1]]["vp"], ic[0]))[1]


def take_opp_unit(state: State, level: int) -> str | None:
    """An Opposition unit of ``level`` from the pool; shortage: next lower, else next higher."""
    order = [level] + [lv for lv in range(level - 1, 0, -1)] + [lv for lv in range(level + 1, 4)]
    for lv in order:
        for t in state["opp_pool"]:
            if data.TOKENS[t]["level"] == lv:
                state["opp_pool"].remove(t)
                return str(t)
    return None


def place_opp_unit(state: State, level: int, region: str, events: list[Event]) -> None:
    t = take_opp_unit(state, level)
    if t is None:
        events.append({"text": msg("event.opp_no_unit"), "to": None})
        return
    state["board"][t] = {"region": region, "fresh": True}
    events.append({"text": msg("event.opp_places", token=position.tname(t), level=data.TOKENS[t]["level"],
                               region=position.rname(region)), "to": None})


def opp_objective_phase(state: State, events: list[Event]) -> None:
    """Reveal the top Opposition leader card; its token enters the unrest region; OPP takes WotP."""
    if state["opp_leaders"]:
        card = state["opp_leaders"].pop(0)
        state["opp_leader_card"] = card
        region = state["tiles"]["unrest"]
        if card in state["supply"]["OPP"]:
            state["supply"]["OPP"].remove(card)
            state["board"][card] = {"region": region, "fresh": True}
        events.append({"text": msg("event.opp_reveals", leader=name("leader", card),
                                   region=position.rname(region)), "to": None})
    if state["wotp"] != "OPP":
        state["wotp"] = "OPP"
        events.append({"text": msg("event.wotp_opp"), "to": None})


def opp_turn(state: State, events: list[Event]) -> None:
    if not state["opp_pile"]:
        events.append({"text": msg("event.opp_no_card"), "to": None})
        return
    card = state["opp_pile"].pop(0)
    info = data.CARDS[card]
    state["played"]["OPP"].append(card)
    events.append({"text": msg("event.opp_plays", card=data.card_label(card)), "to": None})
    bonus = position.advance_date(state, info["days"], "OPP", events)
    events.append({"text": msg("event.date", day=state["day"], month=name("month", str(state["month"]))),
                   "to": None})
    place_opp_unit(state, info["recruit"], info["region"], events)
    if bonus:
        place_opp_unit(state, 1, state["tiles"]["unrest"], events)
