"""Checking a game's options at creation, with errors that name the allowed values.

A game checks its options where it reads them (``seats`` and ``setup``), so that
``game create`` and the GM page refuse a bad option at once (``ValueError``) rather
than the game failing at its first resolution.  Whole numbers may come as ints or as
strings of digits (a form field); booleans are never numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def N_(message: str) -> str:  # noqa: N802 (the extraction keyword: these templates are in messages.pot)
    return message


class OptionError(ValueError):
    """A bad option: ``str()`` is the English; ``message`` is a platform message that the GM
    page shows in the GM's language (``{"platform": template, "args": ...}``)."""

    def __init__(self, template: str, /, **args: Any) -> None:
        self.message: dict[str, Any] = {"platform": template, "args": args}
        super().__init__(template.format(**args))


def whole(name: str, value: Any, low: int, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (no upper bound when None)."""
    number = _int(value)
    if number is None or number < low or (high is not None and number > high):
        if high is None:
            raise OptionError(N_("{name} must be a whole number of at least {low}, not {value}"),
                              name=name, low=low, value=repr(value))
        raise OptionError(N_("{name} must be a whole number from {low} to {high}, not {value}"),
                          name=name, low=low, high=high, value=repr(value))
    return number


def one_of(name: str, value: Any, allowed: Sequence[Any]) -> Any:
    """``value`` when it is one of ``allowed`` (whole numbers compared as numbers)."""
    if all(isinstance(a, int) and not isinstance(a, bool) for a in allowed):
        number = _int(value)
        if number in allowed:
            return number
    elif value in allowed and not isinstance(value, bool) or isinstance(value, bool) and any(
            a is value for a in allowed):
        return value
    raise OptionError(N_("{name} must be one of {allowed}, not {value}"), name=name,
                      allowed=", ".join(str(a) for a in allowed), value=repr(value))


def flag(name: str, value: Any) -> bool:
    """``value`` as a yes/no option: true or false."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in ("true", "false"):
        return value == "true"
    raise OptionError(N_("{name} must be true or false, not {value}"), name=name, value=repr(value))


def known(options: dict[str, Any], names: Sequence[str], game: str) -> None:
    """Refuse an option the game does not have (a misspelt name would be ignored)."""
    unknown = sorted(k for k in options if k not in names)
    if unknown:
        raise OptionError(N_("{game} has no option {unknown}; its options are {names}"), game=game,
                          unknown=", ".join(unknown), names=", ".join(names))


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None
