"""The turn-4 form (administration and strategy): market, build, moves, modes, standing losses.

Every choice is legal on its own, and a choice that depends on another one says so
(``depends_on`` / ``when``, see ``app.games.base``): which builds the market leaves
affordable, where a heavy troop built this turn may move.
"""

from __future__ import annotations

from typing import Any

from app.games.empire import data
from app.games.empire.state import State, controlled, name, troops_of
from app.games.empire.text import amount, amounts, joined, province, seat_name, troop
from app.games.text import msg
from app.games.text import name as term

#: "No market transaction" in a build's ``when``: the platform reads a field left empty as None
#: (``app.games.prompting``); "" is the same, as a posted value.
NONE: list[str | None] = [None, ""]


def choice(value: str, label: Any = None, when: list[str | None] | list[str] | None = None) -> dict[str, Any]:
    """A choice: its value is notation; its label a message (or the notation itself)."""
    out: dict[str, Any] = {"value": value, "label": label or value}
    if when is not None:
        out["when"] = when
    return out


def others(state: State, seat: str) -> list[str]:
    """The colours of the other active players."""
    return [name(state, s) for s in state["seats"]
            if s != seat and not state["players"][s]["eliminated"]]


def _markets(res: dict[str, int]) -> list[tuple[str, Any, dict[str, int]]]:
    """(value, label, resources after it) of every legal market transaction."""
    out = []
    for r in data.MARKET_GOODS:
        for n in range(1, res["GOLD"] + 1):
            after = dict(res, GOLD=res["GOLD"] - n, **{r: res[r] + data.MARKET_BUY_RATE * n})
            out.append((f"MARKET BUY {r} {n}", msg("choice.buy", got=amount(data.MARKET_BUY_RATE * n, r),
                                                    gold=amount(n, "GOLD")), after))
    for r in data.MARKET_GOODS:
        for q in range(data.MARKET_SELL_LOT, res[r] + 1, data.MARKET_SELL_LOT):
            gold = q // data.MARKET_SELL_LOT
            after = dict(res, GOLD=res["GOLD"] + gold, **{r: res[r] - q})
            out.append((f"MARKET SELL {r} {q}", msg("choice.sell", sold=amount(q, r), gold=amount(gold, "GOLD")),
                        after))
    return out


def market_choices(state: State, seat: str) -> list[dict[str, Any]]:
    return [choice(v, label) for v, label, _ in _markets(state["players"][seat]["res"])]


def _affordable(res: dict[str, int], what: str) -> bool:
    return all(res[r] >= n for r, n in data.BUILD_COST[what].items())


def _buildable(state: State, seat: str) -> list[tuple[str, int]]:
    """(what, province) of every build the rules allow here, whatever it costs."""
    heavy_ok = len(troops_of(state, seat, kind="H")) < data.MAX_HEAVY
    out = []
    for p in controlled(state, seat):
        prov = state["provinces"][str(p)]
        for what in ("INF", "WALL", "HEAVY"):
            if what == "HEAVY" and not heavy_ok or what != "HEAVY" and prov["building"]:
                continue
            if what == "INF" and p in data.NO_INF:
                continue
            out.append((what, p))
    return out


def _build_choice(what: str, p: int, when: list[str | None] | None = None) -> dict[str, Any]:
    return choice(f"BUILD {what} {p}", msg("choice.build", building=term("building", what), province=province(p)),
                  when)


def build_choices(state: State, seat: str) -> list[dict[str, Any]]:
    """Every build allowed on the map, whatever it costs (the bots try them)."""
    return [_build_choice(what, p) for what, p in _buildable(state, seat)]


def legal_builds(state: State, seat: str) -> list[dict[str, Any]]:
    """Builds the seat can afford, each with the market choices (NONE: none) that leave it affordable."""
    res = state["players"][seat]["res"]
    stocks = [(v, after) for v, _, after in _markets(res)]
    out = []
    for what, p in _buildable(state, seat):
        when: list[str | None] = (list(NONE) if _affordable(res, what) else []) \
            + [v for v, after in stocks if _affordable(after, what)]
        if when:
            out.append(_build_choice(what, p, when))
    return out


def mode_choices(state: State, seat: str, tid: str, when: list[str] | None = None) -> list[dict[str, Any]]:
    out = [choice(f"MODE {tid} {m}", term("mode", m), when) for m in data.MODES]
    out += [choice(f"MODE {tid} ATTACK TARGET {c}", msg("choice.mode_target", mode=term("mode", "ATTACK"),
                                                        seat=seat_name(c)), when)
            for c in others(state, seat)]
    return out


def _new_troop_fields(state: State, seat: str, builds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Move and mode of a heavy troop built this turn (``NEW``).

    The move depends on the build (its province's neighbours); the mode is the mode the troop
    takes if one is built (``notation.canonical`` drops it otherwise), so that it needs no
    combination with the market and the build.
    """
    heavy = [b["value"] for b in builds if b["value"].startswith("BUILD HEAVY ")]
    if not heavy:
        return []
    dests: dict[int, list[str]] = {}
    for value in heavy:
        for q in data.PROVINCES[int(value.split()[-1])]["adj"]:
            dests.setdefault(q, []).append(value)
    moves = [choice(f"MOVE NEW {q}", msg("choice.move", province=province(q)), dests[q]) for q in sorted(dests)]
    return [{"name": "move_NEW", "label": msg("field.move_new"), "type": "choice", "required": False,
             "depends_on": "build", "choices": moves},
            {"name": "mode_NEW", "label": msg("field.mode_new"), "type": "choice", "required": False,
             "choices": mode_choices(state, seat, "NEW")}]


def admin_fields(state: State, seat: str) -> list[dict[str, Any]]:
    fields: list[dict[str, Any]] = []
    markets = market_choices(state, seat)
    if markets:
        fields.append({"name": "market", "label": msg("field.market"), "type": "choice", "required": False,
                       "choices": markets})
    builds = legal_builds(state, seat)
    if builds:
        kinds = [w for w in ("INF", "WALL", "HEAVY") if any(b["value"].startswith(f"BUILD {w} ") for b in builds)]
        costs = joined([msg("label.cost", building=term("building", w), cost=amounts(data.BUILD_COST[w]))
                        for w in kinds], "join.semicolon")
        build: dict[str, Any] = {"name": "build", "label": msg("field.build", costs=costs), "type": "choice",
                                 "required": False, "choices": builds}
        if markets:
            build["depends_on"] = "market"
        fields.append(build)
        fields += _new_troop_fields(state, seat, builds)
    mine = troops_of(state, seat)
    for tid in mine:
        t = state["troops"][tid]
        here = t["province"]
        fields.append({"name": f"move_{tid}", "label": msg("field.move", troop=troop(tid, t["kind"]),
                                                           province=province(here)),
                       "type": "choice", "required": False,
                       "choices": [choice(f"MOVE {tid} {p}", msg("choice.move", province=province(p)))
                                   for p in data.PROVINCES[here]["adj"]]})
        keep: Any = term("mode", t["mode"])
        if t.get("target"):
            keep = msg("label.mode_target", mode=keep, seat=seat_name(t["target"]))
        fields.append({"name": f"mode_{tid}", "label": msg("field.mode", troop=troop(tid, t["kind"]), mode=keep),
                       "type": "choice", "required": False, "choices": mode_choices(state, seat, tid)})
    if mine:
        fields.append({"name": "losses", "label": msg("field.losses"), "type": "multi", "required": False,
                       "choices": [choice(tid, msg("choice.troop", troop=troop(tid, state["troops"][tid]["kind"]),
                                                   province=province(state["troops"][tid]["province"])))
                                   for tid in mine]})
    return fields
