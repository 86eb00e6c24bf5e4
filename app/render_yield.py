"""A render worker gives its core back every half millisecond while it renders, so that a web worker or a
database server process waiting for that core gets it within that time, not at the kernel's next tick.

Why a worker in Linux's idle class (``render_pool._idle_class``) is not enough: the kernel's fair scheduler
(EEVDF, Linux 6.6 and later) lets a task that wakes take the core from an idle-class task at once, but when
a task that already waits for a core is next in line (a web worker whose own database process woke on its
core and ran first, or that database process once the web worker sleeps), the kernel picks by eligibility
alone.  The render worker, which has not run for a while, is eligible; the web worker, which just ran, is
not.  The render then keeps the core until the kernel's next tick looks at its slice: up to 4 ms on a
250 Hz kernel, seen as the slowest orders' wait during a deadline storm (``bench/order_parts.py``).

A POSIX timer (``timer_create``, which the standard library does not expose: through ``ctypes``) sends
the render's thread a real-time signal every ``PERIOD`` seconds of wall time while a render runs (a system
call it lands in is restarted).  Its handler calls ``sched_yield``, which makes the kernel account the
render's time and pick again: a task waiting for the core gets it, and with none waiting the render goes
on at once.  The timer counts wall time on the kernel's high-resolution clock: a timer on the process's
processor time (``ITIMER_VIRTUAL``) is only looked at on a tick, so it cannot be sooner than the tick.
The timer runs only during a render (``rendering``), so an idle worker is never woken.  Where it cannot
be made (not Linux, no libc), nothing changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import signal
import threading
from collections.abc import Iterator

log = logging.getLogger(__name__)

#: seconds of wall time between two yields while a render runs
PERIOD = 0.0005
_CLOCK_MONOTONIC = 1
_SIGEV_THREAD_ID = 4  # the signal goes to one thread: the render's own, never a library's


class _Sigevent(ctypes.Structure):  # struct sigevent (64 bytes on Linux)
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("tid", ctypes.c_int), ("_pad", ctypes.c_int * 11)]


class _Timespec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("interval", _Timespec), ("value", _Timespec)]


class YieldTimer:
    """The process's timer; ``rendering()`` runs it for the length of a ``with`` block."""

    def __init__(self, period: float = PERIOD) -> None:
        every = _Timespec(int(period), int(period % 1 * 1e9))
        self._on, self._off = _Itimerspec(every, every), _Itimerspec()
        self._libc = None
        self._timer = ctypes.c_void_p()
        try:
            signo = signal.SIGRTMIN + 2  # no real-time signals (not Linux): AttributeError
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            signal.signal(signo, _give_way)
            signal.siginterrupt(signo, False)  # a system call the signal lands in goes on, as if never interrupted
            event = _Sigevent(None, signo, _SIGEV_THREAD_ID, threading.get_native_id())
            if libc.timer_create(_CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(self._timer)) != 0:
                raise OSError(ctypes.get_errno(), "timer_create")
        except (OSError, AttributeError, ValueError) as exc:
            log.debug("render worker: no yield timer: %s", exc)
            return
        self._libc = libc

    def _set(self, spec: _Itimerspec) -> None:
        if self._libc is not None:
            self._libc.timer_settime(self._timer, 0, ctypes.byref(spec), None)

    @contextlib.contextmanager
    def rendering(self) -> Iterator[None]:
        self._set(self._on)
        try:
            yield
        finally:
            self._set(self._off)


_given_way = 0


def given_way() -> int:
    """How many times this process has given its core back (tests check that an idle worker never does)."""
    return _given_way


def _give_way(_signo: int, _frame: object) -> None:
    global _given_way
    _given_way += 1
    os.sched_yield()
