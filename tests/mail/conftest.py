"""Fixtures for inbound mail: the order receiver (aiosmtpd) on a free port, next to the ``smtp`` sink."""

from __future__ import annotations

import pytest

from app.mailin.server import make_controller
from tests.conftest import free_port


@pytest.fixture
def receiver(smtp_app):
    """The SMTP order receiver for ``smtp_app``; answers stay in the outbox until ``mail deliver``."""
    controller = make_controller(smtp_app, "127.0.0.1", free_port(), deliver=False)
    controller.start()
    yield controller
    controller.stop()
