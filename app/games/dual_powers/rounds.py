"""Setup and the automatic phases of a round: draw, objective, action turns, scoring, cleanup."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import actions, data, position, solo
from app.games.dual_powers.text import TEXT, connection, msg
from app.games.dual_powers.text import seat as sname
from app.games.text import listing

Event = dict[str, Any]
Order = dict[str, Any]

SOLO_ROUNDS = 3


def normalise_options(options: dict[str, Any]) -> dict[str, Any]:
    is_solo = bool(options.get("solo", False))
    out: dict[str, Any] = {"solo": is_solo}
    if is_solo:
        diff = options.get("difficulty", 1)
        if not isinstance(diff, int) or isinstance(diff, bool) or not 1 <= diff <= 6:
            raise ValueError("difficulty must be a whole number from 1 to 6")
        faction = options.get("faction", "SOV")
        if faction not in data.SIDES:
            raise ValueError("faction must be SOV or GOV")
        out.update(difficulty=diff, faction=faction)
    return out


def seats_for(options: dict[str, Any]) -> list[str]:
    opts = normalise_options(options)
    return [opts["faction"]] if opts["solo"] else list(data.SIDES)


def setup(options: dict[str, Any], rng: Any) -> State:
    opts = normalise_options(options)
    is_solo = opts["solo"]
    human = opts.get("faction")
    side_of = {f: f for f in data.SIDES}
    if is_solo:
        side_of = {f: (f if f == human else "OPP") for f in data.SIDES}
    supply: dict[str, list[str]] = {}
    for faction in data.SIDES:
        side = side_of[faction]
        units = [] if side == "OPP" else list(data.UNITS[faction])
        supply[side] = units + list(data.LEADERS[faction])
    state: State = {
        "solo": is_solo, "difficulty": opts.get("difficulty"), "human": human, "side_of": side_of,
        "round": 1, "phase": "setup", "day": 1, "month": 0, "s": 0, "wotp": side_of["SOV"],
        "board": {}, "supply": supply, "opp_pool": list(data.OPP_UNITS) if is_solo else [], "out": [],
        "hands": {}, "deck": [], "discard": [], "removed_cards": [],
        "played": {side: [] for side in side_of.values()},
        "objectives": {side: None for side in side_of.values()},
        "revealed": {side: False for side in side_of.values()},
        "objective_owed": [], "opp_pile": [], "opp_leaders": [], "opp_leader_card": None,
        "tiles": {"stack": [], "unrest": None, "blockade": None, "gone": []}, "blockade": None,
        "markers": [], "turn": 0, "turn_order": [], "bonus": False, "pending": None,
        "unrest_side": None, "winner": None, "end_reason": None,
    }
    for faction in data.SIDES:
        if side_of[faction] != "OPP":
            state["hands"][faction] = list(data.LEADERS[faction])
    neutrals = list(data.NEUTRALS)
    rng.shuffle(neutrals)                                   # RNG 1
    for region, n in zip(data.REGIONS, neutrals, strict=True):
        state["board"][n] = {"region": region, "fresh": True}
    tiles = list(data.TILES)
    rng.shuffle(tiles)                                      # RNG 2
    state["tiles"]["unrest"] = tiles.pop(0)[5:]
    state["tiles"]["blockade"] = tiles.pop(0)[5:]
    state["tiles"]["stack"] = tiles
    state["blockade"] = "A-" + state["tiles"]["blockade"]
    deck = list(data.COMMAND_CARDS)
    rng.shuffle(deck)                                       # RNG 3
    state["deck"] = deck
    if is_solo:
        other = "GOV" if human == "SOV" else "SOV"
        leaders = list(data.LEADERS[other])
        rng.shuffle(leaders)                                # RNG 4
        state["opp_leaders"] = leaders
    events: list[Event] = []
    start_round(state, rng, events)
    run(state, rng, events)
    return state


def _draw_to(state: State, rng: Any, n: int, events: list[Event]) -> list[str]:
    cards = []
    for _ in range(n):
        card = position.draw(state, rng, events)
        if card is None:
            break
        cards.append(card)
    return cards


def _you_draw(cards: list[str]) -> dict[str, Any]:
    if not cards:
        return msg("event.you_draw_none")
    return msg("event.you_draw_cards", cards=listing(data.card_name(c) for c in cards))


def start_round(state: State, rng: Any, events: list[Event]) -> None:
    events.append({"text": msg("event.round", round=state["round"]), "to": None})
    state["turn"], state["turn_order"] = 0, []
    if state["solo"]:
        human = state["human"]
        got = _draw_to(state, rng, 4, events)
        state["hands"][human] += got
        events.append({"text": _you_draw(got), "to": [human]})
        obj = _draw_to(state, rng, 1, events)
        state["objectives"][human] = obj[0] if obj else None
        state["revealed"][human] = False
        state["opp_pile"] = _draw_to(state, rng, 5, events)
        events.append({"text": msg("event.solo_dealt", n=len(state["opp_pile"])), "to": None})
        solo.opp_objective_phase(state, events)
        start_action(state)
        return
    for side in data.SIDES:
        got = _draw_to(state, rng, 5, events)
        state["hands"][side] += got
        events.append({"text": _you_draw(got), "to": [side]})
        events.append({"text": msg("event.draws", seat=sname(side), n=len(got)), "to": None})
    state["phase"] = "objective"
    state["objective_owed"] = [s for s in data.SIDES
                               if any(data.CARDS[c]["kind"] == "command" for c in state["hands"][s])]


def start_action(state: State) -> None:
    state["phase"] = "action"
    state["turn"] = 0
    if state["solo"]:
        state["turn_order"] = ["OPP", state["human"]] * 4 + ["OPP"]
    else:
        first = state["wotp"]
        state["turn_order"] = [first, position.opponent(state, first)] * 4


def current_seat(state: State) -> str | None:
    if state["phase"] in ("action", "part2") and state["turn"] < len(state["turn_order"]):
        return str(state["turn_order"][state["turn"]])
    if state["phase"] == "unrest":
        return str(state["unrest_side"])
    return None


def run(state: State, rng: Any, events: list[Event]) -> None:
    """Run automatic steps until somebody owes a decision or the game is over."""
    while True:
        phase = state["phase"]
        if phase == "objective":
            if state["objective_owed"]:
                return
            start_action(state)
        elif phase == "action":
            if state["turn"] >= len(state["turn_order"]):
                start_scoring(state, events)
                continue
            seat = state["turn_order"][state["turn"]]
            if seat == "OPP":
                solo.opp_turn(state, events)
                state["turn"] += 1
            elif not state["hands"][seat]:
                events.append({"text": msg("event.no_card", seat=sname(seat)), "to": None})
                state["turn"] += 1
            else:
                return
        elif phase == "scoring":
            finish_scoring(state, rng, events)
        else:
            return


def start_scoring(state: State, events: list[Event]) -> None:
    region = state["tiles"]["unrest"]
    state["markers"] = [{"marker": "1", "region": region}]
    winner = position.greater(state, region)
    state["phase"] = "scoring"
    if winner is None:
        events.append({"text": msg("event.unrest_nobody", region=position.rname(region)), "to": None})
    elif winner == "OPP":
        position.move_gain(state, "OPP", data.UNREST_VP[state["month"]], events,
                           msg("why.unrest", region=position.rname(region)))
    else:
        events.append({"text": msg("event.unrest_winner", region=position.rname(region), seat=sname(winner)),
                       "to": None})
        state["phase"] = "unrest"
        state["unrest_side"] = winner


def reveal_order(state: State) -> list[str]:
    a, b = position.sides(state)
    s = state["s"]
    if s == 0:
        first = a if state["wotp"] != a else b
    else:
        first = a if position.sign(state, a) * s < 0 else b
    return [first, position.opponent(state, first)]


def finish_scoring(state: State, rng: Any, events: list[Event]) -> None:
    if state["solo"]:
        state["objectives"]["OPP"] = solo.opp_objective(state["played"]["OPP"])
    for side in reveal_order(state):
        card = state["objectives"].get(side)
        if card is None:
            continue
        actions.reveal_objective(state, side, events, "scoring")
        state["revealed"][side] = True
        marker = "2" if len(state["markers"]) == 1 else "3"
        state["markers"].append({"marker": marker, "region": data.CARDS[card]["region"],
                                 "card": card, "side": side})
    for m in state["markers"][1:]:
        winner = position.greater(state, m["region"])
        if winner is None:
            events.append({"text": msg("event.objective_nobody", marker=m["marker"],
                                       region=position.rname(m["region"])), "to": None})
            continue
        if position.move_gain(state, winner, data.CARDS[m["card"]]["vp"], events,
                              msg("why.objective", marker=m["marker"], region=position.rname(m["region"]))):
            return
    position.exhaust(state, sorted({m["region"] for m in state["markers"]}), events)
    a_sov = state["side_of"]["SOV"]
    last = state["round"] >= SOLO_ROUNDS if state["solo"] else state["month"] == data.LAST_MONTH
    if last:
        s = state["s"]
        winner = state["wotp"] if s == 0 else (a_sov if s > 0 else state["side_of"]["GOV"])
        position.end_game(state, winner, "end of the calendar" if not state["solo"] else "end of round 3",
                   events)
        return
    cleanup(state, rng, events)
    state["round"] += 1
    start_round(state, rng, events)


def cleanup(state: State, rng: Any, events: list[Event]) -> None:
    tiles = state["tiles"]
    tiles["gone"].append("TILE-" + tiles["unrest"])
    tiles["unrest"] = tiles["blockade"]
    if not tiles["stack"]:
        tiles["stack"] = sorted(tiles["gone"])
        tiles["gone"] = []
        rng.shuffle(tiles["stack"])
    tiles["blockade"] = tiles["stack"].pop(0)[5:]
    state["blockade"] = "A-" + tiles["blockade"]
    events.append({"text": msg("event.cleanup", region=position.rname(tiles["unrest"]),
                               connection=connection(state["blockade"])), "to": None})
    state["markers"] = []
    for side, row in state["played"].items():
        for card in row:
            (state["discard"] if data.CARDS[card]["kind"] == "command" else state["removed_cards"]).append(card)
        state["played"][side] = []
        obj = state["objectives"][side]
        if obj is not None and side != "OPP":
            state["discard"].append(obj)
        state["objectives"][side] = None
        state["revealed"][side] = False
    if state["opp_leader_card"]:
        state["removed_cards"].append(state["opp_leader_card"])
        state["opp_leader_card"] = None
    state["bonus"] = False
    state["pending"] = None
    state["unrest_side"] = None


def apply_order(state: State, seat: str, order: Any, rng: Any, events: list[Event]) -> None:
    """Apply one player's order to ``state`` (mutated); raises IllegalOrder."""
    if not isinstance(order, dict):
        raise TEXT.refuse("refuse.not_object")
    kind = order.get("type")
    phase = state["phase"]
    if phase == "objective":
        if seat not in state["objective_owed"]:
            raise TEXT.refuse("refuse.no_objective_owed")
        if kind != "OBJECTIVE":
            raise TEXT.refuse("refuse.objective_now")
        actions.apply_objective(state, seat, order)
        state["objective_owed"].remove(seat)
        return
    if seat != current_seat(state):
        raise TEXT.refuse("refuse.not_your_turn")
    if phase == "action":
        if kind != "PLAY":
            raise TEXT.refuse("refuse.play_now")
        actions.apply_play(state, seat, order, rng, events)
        if state["phase"] == "action":
            state["turn"] += 1
            state["bonus"] = False
    elif phase == "part2":
        if kind != "PLACE":
            raise TEXT.refuse("refuse.place_now")
        actions.apply_place(state, seat, order, rng, events)
        state["turn"] += 1
        state["bonus"] = False
    elif phase == "unrest":
        if kind != "UNREST":
            raise TEXT.refuse("refuse.unrest_now")
        ended = actions.apply_unrest(state, seat, order, rng, events)
        if not ended:
            state["phase"] = "scoring"
            state["unrest_side"] = None
    else:
        raise TEXT.refuse("refuse.game_over")
