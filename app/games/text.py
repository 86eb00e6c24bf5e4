"""Game text as message ids with parameters: engines never write finished sentences.

A message is plain JSON, so it can sit in a state, an event or a prompt::

    {"msg": "not_adjacent", "args": {"a": {"msg": "territory.MOS"}, "b": {"msg": "territory.KIE"}}}

Each game writes its English text once, in ``app/games/<slug>/text.py``::

    TEXT = Catalogue("conquest", [
        T("not_adjacent", "{a} and {b} are not neighbours."),
        TN("armies", "{n} army", "{n} armies"),      # plural: chosen by the argument "n"
        T("territory.MOS", "Moscow"),                 # a name from the game's glossary
    ])

and its ``RULES.text`` is that catalogue. ``pybabel extract`` reads the ``T``/``TN``
calls (keywords ``T:1c,2`` and ``TN:1c,2,3``: the id is the gettext context, the
English is the msgid), so every language is an ordinary gettext catalogue per game
(domain = the game's slug, see ``app/i18n/gametext.py``).

An argument is rendered by its type: a message (``{"msg": ...}``) in the same
catalogue, a list (``{"list": [...]}``) joined as the language joins lists ("A, B
and C"), a number or a string as it is. Names of things (territories, cards,
resources, colours) are messages too (:func:`name`), so they are translated from
the glossary wherever they appear.

This module is pure: rendering takes the translation functions as arguments; with
none, it renders English (``str(IllegalOrder(...))`` and logs read in English).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Msg = dict[str, Any]
"""``{"msg": id}`` or ``{"msg": id, "args": {...}}``."""

Gettext = Callable[[str, str], str]
"""``pgettext(context, message)``: the id is the context."""
NGettext = Callable[[str, str, str, int], str]
"""``npgettext(context, singular, plural, n)``."""
JoinList = Callable[[list[str]], str]
Render = Callable[[Any], str]
"""Renders a message (or a plain string) in the reader's language: ``board_svg``'s ``tr``."""


def msg(msg_id: str, /, **args: Any) -> Msg:
    """A message with its parameters (JSON-serialisable)."""
    return {"msg": msg_id, "args": args} if args else {"msg": msg_id}


def name(kind: str, key: str) -> Msg:
    """A name from the game's glossary: ``name("territory", "MOS")`` -> ``territory.MOS``."""
    return {"msg": f"{kind}.{key}"}


def listing(items: Iterable[Any]) -> dict[str, list[Any]]:
    """A list argument, joined as the reader's language joins lists."""
    return {"list": list(items)}


def is_msg(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("msg"), str)


@dataclass(frozen=True)
class Entry:
    """One message of a catalogue: its id, its English text and, for plurals, the count argument."""

    id: str
    singular: str
    plural: str | None = None
    count: str = "n"


def T(msg_id: str, english: str) -> Entry:  # noqa: N802 (the extraction keyword)
    """A message: ``T("not_adjacent", "{a} and {b} are not neighbours.")``."""
    return Entry(msg_id, english)


def TN(msg_id: str, singular: str, plural: str, count: str = "n") -> Entry:  # noqa: N802
    """A message with plural forms, chosen by the argument named ``count``."""
    return Entry(msg_id, singular, plural, count)


def _english(_ctx: str, text: str) -> str:
    return text


def _english_n(_ctx: str, singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def english_list(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Formatter(string.Formatter):
    """``str.format`` on named fields only; an unknown field is an error (caught by the caller)."""

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, int):
            raise KeyError(key)
        return kwargs[key]


_FORMAT = _Formatter()


class Catalogue:
    """A game's messages, by id, in English; rendering takes a language's translation functions."""

    def __init__(self, domain: str, entries: Iterable[Entry]) -> None:
        self.domain = domain
        self.entries: dict[str, Entry] = {}
        for entry in entries:
            if entry.id in self.entries:
                raise ValueError(f"message id {entry.id!r} twice in the {domain} catalogue")
            self.entries[entry.id] = entry

    def __contains__(self, msg_id: object) -> bool:
        return msg_id in self.entries

    def refuse(self, msg_id: str, /, **args: Any) -> IllegalOrder:
        """The refusal ``msg_id`` with its parameters: ``raise TEXT.refuse("not_adjacent", ...)``."""
        message = msg(msg_id, **args)
        return IllegalOrder(self.english(message), message)

    def unreadable(self, msg_id: str, /, **args: Any) -> InvalidOrder:
        """An order that cannot be read: ``raise TEXT.unreadable("bad_pair", pair=text)``."""
        message = msg(msg_id, **args)
        return InvalidOrder(self.english(message), message)

    def english(self, text: Any) -> str:
        """The English rendering (logs, ``str()`` of a refusal)."""
        return self.render(text)

    def render(self, text: Any, gettext: Gettext = _english, ngettext: NGettext = _english_n,
               join: JoinList = english_list, missing: Callable[[str], None] | None = None) -> str:
        """Render a message (or a plain string, unchanged) with a language's functions.

        :param missing: called with a message id that this catalogue does not hold.
        A translation that cannot be formatted (a placeholder the English does not have)
        falls back to the English text of that message only.
        """
        if isinstance(text, str):
            return text
        if isinstance(text, dict) and "list" in text and "msg" not in text:
            return join([self.render(x, gettext, ngettext, join, missing) for x in text["list"]])
        if not is_msg(text):
            return "" if text is None else str(text)
        entry = self.entries.get(text["msg"])
        raw_args = text.get("args") or {}
        args = {k: (v if isinstance(v, int | float) and not isinstance(v, bool)
                    else self.render(v, gettext, ngettext, join, missing)) for k, v in raw_args.items()}
        if entry is None:  # reported; the reader sees the parameters, or a name's key, never the id
            if missing is not None:
                missing(text["msg"])
            if not args and "." in text["msg"]:
                return str(text["msg"]).rpartition(".")[2]
            return ", ".join(str(v) for v in args.values())
        if entry.plural is None:
            translated = gettext(entry.id, entry.singular)
            english = entry.singular
        else:
            count = raw_args.get(entry.count, 0)
            n = count if isinstance(count, int) else 0
            translated = ngettext(entry.id, entry.singular, entry.plural, n)
            english = _english_n(entry.id, entry.singular, entry.plural, n)
        try:
            return _FORMAT.vformat(translated, (), args)
        except (KeyError, IndexError, ValueError):
            return _FORMAT.vformat(english, (), args)


class IllegalOrder(ValueError):
    """An order the rules do not allow, with a message the player understands.

    ``str(exc)`` is the English text (logs, tests); ``exc.msg`` is the message id with
    its parameters (``app.games.text``), which the platform renders in the player's
    language. A game raises it through its catalogue: ``raise TEXT.refuse("not_adjacent",
    a=name("territory", a), b=name("territory", b))``. Raised with a plain string only,
    ``exc.msg`` is None and the string is shown as it is.
    """

    def __init__(self, text: str, msg: Msg | None = None) -> None:
        super().__init__(text)
        self.msg = msg

    @property
    def message(self) -> Msg | str:
        """What the player reads: the message, else the plain text."""
        return self.msg if self.msg is not None else str(self)


class InvalidOrder(IllegalOrder):
    """An order that cannot even be read (bad notation, missing fields)."""


EMPTY = Catalogue("", [])
