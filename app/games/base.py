"""The Game protocol: one shape for every game the platform runs.

Everything here is pure: no Flask, no database, no clock, no global random.
States, orders, prompts, views and events are plain JSON data (dicts, lists,
strings, ints, floats, bools, None); tuples are not allowed because they do not
survive a JSON round trip.

Prompts
-------
``owed(state)`` maps each seat that owes a decision to a *prompt*: a dict that
describes the decision so that the web form, the mail and bots can be drawn
from it::

    {
      "kind": "turn",             # step kind, used by deadline policies
      "title": "Your action",     # one line, in the player's terms
      "text": "Play a command card ...",   # optional longer help
      "example": "TURN C12 RECRUIT Vyborg",  # notation example (format())
      "forms": [                  # alternatives, each a separate submit button
        {
          "label": "Play a card",
          "base": {"type": "TURN"},          # constant part of the order
          "fields": [
            {"name": "card", "label": "Card", "type": "choice",
             "choices": [{"value": "C12", "label": "C12 Agitators (3)"}]},
            {"name": "region", "label": "Region", "type": "choice",
             "choices": [...], "required": False},
            {"name": "count", "label": "How many", "type": "int",
             "min": 0, "max": 3},
            {"name": "note", "label": "Free text", "type": "text"},
            {"name": "units", "label": "Units", "type": "multi",
             "choices": [...]},
            {"name": "confirm", "label": "Also refresh", "type": "bool"},
          ],
        },
      ],
    }

The platform builds an order from a submitted form as ``dict(base)`` updated
with ``{field name: value}`` (``choice`` -> the matching choice's value,
``int`` -> int, ``multi`` -> list of values, ``bool`` -> bool, ``text`` -> str;
optional fields left empty are omitted).  Every order can also be typed in the
game's notation (``parse``).

Tied choices: a ``choice`` field may carry ``"depends_on": "<an earlier choice field>"``,
each of its choices ``"when": [<parent values it is legal with>]`` (none: any); chains
are allowed.  A form may also carry ``"combos": [{"card": "C12", "action": "MOVE"}, ...]``,
every legal combination of the fields named.  Pages offer legal combinations only
(``app.games.prompting.legal_combos``): one select ``combo`` (option values URL-encoded,
``card=C12&action=MOVE``) without JavaScript, narrowing selects with it; a post is read
from the fields, else from ``combo``, and any other combination is refused.  The default
bot draws among legal combinations only.  A game's ``templates/games/<slug>/form.html``
(a richer form) posts the same field names (or ``combo``), ``{{ csrf_field }}`` and
``form_index`` (the index of the prompt form it fills); it may include
``web/_prompt_form.html`` (``spec``, ``i``, ``is_anytime=false`` set) for the others.

Events
------
``resolve`` returns events: dicts with at least ``"text"`` and ``"to"``:
``None`` for everyone, or a list of the seats that may see it.  ``"text"`` is a
message of the game's catalogue, never a finished sentence:
``msg("moved", seat=name("seat", "RED"), n=3)`` -> ``{"msg": "moved", "args":
{...}}`` (see ``app/games/text.py``).  The game author writes the English once,
in ``app/games/<slug>/text.py`` (``T("moved", "{seat} moves {n}.")``, ``TN`` for
plurals), and the platform renders the message in each reader's language from the
game's gettext catalogue; a plain string is shown as it is (names, notation).  Any
other keys are free data.

Prompts (``title``, ``text``, labels, choice labels) and refusals
(``raise self.text.refuse("not_adjacent", a=..., b=...)``, an ``IllegalOrder``)
carry messages the same way; the English strings in the prompt above stand for
the messages a game writes.

Optional extras
---------------
Every game's rules class subclasses :class:`BaseRules`, which gives each
optional extra its default, so the platform calls them all on every game
and never asks whether a game has one: ``board_svg`` (the board for pages and
reports), ``ai_order`` (a better bot than ``random_order``; also
auto-command), ``robot_seats`` (seats the game plays itself),
``handles_missed_deadlines``, ``board_per_seat``, ``turn_label`` (a turn key as
players read it), ``press_allowed`` (press between players now), ``anytime_prompt`` and
``apply_anytime`` (decisions at any time, below), ``conformance_options`` and
``conformance_max_steps`` (for the conformance test).  A prompt may carry
``"seconds"``: the game's own suggested length for the step (a timer), used
unless the GM chose one.

Decisions at any time: ``anytime_prompt(state, seat) -> Prompt | None`` and
``apply_anytime(state, seat, order, rng) -> (state, events)`` (a game
overrides both or neither).  ``anytime_prompt`` is what ``seat`` may send now even when it owes
nothing (resign, resume command ...): a prompt of the same shape as ``owed``'s,
or None when there is nothing to offer; it shows only what ``seat`` may see.
The page shows it folded under its title unless it carries ``"prominent": True``
(what the player most likely wants now, like resuming command).
Its orders are written in the game's notation like any other
(``parse``/``format``).  ``apply_anytime`` validates the order (raising
``IllegalOrder`` and changing nothing, like ``validate``) and applies it at
once with the automatic play that follows, like ``resolve`` (never mutating
its input).  The platform treats it as a resolution of its own: it closes the
open step with it (recorded as ``{ANYTIME_STEP: {"seat": s, "order": o}}``,
dice from ``step_rng(seed, step, "anytime")``) and opens the next step from
the returned state, so who owes what is computed again; orders already on file
for the closed step carry over when their seat's prompt is unchanged.  Orders
from the seat's normal prompt still go through ``validate``/``resolve``.

Randomness
----------
Only from the ``rng`` argument (a ``random.Random`` the platform seeds from the
game's secret seed and the step number).
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from app.games.prompting import order_from_prompt
from app.games.text import EMPTY, Catalogue, IllegalOrder, InvalidOrder, Msg, Render

__all__ = ["ANYTIME_STEP", "BaseRules", "IllegalOrder", "InvalidOrder", "Rules", "Catalogue"]

JSON = Any
State = dict[str, Any]
Order = dict[str, Any]
Prompt = dict[str, Any]
Event = dict[str, Any]


#: In a step's recorded orders (a playthrough's steps, a stored step), this key marks a step
#: closed by an order of ``apply_anytime`` instead of a resolution: ``{"seat": s, "order": o}``.
ANYTIME_STEP = "@anytime"


@runtime_checkable
class Rules(Protocol):
    """What the platform needs from a game: each ``RULES`` object, an instance of a
    :class:`BaseRules` subclass."""

    slug: str
    title: str

    def default_options(self) -> dict[str, Any]:
        """The options a game gets when the GM gives none."""

    def seats(self, options: dict[str, Any]) -> list[str]:
        """The seat ids for these options, in seat order."""

    def setup(self, options: dict[str, Any], seats: list[str], rng: random.Random) -> State:
        """The initial state; ``owed`` of it is not empty."""

    def owed(self, state: State) -> dict[str, Prompt]:
        """Who owes a decision now, with a prompt each; empty when the game is over."""

    def validate(self, state: State, seat: str, order: Order) -> None:
        """Raise ``IllegalOrder`` when ``order`` is not legal for ``seat`` now."""

    def resolve(
        self, state: State, orders_by_seat: dict[str, Order], rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Apply one order from every owed seat; return the new state and events.

        Automatic phases that need no decision run inside ``resolve`` until
        someone owes a decision again or the game is over.  Never mutates
        ``state`` or the orders.
        """

    def default_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """The order of a seat that missed its deadline."""

    def random_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """A uniformly chosen legal order (bots, fuzzing, benchmarks)."""

    def turn_key(self, state: State) -> str:
        """Which turn the current step belongs to; deadlines and mails follow it."""

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: the public view)."""

    def outcome(self, state: State) -> list[dict[str, Any]] | None:
        """None while running, else ``[{"seat": s, "score": n, "rank": r}, ...]`` best first."""

    def parse(self, text: str) -> Order:
        """Read an order in the game's notation; raise ``InvalidOrder`` if unreadable."""

    def format(self, order: Order) -> str:
        """Write an order in the game's notation; ``parse(format(o)) == o``."""

    def secrets(self, state: State, seat: str) -> list[str]:
        """Strings private to ``seat`` now (hand card ids, objective ids ...).

        Each must appear as a whole JSON string in ``view(state, seat)`` data
        and never in another seat's or the public view.  The conformance test
        uses this to check that views leak nothing.
        """

    # The optional extras: every game has them, with BaseRules' defaults unless it overrides them.
    text: Catalogue
    handles_missed_deadlines: bool
    board_per_seat: bool
    conformance_options: Sequence[dict[str, Any]]
    conformance_max_steps: int

    def robot_seats(self, options: dict[str, Any]) -> list[str]:
        """Seats the game plays itself inside ``resolve``; they never owe."""

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a game is created with, checked; ``ValueError`` names the allowed values."""

    def ai_order(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Order:
        """The bot's order (bot seats and auto-command), decided from what the seat may know:
        ``view(state, seat)`` and ``owed(state)[seat]``, never the state."""

    def board_svg(self, view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
        """The board drawn from a view, as one SVG; ``""`` when the game draws none."""

    @property
    def draws_board(self) -> bool:
        """Whether ``board_svg`` draws a board."""

    def anytime_prompt(self, state: State, seat: str) -> Prompt | None:
        """What ``seat`` may send at any time now; None when nothing."""

    def apply_anytime(self, state: State, seat: str, order: Order, rng: random.Random) -> tuple[State, list[Event]]:
        """Apply an order sent at any time, as a resolution of its own."""

    def press_allowed(self, state: State) -> bool:
        """Whether players may write to each other (press) now."""


class BaseRules(ABC):
    """The base class of every game's rules: the Game protocol, with the optional extras' defaults.

    A game's ``rules.py`` subclasses it, sets ``slug`` and ``title``, implements the
    abstract methods (the protocol, see :class:`Rules` and DESIGN.md) and overrides
    only the extras it needs; the defaults below are what the platform does for a
    game that does not.
    """

    slug: str
    title: str

    #: True when the game counts missed deadlines itself (e.g. its own auto-command
    #: ladder), so the platform's civil disorder stays out of it.
    handles_missed_deadlines: bool = False

    #: True when the board drawn for a seat shows that seat's own choices, so a report
    #: draws it per seat; otherwise a report's map page is drawn once per step from the
    #: spectator's view, ``view(state, None)``.
    board_per_seat: bool = False

    #: The option sets the conformance test plays (each with several seeds).
    conformance_options: Sequence[dict[str, Any]] = ({},)

    #: The conformance test's step cap for one random playthrough.
    conformance_max_steps: int = 5000

    #: The game's messages in English, by id (``app/games/<slug>/text.py``): every event,
    #: prompt, refusal and board label the game emits names one of them.
    text: Catalogue = EMPTY

    # ------------------------------------------------------------------ the protocol
    @abstractmethod
    def default_options(self) -> dict[str, Any]:
        """The options a game gets when the GM gives none."""

    @abstractmethod
    def seats(self, options: dict[str, Any]) -> list[str]:
        """The seat ids for these options, in seat order."""

    @abstractmethod
    def setup(self, options: dict[str, Any], seats: list[str], rng: random.Random) -> State:
        """The initial state; ``owed`` of it is not empty."""

    @abstractmethod
    def owed(self, state: State) -> dict[str, Prompt]:
        """Who owes a decision now, with a prompt each; empty when the game is over."""

    @abstractmethod
    def validate(self, state: State, seat: str, order: Order) -> None:
        """Raise ``IllegalOrder`` when ``order`` is not legal for ``seat`` now; change nothing."""

    @abstractmethod
    def resolve(
        self, state: State, orders_by_seat: dict[str, Order], rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Apply one order from every owed seat; return the new state and events (see :class:`Rules`)."""

    @abstractmethod
    def default_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """The order of a seat that missed its deadline."""

    @abstractmethod
    def random_order(self, state: State, seat: str, rng: random.Random) -> Order:
        """A uniformly chosen legal order (bots, fuzzing, benchmarks)."""

    @abstractmethod
    def turn_key(self, state: State) -> str:
        """Which turn the current step belongs to; deadlines and mails follow it."""

    def turn_label(self, turn_key: str) -> Msg | str:
        """``turn_key`` as a player reads it: a message of the game's catalogue ("round 2,
        turn 3"); pages, mails and reports show it instead of the key.

        Default: the key as it is.
        """
        return turn_key

    @abstractmethod
    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: the public view)."""

    @abstractmethod
    def outcome(self, state: State) -> list[dict[str, Any]] | None:
        """None while running, else ``[{"seat": s, "score": n, "rank": r}, ...]`` best first."""

    @abstractmethod
    def parse(self, text: str) -> Order:
        """Read an order in the game's notation; raise ``InvalidOrder`` if unreadable."""

    @abstractmethod
    def format(self, order: Order) -> str:
        """Write an order in the game's notation; ``parse(format(o)) == o``."""

    @abstractmethod
    def secrets(self, state: State, seat: str) -> list[str]:
        """Strings private to ``seat`` now (see :class:`Rules`); ``[]`` when nothing is secret."""

    # ------------------------------------------------------------------ the optional extras
    def robot_seats(self, options: dict[str, Any]) -> list[str]:
        """Seats the game plays itself inside ``resolve`` (they never owe, and the GM
        seats no player there).  Default: none."""
        return []

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a new game gets (defaults filled in), checked against the values the
        game allows: ``ValueError`` naming them, so that creation refuses a bad option.
        Default: ``options`` as given, once ``seats`` accepts them."""
        self.seats(options)
        return options

    def ai_order(self, view: dict[str, Any], prompt: Prompt, rng: random.Random) -> Order:
        """The order a bot seat, or a seat under auto-command, plays now.

        It decides from what the seat may know, by construction: ``view`` is
        ``view(state, seat)`` and ``prompt`` is ``owed(state)[seat]``; it never sees the
        state (call it through :func:`bot_order`).  Default: the prompt's own listing of
        legal orders (``"orders"``) when it has one, else an order drawn from its forms.
        A game whose forms allow illegal combinations overrides it.
        """
        return order_from_prompt(prompt, rng)

    def board_svg(self, view: dict[str, Any], seat: str | None, tr: Render | None = None) -> str:
        """The board drawn from ``view`` (what ``seat`` may see; None: a spectator) as one
        ``<svg>`` element, for pages and reports; the game escapes its own text.

        ``tr`` renders a message of the game's catalogue in the reader's language (the
        platform passes it; None: English, ``self.text.english``): every label goes through it.

        Default: ``""``, no board (``draws_board`` is then False).
        """
        return ""

    @property
    def draws_board(self) -> bool:
        """Whether the game draws a board: True when its class overrides ``board_svg``."""
        return type(self).board_svg is not BaseRules.board_svg

    def anytime_prompt(self, state: State, seat: str) -> Prompt | None:
        """What ``seat`` may send now even when it owes nothing (resign, resume command ...):
        a prompt like ``owed``'s, or None when there is nothing to offer (see
        "Decisions at any time" above).  A game overrides it together with
        ``apply_anytime``.  Default: None, always.
        """
        return None

    def press_allowed(self, state: State) -> bool:
        """Whether players may write to each other now (``app.press``); a game may forbid press in
        some phases.  Default: always."""
        return True

    def apply_anytime(
        self, state: State, seat: str, order: Order, rng: random.Random
    ) -> tuple[State, list[Event]]:
        """Validate and apply at once an order ``seat`` sent at any time, with the automatic
        play that follows; never mutates ``state``.

        :raises IllegalOrder: the order is not allowed (default: always, since a game
            without ``anytime_prompt`` offers nothing to send).
        """
        raise IllegalOrder("There is nothing you can send now.",
                           {"platform": "There is nothing you can send now.", "args": {}})


def deep_copy(state: State) -> State:
    """A copy of a JSON state that shares nothing with the original."""
    return copy.deepcopy(state)


def round_trip(data: JSON) -> JSON:
    """``data`` through JSON and back (what storing it in the database does)."""
    return json.loads(json.dumps(data))


def step_rng(seed: str, step: int, purpose: str = "resolve") -> random.Random:
    """The rng for one step of a game: seeded from the game's secret seed.

    ``purpose`` separates the dice of a resolution from those of default or
    bot orders drawn at the same step.
    """
    return random.Random(f"{seed}:{step}:{purpose}")


def bot_order(rules: Rules, state: State, seat: str, rng: random.Random) -> Order:
    """The one door to a game's bot: ``ai_order`` with the seat's view and prompt only."""
    return rules.ai_order(rules.view(state, seat), rules.owed(state)[seat], rng)
