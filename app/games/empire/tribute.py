"""Turn 9: tribute payment with substitutions, preferences and the window."""

from __future__ import annotations

from typing import Any

from app.games.empire import data
from app.games.empire.lines import describe as describe_line
from app.games.empire.state import State, ev, has_effect, round_order, who
from app.games.empire.text import amount
from app.games.text import listing, msg


def payments_due(state: State, seat: str) -> int:
    if has_effect(state, seat, "S19"):
        return 0
    return 2 if has_effect(state, seat, "S14") else 1


def options(res: dict[str, int], tribute: str) -> tuple[str, list[list[str]]]:
    """(situation, every legal form) of one payment: situation is ``free``,
    ``direct`` (T, Gold or Pop) or ``subst`` (two simple resources)."""
    if tribute == "FREE":
        held = [[r] for r in data.RESOURCES if res[r] > 0]
        return "free", held or [[]]
    for r in (tribute, "GOLD", "POP"):
        if res[r] > 0:
            return "direct", [[r]]
    simple = [r for r in data.SIMPLE if res[r] > 0]
    total = sum(res[r] for r in data.SIMPLE)
    if total == 0:
        return "subst", [[]]
    if total == 1:
        return "subst", [simple]
    forms = [[a, b] for i, a in enumerate(simple) for b in simple[i:] if a != b or res[a] >= 2]
    return "subst", forms


def needs_choice(res: dict[str, int], tribute: str) -> bool:
    """Spec §4.9: a FREE payment with more than one eligible type held, or a
    step-3 payment while holding more than one distinct simple resource (even
    when only one pair is possible, e.g. 1 Wood + 1 Food: the window opens
    and that payment must be written in its only form)."""
    situation, forms = options(res, tribute)
    if situation == "subst":
        return sum(1 for r in data.SIMPLE if res[r] > 0) > 1
    return len(forms) > 1


def _pref_form(pref: dict[str, Any], situation: str, res: dict[str, int]) -> list[str] | None:
    if situation == "free" and pref.get("free") and res[pref["free"]] > 0:
        return [pref["free"]]
    if situation == "subst" and pref.get("simple"):
        a, b = pref["simple"]
        if (res[a] >= 2) if a == b else (res[a] >= 1 and res[b] >= 1):
            return [a, b]
    return None


def _most(res: dict[str, int]) -> str | None:
    best = max(data.SIMPLE_TIE_ORDER, key=lambda r: (res[r], -data.SIMPLE_TIE_ORDER.index(r)))
    return best if res[best] > 0 else None


def default_form(res: dict[str, int], tribute: str) -> list[str]:
    situation, forms = options(res, tribute)
    if len(forms) == 1:
        return forms[0]
    if situation == "free":
        best = _most(res)
        if best:
            return [best]
        return ["POP"] if res["POP"] > 0 else ["GOLD"]
    scratch = dict(res)
    out = []
    for _ in range(2):
        r = _most(scratch)
        assert r is not None
        scratch[r] -= 1
        out.append(r)
    return out


def pay(state: State, seat: str, form: list[str]) -> None:
    res = state["players"][seat]["res"]
    for r in form:
        res[r] -= 1


def describe(form: list[str]) -> Any:
    """``1 Food and 1 Wood`` (or ``nothing``)."""
    return listing([amount(1, r) for r in form]) if form else msg("label.nothing")


def start_payments(state: State) -> list[dict[str, Any]]:
    """Make every payment that needs no choice; open the window for the rest."""
    events: list[dict[str, Any]] = []
    state["pay_window"] = {}
    t = state["tribute"]
    for seat in round_order(state):
        pl = state["players"][seat]
        due = payments_due(state, seat)
        if due == 0 and has_effect(state, seat, "S19"):
            events.append(ev(msg("event.pardon", seat=who(state, seat))))
        for i in range(due):
            situation, forms = options(pl["res"], t)
            if needs_choice(pl["res"], t):
                form = _pref_form(pl["pref"], situation, pl["res"])
            else:
                form = forms[0]
            if form is None:
                state["pay_window"][seat] = due - i
                break
            pay(state, seat, form)
            events.append(ev(msg("event.pays_tribute", seat=who(state, seat), what=describe(form))))
    return events


def apply_pay(state: State, seat: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    k = state["pay_window"].get(seat, 0)
    if len(lines) != k:
        return [msg("refuse.E903", n=k)]
    errors: list[dict[str, Any]] = []
    res = state["players"][seat]["res"]
    for i, d in enumerate(lines, 1):
        situation, forms = options(res, state["tribute"])
        got = sorted(d["res"])
        ok = any(sorted(f) == got for f in forms)
        line = describe_line(d)
        if situation == "free" and not ok:
            errors.append(msg("refuse.line", line=line, why=msg("refuse.E901")))
        elif situation == "subst" and len(forms[0]) == 2 and not ok:
            errors.append(msg("refuse.line", line=line, why=msg("refuse.E902")))
        elif not ok:
            errors.append(msg("refuse.line", line=line, why=msg("refuse.E904", i=i, form=describe(forms[0]))))
        else:
            pay(state, seat, d["res"])
            continue
        break
    return errors


def default_lines(state: State, seat: str) -> list[dict[str, Any]]:
    res = dict(state["players"][seat]["res"])
    out = []
    for _ in range(state["pay_window"].get(seat, 0)):
        form = default_form(res, state["tribute"])
        for r in form:
            res[r] -= 1
        out.append({"op": "PAY", "res": form})
    return out
