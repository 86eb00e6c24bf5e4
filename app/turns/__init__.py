"""The turn processor: the one gate through which a game changes.

The web, mail, CLI, leagues and jobs layers only call this package; none of
them sets a game's status or deadline or stores an order itself.

- ``setup``: open a game (seats, players, links, first step) and resolve what
  is due at once (``open_game``).
- ``intake``: ``take_order(seat, text_or_form, source)``, the one door for
  orders from the web, mail and bots (``orders`` stores them).
- ``resolve``: steps, sweeps (``process_due``, ``process_game``), failures.
- ``control``: pause, resume, extend, retry, resolve now, hand over, new link,
  and the players' consent to a pause.

Who commits: a function that takes a ``session`` runs inside the caller's write
transaction (``db.write_session``) and only flushes; the caller commits.  A
function that takes an ``engine`` opens and commits its own transactions:
``open_game``, ``take_order``, ``accept_order``, ``accept_anytime``,
``process_due``, ``process_game``, ``count_attempt`` and ``record_failure``.

Every name below is importable from ``app.turns``.  A name to replace in a test
(``_checkpoint``, ``resolve_step``, ``new_seed``, ``accept_order``) is patched
on the module that calls it (``app.turns.resolve``, ``app.turns.setup``,
``app.turns.intake``).
"""

from __future__ import annotations

from app.turns import consent, control, forms, intake, orders, resolve, setup, store
from app.turns.consent import (
    ask_pause,
    consent_to_pause,
    end_agreed_pauses,
    open_pause_request,
    pause_consents,
    pause_voters,
)
from app.turns.control import (
    Refused,
    extend,
    extension_left,
    gm_plays,
    new_link,
    new_settings_link,
    pause,
    replace_player,
    resolve_now,
    resume,
    rotate_link,
)
from app.turns.intake import Outcome, Problem, Taken, take_order
from app.turns.orders import (
    accept_anytime,
    accept_order,
    anytime_prompt,
    decision_unchanged,
    is_anytime_order,
    step_kind,
    submit_anytime,
    submit_order,
)
from app.turns.resolve import (
    DEADLINE_LISTENERS,
    MAX_STEPS_PER_TICK,
    YIELD_SECONDS,
    count_attempt,
    due_games,
    extend_overdue,
    process_due,
    process_game,
    record_failure,
    resolve_step,
)
from app.turns.setup import NewGame, Opened, create_game, open_game
from app.turns.store import StepClosed, current_orders, get_or_create_player, is_address, locked_game

__all__ = [
    "DEADLINE_LISTENERS", "MAX_STEPS_PER_TICK", "YIELD_SECONDS",
    "NewGame", "Opened", "Outcome", "Problem", "Refused", "StepClosed", "Taken",
    "accept_anytime", "accept_order", "anytime_prompt", "ask_pause", "consent", "consent_to_pause", "control",
    "count_attempt", "create_game", "current_orders", "decision_unchanged", "due_games", "end_agreed_pauses", "extend",
    "extend_overdue", "extension_left", "forms", "gm_plays", "get_or_create_player", "intake", "is_address",
    "is_anytime_order",
    "locked_game", "new_link", "new_settings_link", "open_game", "open_pause_request", "orders", "pause",
    "pause_consents",
    "pause_voters", "process_due", "process_game", "record_failure", "replace_player", "resolve",
    "resolve_now", "resolve_step", "resume", "rotate_link", "setup", "step_kind", "store", "submit_anytime",
    "submit_order", "take_order",
]
