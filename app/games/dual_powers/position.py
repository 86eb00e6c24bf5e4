"""The position on the board: token ownership, control, strength, connections and the calendar."""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import data
from app.games.dual_powers.text import TEXT, connection, month, msg, name
from app.games.dual_powers.text import seat as sname
from app.games.text import listing

#: Why a game ended (the state keeps the key; events and views show the message).
END_REASONS = {"track end": msg("end.track"), "end of the calendar": msg("end.calendar"),
               "end of round 3": msg("end.solo")}

Event = dict[str, Any]


def rname(region: str) -> dict[str, Any]:
    """A region by its name (a message)."""
    return name("region", region)


def owner(state: State, token: str) -> str | None:
    """The side (SOV, GOV or OPP) a faction token belongs to; None for neutrals."""
    info = data.TOKENS[token]
    if info["kind"] == "opp":
        return "OPP"
    if token == "T-RED":
        return str(state["side_of"]["SOV"])
    faction = info["faction"]
    return None if faction is None else str(state["side_of"][faction])


def sides(state: State) -> list[str]:
    """The two sides in play: SOV and GOV, or the human and OPP in solo."""
    return [state["side_of"]["SOV"], state["side_of"]["GOV"]]


def opponent(state: State, side: str) -> str:
    a, b = sides(state)
    return b if side == a else a


def sign(state: State, side: str) -> int:
    """+1 if ``side`` scores towards SOV's end of the track, else -1."""
    return 1 if side == state["side_of"]["SOV"] else -1


def tokens_in(state: State, region: str) -> list[str]:
    return [t for t, at in state["board"].items() if at["region"] == region]


def token_strength(state: State, token: str) -> int:
    info = data.TOKENS[token]
    fresh = state["board"][token]["fresh"]
    if info["kind"] == "opp":
        return int(info["level"] if fresh else state["difficulty"])
    return int(info["fresh"] if fresh else info["exhausted"])


def has_presence(state: State, side: str, region: str) -> bool:
    return any(owner(state, t) == side for t in tokens_in(state, region))


def controls(state: State, side: str, token: str) -> bool:
    """Own faction tokens always; a neutral only with WotP and a token of one's own beside it."""
    if token not in state["board"]:
        return False
    who = owner(state, token)
    if who is not None:
        return who == side
    return state["wotp"] == side and has_presence(state, side, state["board"][token]["region"])


def strength(state: State, side: str, region: str) -> tuple[int, int]:
    """(strength, token count) of ``side`` in ``region`` (spec 4.4)."""
    here = tokens_in(state, region)
    own = [t for t in here if owner(state, t) == side]
    if not own:
        return 0, 0
    counted = list(own)
    if state["wotp"] == side:
        counted += [t for t in here if owner(state, t) is None]
    return sum(token_strength(state, t) for t in counted), len(counted)


def greater(state: State, region: str) -> str | None:
    """The side with greater strength in ``region``, or None."""
    a, b = sides(state)
    sa, sb = strength(state, a, region), strength(state, b, region)
    if sa[1] == 0 and sb[1] == 0:
        return None
    if sa != sb:
        return a if sa > sb else b
    return str(state["wotp"])


def connection_between(a: str, b: str) -> str | None:
    for cid, ends in data.CONNECTIONS.items():
        if sorted(ends) == sorted([a, b]) and a != b:
            return cid
    return None


def neighbours(state: State, region: str) -> list[str]:
    """Regions reachable in one step (across an unblocked connection)."""
    out = []
    for cid, (x, y) in data.CONNECTIONS.items():
        if cid == state["blockade"]:
            continue
        if x == region:
            out.append(y)
        elif y == region:
            out.append(x)
    return out


def check_step(state: State, a: str, b: str) -> None:
    if b not in data.REGIONS:
        raise TEXT.refuse("refuse.no_region", value=repr(b), regions=", ".join(data.REGIONS))
    cid = connection_between(a, b)
    if cid is None:
        raise TEXT.refuse("refuse.not_adjacent", b=rname(b), a=rname(a))
    if cid == state["blockade"]:
        raise TEXT.refuse("refuse.blockaded", b=rname(b), a=rname(a), connection=connection(cid))


def tname(token: str) -> Any:
    """A token as players name it (``data.token_name``); an unknown code as it is."""
    return data.token_name(token) if token in data.TOKENS else token


def check_controlled(state: State, side: str, token: Any) -> str:
    if not isinstance(token, str) or token not in data.TOKENS:
        raise TEXT.refuse("refuse.no_token", token=repr(token))
    if token not in state["board"]:
        raise TEXT.refuse("refuse.not_on_board", token=tname(token))
    if not controls(state, side, token):
        raise TEXT.refuse("refuse.not_controlled", token=tname(token))
    return token


def move_gain(state: State, side: str, vp: int, events: list[Event], why: dict[str, Any]) -> bool:
    """Move the score marker ``vp`` spaces towards ``side``; True if a track end is reached."""
    s = state["s"] + sign(state, side) * vp
    state["s"] = max(-data.TRACK_END, min(data.TRACK_END, s))
    events.append({"text": msg("event.gain", seat=sname(side), vp=vp, why=why, s=f"{state['s']:+d}"),
                   "to": None})
    if abs(state["s"]) == data.TRACK_END:
        winner = side
        end_game(state, winner, "track end", events)
        return True
    return False


def end_game(state: State, winner: str, reason: str, events: list[Event]) -> None:
    state["phase"] = "over"
    state["winner"] = winner
    state["end_reason"] = reason
    events.append({"text": msg("event.game_over", seat=sname(winner), reason=END_REASONS[reason]), "to": None})


def advance_date(state: State, days: int, active: str, events: list[Event]) -> bool:
    """Spec 4.3.2; returns whether the active side is entitled to a bonus action."""
    n = state["day"] + days
    if n > 31:
        state["day"] = n - 31
        if state["month"] < data.LAST_MONTH:
            state["month"] += 1
            events.append({"text": msg("event.month", month=month(state["month"])), "to": None})
            month_advanced(state, active, events)
    else:
        state["day"] = n
    if state["day"] in (29, 30):
        state["day"] = 31
    bonus = state["day"] in (15, 31)
    return bonus


def month_advanced(state: State, active: str, events: list[Event]) -> None:
    if state["wotp"] != active:
        state["wotp"] = active
        events.append({"text": msg("event.wotp", seat=sname(active)), "to": None})
    if state["month"] == 1 and "T-NEU" not in state["out"] and "T-NEU" not in state["board"]:
        region = state["tiles"]["unrest"]
        state["board"]["T-NEU"] = {"region": region, "fresh": True}
        events.append({"text": msg("event.trotsky_returns", region=rname(region)), "to": None})
    if state["month"] == 3:
        if "T-NEU" in state["board"]:
            at = state["board"].pop("T-NEU")
            state["board"]["T-RED"] = at
            state["out"].append("T-NEU")
            events.append({"text": msg("event.trotsky_joins", region=rname(at["region"])), "to": None})
        elif "T-RED" not in state["board"] and "T-RED" not in state["out"]:
            state["out"].append("T-RED")
            events.append({"text": msg("event.trotsky_gone"), "to": None})


def draw(state: State, rng: Any, events: list[Event]) -> str | None:
    """Top card of the deck; reshuffles the discard pile into an empty deck."""
    if not state["deck"]:
        if not state["discard"] or rng is None:
            return None
        state["deck"] = list(state["discard"])
        state["discard"] = []
        rng.shuffle(state["deck"])
        events.append({"text": msg("event.reshuffle"), "to": None})
    return str(state["deck"].pop(0))


def can_draw(state: State) -> bool:
    return bool(state["deck"] or state["discard"])


def exhaust(state: State, regions: list[str], events: list[Event]) -> None:
    """Spec 4.5 4d: all at once, each region once."""
    for region in data.REGIONS:
        if region not in regions:
            continue
        flipped, gone = [], []
        for t in tokens_in(state, region):
            if state["board"][t]["fresh"]:
                state["board"][t]["fresh"] = False
                flipped.append(t)
                continue
            del state["board"][t]
            gone.append(t)
            kind = data.TOKENS[t]["kind"]
            if kind == "unit":
                state["supply"][owner(state, t)].append(t)
            elif kind == "opp":
                state["opp_pool"].append(t)
            else:
                state["out"].append(t)
        if flipped or gone:
            nothing = msg("event.nothing")
            events.append({"text": msg("event.exhausted", region=rname(region),
                                       flipped=listing([tname(t) for t in flipped]) if flipped else nothing,
                                       removed=listing([tname(t) for t in gone]) if gone else nothing), "to": None})
        for side in state["supply"]:
            state["supply"][side].sort(key=data.TOKEN_ORDER.__getitem__)
        state["opp_pool"].sort(key=data.TOKEN_ORDER.__getitem__)
