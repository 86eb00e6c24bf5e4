"""Prompts: what a seat owes now, with forms drawn for a no-JavaScript page."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import choices, data, legal, notation, position, rounds
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
    return [legal.card_choice(state, c) for c in sorted(cards, key=data.CARD_ORDER.__getitem__)]


def _regions() -> list[dict[str, Any]]:
    return [legal.region_choice(r) for r in data.REGIONS]


def _options(state: State, seat: str, cards: list[str], action: str) -> list[dict[str, Any]]:
    """Every legal action part of kind ``action`` after each of ``cards``, with its card."""
    out = []
    for card in cards:
        for group in choices.action_options(state, seat, card):
            out += [{"card": card, **part} for part in group if part["action"] == action]
    return out


def _form(state: State, seat: str, label: str, action: str, cards: list[str], fields: list[dict[str, Any]],
          with_bonus: bool = True, **extra: Any) -> dict[str, Any]:
    form: dict[str, Any] = {"label": msg(label), "base": {"type": "PLAY", "action": action}, "fields": fields,
                            **extra}
    if with_bonus:
        form["fields"] = fields + legal.bonus_fields(state, seat, cards)
    return form


def _tied_form(state: State, label: str, action: str, full: list[dict[str, Any]], fields: list[dict[str, Any]],
               names: list[str], **extra: Any) -> dict[str, Any]:
    """A form whose legal actions are its ``combos`` (``full``: each action, with or without a bonus action).

    The bonus actions legal after each action are listed apart (``bonuses``, and ``after``: per
    action key, their positions): a page offers them once the action is chosen, so that it
    never offers a bonus action that the action just chosen makes illegal.
    """
    bonus = legal.tied_bonus(state, full)
    if bonus:
        extra["bonuses"], extra["after"] = legal.bonus_plan(full, names)
    return _form(state, "", label, action, [], fields + bonus, with_bonus=False,
                 combos=legal.combos([o for o in full if not o.get("bonus")], names), **extra)


LEADER_KEYS = ("card", "region", "special", "special_first", "connection")


def _leader_form(state: State, seat: str, leaders: list[str], fields: list[dict[str, Any]]) -> dict[str, Any]:
    options = [{"card": c, **part} for c in leaders for part in choices.action_options(state, seat, c)[0]]
    keys = [k for k in LEADER_KEYS if any(f["name"] == k for f in fields)]
    bonus, extra = legal.staged_bonus(state, seat, options, keys)
    if extra:  # "special first" ticked without the special ability: the same action as left unticked
        special, first = keys.index("special"), keys.index("special_first")
        for key in list(extra["after"]):
            parts = key.split("|")
            if not parts[special]:
                parts[first] = "1"
                extra["after"]["|".join(parts)] = extra["after"][key]
    return _form(state, seat, "form.leader", "LEADER", leaders, fields + bonus, with_bonus=False, **extra)


LABELS = {"card": msg("field.card"), "token": msg("field.token"), "to": msg("field.to"),
          "via": msg("field.via")}


def turn_forms(state: State, seat: str) -> list[dict[str, Any]]:
    """One form per kind of action, each offering only the cards (and tokens, regions) it may take."""
    hand = state["hands"][seat]
    commands = sorted(choices.command_cards(hand), key=data.CARD_ORDER.__getitem__)
    leaders = sorted((c for c in hand if data.CARDS[c]["kind"] == "leader"), key=data.CARD_ORDER.__getitem__)
    forms = []
    units = [u for u in state["supply"][seat] if data.TOKENS[u]["kind"] == "unit"]
    cheapest = min((data.TOKENS[u]["recruit"] for u in units), default=None)
    recruiters = [c for c in commands if cheapest is not None and data.CARDS[c]["recruit"] >= cheapest]
    if recruiters:
        fields = [_choice("card", "field.card", _card_choices(state, recruiters)),
                  {"name": "units", "label": msg("field.units"), "type": "multi",
                   "choices": [{"value": u, "label": legal.unit_label(u), "title": u,
                                "recruit": data.TOKENS[u]["recruit"]} for u in units]}]
        opts = [{"card": c, "action": "RECRUIT", "units": u} for c in recruiters
                for u in choices.recruits(choices.after_card(state, seat, c), seat, data.CARDS[c]["recruit"])]
        bonus, staged = legal.staged_bonus(state, seat, opts, ["card", "units"])
        forms.append(_form(state, seat, "form.recruit", "RECRUIT", recruiters, fields + bonus, with_bonus=False,
                           **staged))
    for action, label, names in (("MOVE", "form.move", ["card", "token", "to"]),
                                 ("DOUBLE", "form.double", ["card", "token", "to"])):
        opts = _options(state, seat, [c for c in commands if data.CARDS[c]["action"] == action], action)
        if not opts:
            continue
        full = legal.with_bonuses(state, seat, opts)
        fields = legal.chain(opts, names, LABELS, state)
        extra: dict[str, Any] = {}
        if action == "DOUBLE":
            two = [o for o in opts if o.get("via")]
            if two:
                fields.append(legal.chain(two, ["to", "via"], LABELS, state, {"via": False})[1])
            extra["routes"] = legal.combos(two, ["token", "to", "via"])
        forms.append(_tied_form(state, label, action, full, fields, names, **extra))
    opts = _options(state, seat, [c for c in commands if data.CARDS[c]["action"] == "REFRESH"], "REFRESH")
    if opts:
        fields = legal.chain(opts, ["card", "token"], {**LABELS, "token": msg("field.refresh_token")}, state)
        forms.append(_tied_form(state, "form.refresh", "REFRESH", legal.with_bonuses(state, seat, opts), fields,
                                ["card", "token"]))
    if leaders:
        fields = [_choice("card", "field.card", _card_choices(state, leaders)),
                  _choice("region", "field.leader_region", _regions(), False),
                  {"name": "special", "label": msg("field.special"), "type": "bool"},
                  {"name": "special_first", "label": msg("field.special_first"), "type": "bool"}]
        mobilizers = [c for c in leaders if data.CARDS[c]["special"] == "MOBILIZE"]
        if mobilizers:
            conns = [{"value": c, "label": msg("choice.connection", connection=connection(c), a=position.rname(a),
                                               b=position.rname(b)), "title": c, "when": mobilizers}
                     for c, (a, b) in data.CONNECTIONS.items() if c != state["blockade"]]
            field = _choice("connection", "field.connection", conns, False)
            field["depends_on"] = "card"
            fields.append(field)
        forms.append(_leader_form(state, seat, leaders, fields))
    spies = [c for c in leaders if data.CARDS[c]["special"] == "ESPIONAGE"]
    if spies:
        forms.append(_form(state, seat, "form.spy_first", "SPY_FIRST", spies,
                           [_choice("card", "field.card", _card_choices(state, spies))], with_bonus=False))
    cards = sorted(hand, key=data.CARD_ORDER.__getitem__)
    if cards:
        full = legal.with_bonuses(state, seat, [{"card": c, "action": "PASS"} for c in cards])
        fields = [_choice("card", "field.card", _card_choices(state, cards))]
        forms.append(_tied_form(state, "form.pass", "PASS", full, fields, ["card"]))
    return forms


def turn_prompt(state: State, seat: str) -> Prompt:
    n = state["turn"] + 1
    return {
        "kind": "turn",
        "title": msg("prompt.turn.title", round=state["round"], turn=n, turns=len(state["turn_order"])),
        "text": msg("prompt.turn.text", day=state["day"], month=name("month", str(state["month"])),
                    wotp=sname(state["wotp"]), blocked=connection(state["blockade"]),
                    unrest=position.rname(state["tiles"]["unrest"])),
        "example": notation.format_order(choices.default_play(state, seat)),
        "forms": turn_forms(state, seat),
        "seconds": 48 * HOUR,
    }


def owing(state: State) -> list[str]:
    """The seats that owe a decision now (the keys of :func:`owed`, without drawing its forms)."""
    if state["phase"] == "objective":
        return list(state["objective_owed"])
    seat = rounds.current_seat(state)
    return [] if seat is None else [seat]


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
            fields += legal.bonus_fields(state, seat, None)
        return {seat: {"kind": "turn_part2", "title": msg("prompt.place.title"),
                       "example": f"PLACE {state['tiles']['unrest']}",
                       "forms": [{"label": msg("prompt.place.form"), "base": {"type": "PLACE"}, "fields": fields}],
                       "seconds": 24 * HOUR}}
    vp = data.UNREST_VP[state["month"]]
    forms: list[dict[str, Any]] = [{"label": msg("prompt.unrest.score", vp=vp),
                                    "base": {"type": "UNREST", "choice": "SCORE"}, "fields": []}]
    bonus = legal.bonus_fields(state, seat, None, required=True)
    if bonus:
        forms.append({"label": msg("prompt.unrest.bonus"), "base": {"type": "UNREST", "choice": "BONUS"},
                      "fields": bonus})
    return {seat: {"kind": "unrest_choice",
                   "title": msg("prompt.unrest.title", region=position.rname(state["tiles"]["unrest"]), vp=vp),
                   "example": "UNREST SCORE", "forms": forms, "seconds": 24 * HOUR}}
