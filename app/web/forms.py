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


def too_long_field(data: MultiDict) -> bool:
    """Whether any submitted field value is longer than ``MAX_FIELD``."""
    return any(len(v) > MAX_FIELD for _k, v in data.items(multi=True))


__all__ = ["MAX_FIELD", "MAX_NOTATION", "MAX_TEXT", "forms_of", "order_from_form", "too_long_field"]
