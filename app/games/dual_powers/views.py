"""What each seat may see (spec 5): views, secrets and outcome."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import data, position, rounds
from app.games.dual_powers.text import connection, month, msg, name


def card_info(cid: str) -> dict[str, Any]:
    info = dict(data.CARDS[cid])
    info["id"] = cid
    info["label"] = data.card_label(cid)
    info["short"] = data.card_name(cid)
    if info["kind"] == "leader":
        info["name"] = name("leader", cid)
        info["special_name"] = name("special", info["special"])
    else:
        info["region_name"] = name("region", info["region"])
        info["action_name"] = name("action", info["action"])
    return info


def _objective_visible(state: State, side: str, seat: str | None) -> bool:
    if state["revealed"].get(side):
        return True
    return bool(seat == side and not state["solo"])


def counted(tokens: list[str]) -> list[Any]:
    """Tokens by name, alike ones once with their number (2 × red unit 1/0), in the order given."""
    names: list[dict[str, Any]] = []
    counts: list[int] = []
    for t in tokens:
        named = data.kind_name(t)
        if named in names:
            counts[names.index(named)] += 1
        else:
            names.append(named)
            counts.append(1)
    return [msg("token.count", n=n, token=named) if n > 1 else named for named, n in zip(names, counts, strict=True)]


def short_label(token: str) -> Any:
    """What a token shows on the board: a unit its printed values (2/1; X for an Opposition unit's
    difficulty), a leader the first letters of the name."""
    info = data.TOKENS[token]
    if info["kind"] in ("unit", "opp") or (info["kind"] == "neutral" and token != "T-NEU"):
        return f"{info['fresh']}/{'X' if info['exhausted'] is None else info['exhausted']}"
    return msg("short.TROT") if token in ("T-NEU", "T-RED") else msg(f"short.{token}")


def view(state: State, seat: str | None) -> dict[str, Any]:
    sides = position.sides(state)
    regions = []
    for r in data.REGIONS:
        tokens = []
        for t in sorted(position.tokens_in(state, r), key=data.TOKEN_ORDER.__getitem__):
            tokens.append({"id": t, "name": data.token_name(t), "short": short_label(t),
                           "owner": position.owner(state, t) or "NEU",
                           "fresh": state["board"][t]["fresh"], "strength": position.token_strength(state, t)})
        regions.append({
            "id": r, "name": name("region", r), "colour": name("colour", r), "tokens": tokens,
            "unrest": state["tiles"]["unrest"] == r, "blockade_tile": state["tiles"]["blockade"] == r,
            "markers": [m["marker"] for m in state["markers"] if m["region"] == r],
            "strength": {s: list(position.strength(state, s, r)) for s in sides},
            "greater": position.greater(state, r),
        })
    connections = [{"id": c, "name": connection(c), "ends": list(ends),
                    "blockaded": c == state["blockade"]} for c, ends in data.CONNECTIONS.items()]
    objectives = {}
    for side in sides:
        card = state["objectives"].get(side)
        visible = card is not None and _objective_visible(state, side, seat)
        objectives[side] = {"set": card is not None, "revealed": bool(state["revealed"].get(side)),
                            "card": card_info(card) if visible else None}
    hands = state["hands"]
    out: dict[str, Any] = {
        "seat": seat, "solo": state["solo"], "difficulty": state["difficulty"], "human": state["human"],
        "sides": sides, "round": state["round"], "phase": state["phase"],
        "day": state["day"], "month": state["month"], "month_name": month(state["month"]),
        "months": [month(i) for i in range(len(data.MONTHS))], "unrest_vp": data.UNREST_VP[state["month"]],
        "s": state["s"], "track_end": data.TRACK_END, "wotp": state["wotp"],
        "sov_side": state["side_of"]["SOV"], "gov_side": state["side_of"]["GOV"],
        "turn": min(state["turn"] + 1, len(state["turn_order"])), "turns": len(state["turn_order"]),
        "turn_order": list(state["turn_order"]), "to_act": rounds.current_seat(state),
        "bonus": state["bonus"], "regions": regions, "connections": connections,
        "blockade": state["blockade"],
        "supply": {s: list(v) for s, v in state["supply"].items()},
        "opp_pool": {str(lv): sum(1 for t in state["opp_pool"] if data.TOKENS[t]["level"] == lv)
                     for lv in data.OPP_LEVELS} if state["solo"] else {},
        "out": list(state["out"]),
        "tiles": {"unrest": state["tiles"]["unrest"], "blockade": state["tiles"]["blockade"],
                  "stack_count": len(state["tiles"]["stack"]),
                  "stack_set": sorted(state["tiles"]["stack"]), "gone": list(state["tiles"]["gone"])},
        "played": {s: [card_info(c) for c in row] for s, row in state["played"].items()},
        "discard": list(state["discard"]),
        "discard_names": [data.card_name(c) for c in state["discard"]], "removed_cards": list(state["removed_cards"]),
        "deck_count": len(state["deck"]),
        "hand_counts": {s: len(h) for s, h in hands.items()},
        "leader_cards_in_hand": {s: [c for c in h if data.CARDS[c]["kind"] == "leader"]
                                 for s, h in hands.items()},
        "objectives": objectives, "objective_pending": list(state["objective_owed"]),
        "markers": [dict(m) for m in state["markers"]],
        "opp_pile_count": len(state["opp_pile"]), "opp_leader_pile_count": len(state["opp_leaders"]),
        "opp_leader_card": state["opp_leader_card"],
        "winner": state["winner"],
        "end_reason": position.END_REASONS.get(state["end_reason"]) if state["end_reason"] else None,
        "side_names": {s: name("seat", s) for s in [*data.SIDES, "OPP"]},
        "tile_names": {"unrest": name("region", state["tiles"]["unrest"]),
                       "blockade": name("region", state["tiles"]["blockade"])},
        "blockade_name": connection(state["blockade"]),
        "tile_stack_names": [name("region", t[5:]) for t in sorted(state["tiles"]["stack"])],
        "supply_names": {s: counted(v) for s, v in state["supply"].items()},
        "out_names": [position.tname(t) for t in state["out"]],
        "removed_names": [data.card_name(c) for c in state["removed_cards"]],
        "leader_names": {lid: name("leader", lid) for lid in data.CARDS if data.CARDS[lid]["kind"] == "leader"},
        "hand": None,
        # raw fields for the bot (``seen``): all public
        "turn_index": state["turn"], "pending": state["pending"], "unrest_side": state["unrest_side"],
        "end_reason_code": state["end_reason"],
    }
    if seat is not None and seat in hands:
        out["hand"] = [card_info(c) for c in sorted(hands[seat], key=data.CARD_ORDER.__getitem__)]
    return out


def secrets(state: State, seat: str) -> list[str]:
    hidden = [c for c in state["hands"].get(seat, []) if data.CARDS[c]["kind"] == "command"]
    obj = state["objectives"].get(seat)
    if obj is not None and not state["solo"] and not state["revealed"].get(seat):
        hidden.append(obj)
    return hidden


def outcome(state: State) -> list[dict[str, Any]] | None:
    if state["phase"] != "over":
        return None
    winner = state["winner"]
    s = state["s"]
    if state["solo"]:
        human = state["human"]
        return [{"seat": human, "score": position.sign(state, human) * s, "rank": 1 if winner == human else 2,
                 "won": winner == human}]
    loser = position.opponent(state, winner)
    return [{"seat": winner, "score": position.sign(state, winner) * s, "rank": 1},
            {"seat": loser, "score": position.sign(state, loser) * s, "rank": 2}]
