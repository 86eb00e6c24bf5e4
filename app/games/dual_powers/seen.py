"""What the bot reasons on: the game rebuilt from one seat's view.

The bot decides from what its seat may know, by construction: ``seen(view)`` rebuilds
a state of the usual shape from ``view(state, seat)`` alone.  The board, supplies,
calendar, played cards and discard are public and copied as they are.  Cards the seat
cannot see (the other side's command cards, the deck, the Opposition's pile, an unseen
objective) are filled with the unaccounted-for cards in the rulebook's card order, so
the bot may simulate a draw or a reveal without learning anything; the sides whose
objective it cannot see are listed under ``UNSEEN`` so that it never counts them.
"""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import data

#: Key of the rebuilt state listing the sides whose objective card is a stand-in.
UNSEEN = "unseen_objectives"


def _board(view: dict[str, Any]) -> dict[str, Any]:
    return {t["id"]: {"region": r["id"], "fresh": t["fresh"]} for r in view["regions"] for t in r["tokens"]}


def _opp_pool(view: dict[str, Any], board: dict[str, Any]) -> list[str]:
    want = {int(lv): n for lv, n in view["opp_pool"].items()}
    pool = []
    for t in data.OPP_UNITS:
        lv = data.TOKENS[t]["level"]
        if t not in board and t not in view["out"] and want.get(lv, 0) > 0:
            pool.append(t)
            want[lv] -= 1
    return pool


def seen(view: dict[str, Any]) -> State:
    """A state of the usual shape holding only what ``view``'s seat may know."""
    seat = view["seat"]
    hand = [c["id"] for c in view["hand"] or []]
    objectives = {s: (o["card"]["id"] if o["card"] else None) for s, o in view["objectives"].items()}
    known = set(hand) | set(view["discard"]) | set(view["removed_cards"])
    known |= {c["id"] for row in view["played"].values() for c in row}
    known |= {c for c in objectives.values() if c}
    known |= {c for cards in view["leader_cards_in_hand"].values() for c in cards}
    if view["opp_leader_card"]:
        known.add(view["opp_leader_card"])
    unknown = [c for c in data.CARDS if c not in known and data.CARDS[c]["kind"] == "command"]
    unknown_leaders = [c for c in data.CARDS if c not in known and data.CARDS[c]["kind"] == "leader"]

    def take(n: int, pool: list[str]) -> list[str]:
        got, pool[:] = pool[:n], pool[n:]
        return got

    hands = {}
    for s, count in view["hand_counts"].items():
        if s == seat:
            hands[s] = list(hand)
        else:
            leaders = list(view["leader_cards_in_hand"].get(s, []))
            hands[s] = leaders + take(count - len(leaders), unknown)
    unseen = [s for s, o in view["objectives"].items() if o["set"] and o["card"] is None]
    for s in unseen:
        objectives[s] = take(1, unknown)[0] if unknown else None
    board = _board(view)
    tiles = view["tiles"]
    return {
        "solo": view["solo"], "difficulty": view["difficulty"], "human": view["human"],
        "side_of": {"SOV": view["sov_side"], "GOV": view["gov_side"]},
        "round": view["round"], "phase": view["phase"], "day": view["day"], "month": view["month"],
        "s": view["s"], "wotp": view["wotp"], "board": board,
        "supply": {s: list(v) for s, v in view["supply"].items()},
        "opp_pool": _opp_pool(view, board) if view["solo"] else [], "out": list(view["out"]),
        "hands": hands, "deck": take(view["deck_count"], unknown), "discard": list(view["discard"]),
        "removed_cards": list(view["removed_cards"]),
        "played": {s: [c["id"] for c in row] for s, row in view["played"].items()},
        "objectives": objectives, UNSEEN: unseen,
        "revealed": {s: o["revealed"] for s, o in view["objectives"].items()},
        "objective_owed": list(view["objective_pending"]),
        "opp_pile": take(view["opp_pile_count"], unknown),
        "opp_leaders": take(view["opp_leader_pile_count"], unknown_leaders),
        "opp_leader_card": view["opp_leader_card"],
        "tiles": {"stack": list(tiles["stack_set"]), "unrest": tiles["unrest"], "blockade": tiles["blockade"],
                  "gone": list(tiles["gone"])},
        "blockade": view["blockade"], "markers": [dict(m) for m in view["markers"]],
        "turn": view["turn_index"], "turn_order": list(view["turn_order"]), "bonus": view["bonus"],
        "pending": view["pending"], "unrest_side": view["unrest_side"],
        "winner": view["winner"], "end_reason": view["end_reason_code"],
    }
