"""Prompts: what a seat owes now, with forms drawn for a no-JavaScript page."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import choices, data, notation, position, rounds

Prompt = dict[str, Any]

HOUR = 3600


def _choice(name: str, label: str, items: list[dict[str, str]], required: bool = True) -> dict[str, Any]:
    field: dict[str, Any] = {"name": name, "label": label, "type": "choice", "choices": items}
    if not required:
        field["required"] = False
    return field


def _card_choices(state: State, cards: list[str]) -> list[dict[str, str]]:
    out = []
    for c in sorted(cards, key=data.CARD_ORDER.__getitem__):
        label = data.card_label(c)
        if choices.would_bonus(state, data.CARDS[c]["days"]):
            label += " - gives a bonus action"
        out.append({"value": c, "label": label})
    return out


def _regions() -> list[dict[str, str]]:
    return [{"value": r, "label": f"{data.REGION_NAMES[r]} ({r}, {data.REGION_COLOURS[r]})"} for r in data.REGIONS]


def _token_label(state: State, t: str) -> str:
    at = state["board"][t]
    side = "fresh" if at["fresh"] else "exhausted"
    strength = position.token_strength(state, t)
    return f"{position.tname(t)} in {position.rname(at['region'])} ({side}, strength {strength})"


def _board_tokens(state: State, seat: str, exhausted_only: bool = False) -> list[dict[str, str]]:
    out = []
    for t in sorted(state["board"], key=data.TOKEN_ORDER.__getitem__):
        if position.owner(state, t) not in (seat, None):
            continue
        if exhausted_only and state["board"][t]["fresh"]:
            continue
        out.append({"value": t, "label": _token_label(state, t)})
    return out


def _supply_units(state: State, seat: str, only_value: int | None = None) -> list[dict[str, str]]:
    out = []
    for u in state["supply"][seat]:
        info = data.TOKENS[u]
        if info["kind"] != "unit" or (only_value is not None and info["recruit"] != only_value):
            continue
        out.append({"value": u, "label": f"{u} (recruit {info['recruit']}, strength "
                                         f"{info['fresh']}/{info['exhausted']})"})
    return out


def bonus_fields(state: State, seat: str) -> list[dict[str, Any]]:
    kinds = [{"value": "RECRUIT", "label": "Bonus Recruit: a value-1 unit into any region"},
             {"value": "MOVE", "label": "Bonus Move: one controlled token one step"},
             {"value": "REFRESH", "label": "Bonus Refresh: flip one controlled token fresh"},
             {"value": "DRAW", "label": "Bonus Draw: draw a command card"}]
    if state["solo"]:
        kinds.append({"value": "ORGANIZE", "label": "Organize: reveal your own secret objective"})
    tokens = _board_tokens(state, seat) + _supply_units(state, seat, 1)
    return [_choice("bonus", "Bonus action", kinds, required=False),
            _choice("bonus_token", "Bonus: token or unit", tokens, required=False),
            _choice("bonus_to", "Bonus: region", _regions(), required=False)]


def turn_prompt(state: State, seat: str) -> Prompt:
    hand = state["hands"][seat]
    commands = choices.command_cards(hand)
    leaders = [c for c in hand if data.CARDS[c]["kind"] == "leader"]
    bonus_possible = any(choices.would_bonus(state, data.CARDS[c]["days"]) for c in hand)
    extra = bonus_fields(state, seat) if bonus_possible else []
    forms = []

    def add(label: str, base: dict[str, Any], cards: list[str], fields: list[dict[str, Any]],
            with_bonus: bool = True) -> None:
        empty = any(f["type"] == "choice" and f.get("required", True) and not f["choices"] for f in fields)
        if cards and not empty:
            full_base: dict[str, Any] = {"type": "PLAY", **base}
            forms.append({"label": label, "base": full_base,
                          "fields": [_choice("card", "Card", _card_choices(state, cards)), *fields]
                          + (extra if with_bonus else [])})

    add("Recruit", {"action": "RECRUIT"}, commands,
        [{"name": "units", "label": "Units from your supply (total recruit value up to the card's)",
          "type": "multi", "choices": _supply_units(state, seat)}])
    by_action = {a: [c for c in commands if data.CARDS[c]["action"] == a] for a in data.ACTION_NAMES}
    add("Move", {"action": "MOVE"}, by_action["MOVE"],
        [_choice("token", "Token to move", _board_tokens(state, seat)), _choice("to", "To", _regions())])
    add("Double move", {"action": "DOUBLE"}, by_action["DOUBLE"],
        [_choice("token", "Token to move", _board_tokens(state, seat)),
         _choice("via", "Via (for two steps)", _regions(), required=False),
         _choice("to", "To", _regions())])
    add("Refresh", {"action": "REFRESH"}, by_action["REFRESH"],
        [_choice("token", "Exhausted token to refresh", _board_tokens(state, seat, True))])
    leader_fields = [_choice("region", "Place the leader in (leave empty to skip)", _regions(), False),
                     {"name": "special", "label": "Use the special action", "type": "bool"},
                     {"name": "special_first", "label": "Special action before placing the leader",
                      "type": "bool"}]
    if any(data.CARDS[c]["special"] == "MOBILIZE" for c in leaders):
        conns = [{"value": c, "label": f"{data.CONNECTION_NAMES[c]} ({c}: {position.rname(a)} - {position.rname(b)})"}
                 for c, (a, b) in data.CONNECTIONS.items() if c != state["blockade"]]
        leader_fields.append(_choice("connection", "Mobilize Protest: blockade to", conns, False))
    add("Leader", {"action": "LEADER"}, leaders, leader_fields)
    spies = [c for c in leaders if data.CARDS[c]["special"] == "ESPIONAGE"]
    add("Espionage first (place the leader after seeing the objective)", {"action": "SPY_FIRST"},
        spies, [], with_bonus=False)
    add("Play a card without action", {"action": "PASS"}, hand, [])
    n = state["turn"] + 1
    blocked = data.CONNECTION_NAMES[state["blockade"]]
    return {
        "kind": "turn",
        "title": f"Round {state['round']}, turn {n} of {len(state['turn_order'])}: play a card",
        "text": (f"Day {state['day']} of {data.MONTHS[state['month']]}; Will of the People: {state['wotp']}; "
                 f"blockaded: {blocked}; unrest in {position.rname(state['tiles']['unrest'])}. A command card "
                 "allows Recruit or its printed action; a leader card allows Leader Recruit and its "
                 "special action. Ending on day 15 or 31 gives a bonus action."),
        "example": notation.format_order(choices.default_play(state, seat)),
        "forms": forms,
        "seconds": 48 * HOUR,
    }


def owed(state: State) -> dict[str, Prompt]:
    phase = state["phase"]
    if phase == "objective":
        out = {}
        for seat in state["objective_owed"]:
            cards = choices.command_cards(state["hands"][seat])
            out[seat] = {
                "kind": "objective", "title": f"Round {state['round']}: choose your secret objective",
                "text": "Pick a command card from your hand. At the end of the round you gain its VP if "
                        "you have greater strength in its region.",
                "example": notation.format_order(choices.default_objective(state, seat)),
                "forms": [{"label": "Set this objective", "base": {"type": "OBJECTIVE"},
                           "fields": [_choice("card", "Card", _card_choices(state, cards))]}],
                "seconds": 72 * HOUR,
            }
        return out
    seat = rounds.current_seat(state)
    if seat is None:
        return {}
    if phase == "action":
        return {seat: turn_prompt(state, seat)}
    if phase == "part2":
        fields = [_choice("region", f"Place {data.CARDS[state['pending']]['name']} in (empty: not at all)",
                          _regions(), False)]
        if state["bonus"]:
            fields += bonus_fields(state, seat)
        return {seat: {"kind": "turn_part2", "title": "Place your leader after Espionage",
                       "example": f"PLACE {state['tiles']['unrest']}",
                       "forms": [{"label": "Place", "base": {"type": "PLACE"}, "fields": fields}],
                       "seconds": 24 * HOUR}}
    vp = data.UNREST_VP[state["month"]]
    return {seat: {"kind": "unrest_choice",
                   "title": f"Unrest in {position.rname(state['tiles']['unrest'])}: score {vp} VP or take a bonus",
                   "example": "UNREST SCORE",
                   "forms": [{"label": f"Score {vp} VP", "base": {"type": "UNREST", "choice": "SCORE"},
                              "fields": []},
                             {"label": "Take a bonus action instead", "base": {"type": "UNREST",
                                                                               "choice": "BONUS"},
                              "fields": bonus_fields(state, seat)}],
                   "seconds": 24 * HOUR}}
