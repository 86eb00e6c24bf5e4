"""Player orders applied to a state: PLAY, PLACE (Espionage second part), UNREST, OBJECTIVE.

Each ``apply_*`` mutates the state it is given and raises ``IllegalOrder`` at the
first step that is not allowed; ``validate`` runs them on a copy.  ``rng`` may be
None when only checking (then a draw from an empty deck is checked, not done).
"""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import data, position
from app.games.dual_powers.text import TEXT, connection, msg, name
from app.games.dual_powers.text import seat as sname
from app.games.text import listing

Event = dict[str, Any]
Order = dict[str, Any]

ACTIONS = ("PASS", "RECRUIT", "MOVE", "DOUBLE", "REFRESH", "LEADER", "SPY_FIRST")
BONUSES = ("RECRUIT", "MOVE", "REFRESH", "DRAW", "ORGANIZE")


def _named(token: Any) -> Any:
    """A token in a refusal: its name when it is one, else what was written, quoted."""
    return position.tname(token) if isinstance(token, str) and token in data.TOKENS else repr(token)


def _region(value: Any) -> str:
    if value not in data.REGIONS:
        raise TEXT.refuse("refuse.no_region", value=repr(value), regions=", ".join(data.REGIONS))
    return str(value)


def _card_in_hand(state: State, seat: str, card: Any) -> str:
    if not isinstance(card, str) or card not in data.CARDS:
        raise TEXT.refuse("refuse.no_card", card=repr(card))
    if card not in state["hands"][seat]:
        raise TEXT.refuse("refuse.not_in_hand", card=data.card_name(card))
    return card


def _only(order: Order, allowed: set[str]) -> None:
    extra = sorted(repr(str(k)) for k in order if k not in allowed)
    if extra:
        raise TEXT.refuse("refuse.extra_fields", fields=", ".join(extra))


def apply_objective(state: State, seat: str, order: Order) -> None:
    _only(order, {"type", "card"})
    card = _card_in_hand(state, seat, order.get("card"))
    if data.CARDS[card]["kind"] != "command":
        raise TEXT.refuse("refuse.leader_objective")
    state["hands"][seat].remove(card)
    state["objectives"][seat] = card
    state["revealed"][seat] = False


def _recruit(state: State, seat: str, units: Any, card: dict[str, Any], events: list[Event]) -> None:
    if not isinstance(units, list) or not units:
        raise TEXT.refuse("refuse.recruit_none")
    seen: set[str] = set()
    total = 0
    for u in units:
        if not isinstance(u, str) or u not in state["supply"][seat] or data.TOKENS[u]["kind"] != "unit":
            raise TEXT.refuse("refuse.unit_not_in_supply", unit=_named(u))
        if u in seen:
            raise TEXT.refuse("refuse.unit_twice", unit=_named(u))
        seen.add(u)
        total += data.TOKENS[u]["recruit"]
    if total > card["recruit"]:
        raise TEXT.refuse("refuse.recruit_too_much", total=total, recruit=card["recruit"])
    for u in units:
        state["supply"][seat].remove(u)
        state["board"][u] = {"region": card["region"], "fresh": True}
    events.append({"text": msg("event.recruits", seat=sname(seat), units=listing([position.tname(u) for u in units]),
                               region=position.rname(card["region"])), "to": None})


def _move(state: State, seat: str, token: Any, path: list[Any], events: list[Event]) -> None:
    t = position.check_controlled(state, seat, token)
    start = here = state["board"][t]["region"]
    for step in path:
        position.check_step(state, here, step)
        here = step
    if here == start:
        raise TEXT.refuse("refuse.double_same_region")
    state["board"][t]["region"] = here
    events.append({"text": msg("event.moves", seat=sname(seat), token=position.tname(t),
                               start=position.rname(start), end=position.rname(here)), "to": None})


def _refresh(state: State, seat: str, token: Any, events: list[Event]) -> None:
    t = position.check_controlled(state, seat, token)
    if state["board"][t]["fresh"]:
        raise TEXT.refuse("refuse.already_fresh", token=position.tname(t))
    state["board"][t]["fresh"] = True
    events.append({"text": msg("event.refreshes", seat=sname(seat), token=position.tname(t)), "to": None})


def reveal_objective(state: State, side: str, events: list[Event], why: str) -> None:
    """Reveal ``side``'s objective; ``why``: scoring, espionage or organize."""
    card = state["objectives"].get(side)
    if card is None or state["revealed"].get(side):
        return
    state["revealed"][side] = True
    events.append({"text": msg("event.objective_revealed", seat=sname(side), why=msg(f"why.{why}"),
                               card=data.card_label(card)), "to": None})


def apply_bonus(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> None:
    kind = order.get("bonus")
    if kind is None:
        return
    if kind not in BONUSES:
        raise TEXT.refuse("refuse.no_bonus_kind", kind=repr(kind), kinds=", ".join(BONUSES))
    token, to = order.get("bonus_token"), order.get("bonus_to")
    if kind == "RECRUIT":
        if not isinstance(token, str) or token not in state["supply"][seat] \
                or data.TOKENS[token]["kind"] != "unit":
            raise TEXT.refuse("refuse.unit_not_in_supply", unit=_named(token))
        if data.TOKENS[token]["recruit"] != 1:
            raise TEXT.refuse("refuse.bonus_recruit_value")
        region = _region(to)
        state["supply"][seat].remove(token)
        state["board"][token] = {"region": region, "fresh": True}
        events.append({"text": msg("event.bonus_recruits", seat=sname(seat), unit=position.tname(token),
                                   region=position.rname(region)), "to": None})
    elif kind == "MOVE":
        _move(state, seat, token, [_region(to)], events)
    elif kind == "REFRESH":
        _refresh(state, seat, token, events)
    elif kind == "DRAW":
        if not position.can_draw(state):
            raise TEXT.refuse("refuse.nothing_to_draw")
        card = position.draw(state, rng, events)
        if card is not None:
            state["hands"][seat].append(card)
            events.append({"text": msg("event.you_draw", card=data.card_label(card)), "to": [seat]})
        events.append({"text": msg("event.bonus_draw", seat=sname(seat)), "to": None})
    elif kind == "ORGANIZE":
        if not state["solo"]:
            raise TEXT.refuse("refuse.organize_solo")
        if state["revealed"].get(seat):
            raise TEXT.refuse("refuse.objective_revealed")
        reveal_objective(state, seat, events, "organize")


def _bonus_fields(order: Order) -> set[str]:
    return {"bonus", "bonus_token", "bonus_to"} if order.get("bonus") is not None else set()


def _check_bonus(state: State, order: Order) -> None:
    if order.get("bonus") is not None and not state["bonus"]:
        raise TEXT.refuse("refuse.no_bonus")


def _leader_recruit(state: State, seat: str, card: str, region: Any, events: list[Event]) -> None:
    region = _region(region)
    if card not in state["supply"][seat]:
        raise TEXT.refuse("refuse.leader_not_in_supply", name=name("leader", card))
    state["supply"][seat].remove(card)
    state["board"][card] = {"region": region, "fresh": True}
    events.append({"text": msg("event.leader_recruited", seat=sname(seat), leader=name("leader", card),
                               region=position.rname(region)), "to": None})
    if data.LEADER_RECRUIT_REFRESHES_NEUTRALS and state["wotp"] == seat:
        for t in position.tokens_in(state, region):
            if data.TOKENS[t]["kind"] == "neutral" and t != "T-NEU" and not state["board"][t]["fresh"]:
                state["board"][t]["fresh"] = True
                events.append({"text": msg("event.neutral_refreshed", token=position.tname(t)), "to": None})


def _special(state: State, seat: str, card: str, order: Order, events: list[Event]) -> None:
    special = data.CARDS[card]["special"]
    if special == "MOBILIZE":
        conn = order.get("connection")
        if not isinstance(conn, str) or conn not in data.CONNECTIONS:
            raise TEXT.refuse("refuse.mobilize_connection", connections=", ".join(data.CONNECTIONS))
        if conn == state["blockade"]:
            raise TEXT.refuse("refuse.blockade_same")
        state["blockade"] = conn
        events.append({"text": msg("event.mobilize", seat=sname(seat), connection=connection(conn)), "to": None})
    elif special == "ESPIONAGE":
        target = seat if state["solo"] else position.opponent(state, seat)
        if state["objectives"].get(target) is None:
            events.append({"text": msg("event.espionage_nothing", seat=sname(seat)), "to": None})
        reveal_objective(state, target, events, "espionage")
    else:
        if state["wotp"] != seat:
            state["wotp"] = seat
        events.append({"text": msg("event.inspire", seat=sname(seat)), "to": None})


def apply_play(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> None:
    card = _card_in_hand(state, seat, order.get("card"))
    info = data.CARDS[card]
    action = order.get("action")
    if action not in ACTIONS:
        raise TEXT.refuse("refuse.no_action", action=repr(action), actions=", ".join(ACTIONS))
    if info["kind"] == "command":
        if action not in ("PASS", "RECRUIT", info["action"]):
            raise TEXT.refuse("refuse.command_actions", card=data.card_name(card),
                              action=name("action", info["action"]))
    elif action not in ("PASS", "LEADER", "SPY_FIRST") or (
            action == "SPY_FIRST" and info["special"] != "ESPIONAGE"):
        raise TEXT.refuse("refuse.leader_actions", card=data.card_name(card), special=name("special", info["special"]))
    fields = {"PASS": set(), "RECRUIT": {"units"}, "MOVE": {"token", "to"},
              "DOUBLE": {"token", "to", "via"}, "REFRESH": {"token"},
              "LEADER": {"region", "special", "special_first", "connection"}, "SPY_FIRST": set()}[action]
    _only(order, {"type", "card", "action"} | fields | _bonus_fields(order))
    # 1 play the card, 2 advance the date
    state["hands"][seat].remove(card)
    state["played"][seat].append(card)
    events.append({"text": msg("event.plays", seat=sname(seat), card=data.card_label(card)), "to": None})
    state["bonus"] = position.advance_date(state, info["days"], seat, events)
    events.append({"text": msg("event.date_bonus" if state["bonus"] else "event.date", day=state["day"],
                               month=name("month", str(state["month"]))), "to": None})
    # 3 action
    if action == "RECRUIT":
        _recruit(state, seat, order.get("units"), info, events)
    elif action == "MOVE":
        _move(state, seat, order.get("token"), [_region(order.get("to"))], events)
    elif action == "DOUBLE":
        path = [order["via"]] if order.get("via") is not None else []
        _move(state, seat, order.get("token"), [_region(p) for p in path + [order.get("to")]], events)
    elif action == "REFRESH":
        _refresh(state, seat, order.get("token"), events)
    elif action == "LEADER":
        special, first = order.get("special", False), order.get("special_first", False)
        if not isinstance(special, bool) or not isinstance(first, bool):
            raise TEXT.refuse("refuse.special_bool")
        if order.get("connection") is not None and not (special and info["special"] == "MOBILIZE"):
            raise TEXT.refuse("refuse.connection_only_mobilize")
        if special and first:
            _special(state, seat, card, order, events)
        if order.get("region") is not None:
            _leader_recruit(state, seat, card, order.get("region"), events)
        if special and not first:
            _special(state, seat, card, order, events)
    elif action == "SPY_FIRST":
        if order.get("bonus") is not None:
            raise TEXT.refuse("refuse.spy_first_bonus")
        _special(state, seat, card, order, events)
        state["phase"] = "part2"
        state["pending"] = card
        return
    # 4 bonus
    _check_bonus(state, order)
    apply_bonus(state, seat, order, rng, events)


def apply_place(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> None:
    _only(order, {"type", "region"} | _bonus_fields(order))
    if order.get("region") is not None:
        _leader_recruit(state, seat, state["pending"], order.get("region"), events)
    _check_bonus(state, order)
    apply_bonus(state, seat, order, rng, events)
    state["pending"] = None
    state["phase"] = "action"


def apply_unrest(state: State, seat: str, order: Order, rng: Any, events: list[Event]) -> bool:
    """Returns True if the SCORE choice ended the game."""
    choice = order.get("choice")
    if choice == "SCORE":
        _only(order, {"type", "choice"})
        vp = data.UNREST_VP[state["month"]]
        return position.move_gain(state, seat, vp, events,
                                  msg("why.unrest", region=position.rname(state["tiles"]["unrest"])))
    if choice != "BONUS":
        raise TEXT.refuse("refuse.unrest_choice")
    _only(order, {"type", "choice"} | _bonus_fields(order))
    if order.get("bonus") is None:
        raise TEXT.refuse("refuse.unrest_bonus_missing")
    apply_bonus(state, seat, order, rng, events)
    return False
