"""Prompts: what a seat owes now, with forms drawn for a no-JavaScript page."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import choices, data, notation, position, rounds
from app.games.dual_powers.text import connection, msg, name
from app.games.dual_powers.text import seat as sname

Prompt = dict[str, Any]

HOUR = 3600


def _choice(field_name: str, label: Any, items: list[dict[str, Any]], required: bool = True) -> dict[str, Any]:
    """A choice field; ``label`` is a message, or the id of one without parameters."""
    text = label if isinstance(label, dict) else msg(label)
    field: dict[str, Any] = {"name": field_name, "label": text, "type": "choice", "choices": items}
    if not required:
        field["required"] = False
    return field


def _card_choices(state: State, cards: list[str]) -> list[dict[str, Any]]:
    out = []
    for c in sorted(cards, key=data.CARD_ORDER.__getitem__):
        label = data.card_label(c)
        if choices.would_bonus(state, data.CARDS[c]["days"]):
            label = msg("card.gives_bonus", card=label)
        out.append({"value": c, "label": label})
    return out


def _regions() -> list[dict[str, Any]]:
    return [{"value": r, "label": msg("choice.region", region=name("region", r), colour=name("colour", r))}
            for r in data.REGIONS]


def _token_label(state: State, t: str) -> dict[str, Any]:
    at = state["board"][t]
    side = name("state", "fresh" if at["fresh"] else "exhausted")
    strength = position.token_strength(state, t)
    return msg("choice.token", token=position.tname(t), region=position.rname(at["region"]), state=side,
               strength=strength)


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
        out.append({"value": u, "label": msg("choice.unit", unit=u, recruit=info["recruit"], fresh=info["fresh"],
                                             exhausted=info["exhausted"])})
    return out


def bonus_fields(state: State, seat: str) -> list[dict[str, Any]]:
    kinds = [{"value": k, "label": msg(f"choice.bonus.{k}")} for k in ("RECRUIT", "MOVE", "REFRESH", "DRAW")]
    if state["solo"]:
        kinds.append({"value": "ORGANIZE", "label": msg("choice.bonus.ORGANIZE")})
    tokens = _board_tokens(state, seat) + _supply_units(state, seat, 1)
    return [_choice("bonus", "field.bonus", kinds, required=False),
            _choice("bonus_token", "field.bonus_token", tokens, required=False),
            _choice("bonus_to", "field.bonus_to", _regions(), required=False)]


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
            forms.append({"label": msg(label), "base": full_base,
                          "fields": [_choice("card", "field.card", _card_choices(state, cards)), *fields]
                          + (extra if with_bonus else [])})

    add("form.recruit", {"action": "RECRUIT"}, commands,
        [{"name": "units", "label": msg("field.units"),
          "type": "multi", "choices": _supply_units(state, seat)}])
    by_action = {a: [c for c in commands if data.CARDS[c]["action"] == a] for a in data.ACTION_NAMES}
    add("form.move", {"action": "MOVE"}, by_action["MOVE"],
        [_choice("token", "field.token", _board_tokens(state, seat)), _choice("to", "field.to", _regions())])
    add("form.double", {"action": "DOUBLE"}, by_action["DOUBLE"],
        [_choice("token", "field.token", _board_tokens(state, seat)),
         _choice("via", "field.via", _regions(), required=False),
         _choice("to", "field.to", _regions())])
    add("form.refresh", {"action": "REFRESH"}, by_action["REFRESH"],
        [_choice("token", "field.refresh_token", _board_tokens(state, seat, True))])
    leader_fields = [_choice("region", "field.leader_region", _regions(), False),
                     {"name": "special", "label": msg("field.special"), "type": "bool"},
                     {"name": "special_first", "label": msg("field.special_first"), "type": "bool"}]
    if any(data.CARDS[c]["special"] == "MOBILIZE" for c in leaders):
        conns = [{"value": c, "label": msg("choice.connection", connection=connection(c), a=position.rname(a),
                                           b=position.rname(b))}
                 for c, (a, b) in data.CONNECTIONS.items() if c != state["blockade"]]
        leader_fields.append(_choice("connection", "field.connection", conns, False))
    add("form.leader", {"action": "LEADER"}, leaders, leader_fields)
    spies = [c for c in leaders if data.CARDS[c]["special"] == "ESPIONAGE"]
    add("form.spy_first", {"action": "SPY_FIRST"},
        spies, [], with_bonus=False)
    add("form.pass", {"action": "PASS"}, hand, [])
    n = state["turn"] + 1
    return {
        "kind": "turn",
        "title": msg("prompt.turn.title", round=state["round"], turn=n, turns=len(state["turn_order"])),
        "text": msg("prompt.turn.text", day=state["day"], month=name("month", str(state["month"])),
                    wotp=sname(state["wotp"]), blocked=connection(state["blockade"]),
                    unrest=position.rname(state["tiles"]["unrest"])),
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
                "kind": "objective", "title": msg("prompt.objective.title", round=state["round"]),
                "text": msg("prompt.objective.text"),
                "example": notation.format_order(choices.default_objective(state, seat)),
                "forms": [{"label": msg("prompt.objective.form"), "base": {"type": "OBJECTIVE"},
                           "fields": [_choice("card", "field.card", _card_choices(state, cards))]}],
                "seconds": 72 * HOUR,
            }
        return out
    seat = rounds.current_seat(state)
    if seat is None:
        return {}
    if phase == "action":
        return {seat: turn_prompt(state, seat)}
    if phase == "part2":
        fields = [_choice("region", msg("prompt.place.region", leader=name("leader", state["pending"])),
                          _regions(), False)]
        if state["bonus"]:
            fields += bonus_fields(state, seat)
        return {seat: {"kind": "turn_part2", "title": msg("prompt.place.title"),
                       "example": f"PLACE {state['tiles']['unrest']}",
                       "forms": [{"label": msg("prompt.place.form"), "base": {"type": "PLACE"}, "fields": fields}],
                       "seconds": 24 * HOUR}}
    vp = data.UNREST_VP[state["month"]]
    return {seat: {"kind": "unrest_choice",
                   "title": msg("prompt.unrest.title", region=position.rname(state["tiles"]["unrest"]), vp=vp),
                   "example": "UNREST SCORE",
                   "forms": [{"label": msg("prompt.unrest.score", vp=vp), "base": {"type": "UNREST", "choice": "SCORE"},
                              "fields": []},
                             {"label": msg("prompt.unrest.bonus"), "base": {"type": "UNREST",
                                                                               "choice": "BONUS"},
                              "fields": bonus_fields(state, seat)}],
                   "seconds": 24 * HOUR}}
