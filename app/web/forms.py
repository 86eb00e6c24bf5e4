"""Size limits of posted forms.

Orders are read back from a form by the turn processor (``app.turns.forms``);
its names are re-exported here for the pages and tests that import them from the web.
"""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from app.turns.forms import MAX_TEXT, forms_of, order_from_form

#: The longest order in a game's notation (the longest real order is far shorter).
MAX_NOTATION = 4000
#: The longest value of any one form field.
MAX_FIELD = 4000


#: The largest id or step number a database integer holds.
MAX_DB_INT = 2**31 - 1


def bounded_int(raw: str | None, low: int = 0, high: int = MAX_DB_INT) -> int | None:
    """``raw`` as an integer in ``[low, high]``, or None (absent, not a number, or out of range: never a 500)."""
    try:
        value = int(str(raw).strip()) if raw is not None and len(str(raw)) <= 20 else None
    except ValueError:
        return None
    return value if value is not None and low <= value <= high else None


def finite_float(raw: str | None, default: float) -> float:
    """``raw`` as a finite number (``default`` when empty).

    :raises ValueError: not a number, or infinite or NaN.
    """
    if raw is None or not str(raw).strip():
        return default
    value = float(str(raw)[:40])
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{raw!r} is not a number")
    return value


def too_long_field(data: MultiDict) -> bool:
    """Whether any submitted field value is longer than ``MAX_FIELD``."""
    return any(len(v) > MAX_FIELD for _k, v in data.items(multi=True))


__all__ = ["MAX_DB_INT", "MAX_FIELD", "MAX_NOTATION", "MAX_TEXT", "bounded_int", "finite_float", "forms_of",
           "order_from_form", "too_long_field"]
