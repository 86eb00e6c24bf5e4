"""``flask mail serve`` (SMTP/LMTP receiver) and ``flask mail poll`` (IMAP poller)."""

from __future__ import annotations

import json
import signal
import threading
import time

import click
from flask import current_app
from flask.cli import AppGroup, with_appcontext


def register(mail_cli: AppGroup) -> None:
    """Add the inbound mail commands to the ``mail`` group."""

    @mail_cli.command("serve")
    @click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
    @click.option("--port", default=2525, type=int, show_default=True, help="Port to listen on.")
    @click.option("--lmtp", is_flag=True, help="Speak LMTP (for delivery from a local MTA) instead of SMTP.")
    @click.option("--no-deliver", is_flag=True, help="Leave answers in the outbox for the scheduler.")
    @with_appcontext
    def mail_serve(host: str, port: int, lmtp: bool, no_deliver: bool) -> None:
        """Receive orders by mail (SMTP, or LMTP) in the foreground until stopped."""
        # deferred: the receiver loads aiosmtpd and the order handler only when it runs
        from app.mailin.server import make_controller

        app = current_app._get_current_object()  # type: ignore[attr-defined]
        try:
            controller = make_controller(app, host, port, lmtp=lmtp, deliver=not no_deliver)
            controller.start()
        except (RuntimeError, OSError) as exc:
            raise click.ClickException(str(exc)) from exc
        stop = threading.Event()
        previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
        click.echo(f"Receiving order mail by {'LMTP' if lmtp else 'SMTP'} on {host}:{port} (Ctrl-C to stop)",
                   err=True)
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            controller.stop()

    @mail_cli.command("poll")
    @click.option("--every", type=float, default=0.0, help="Poll again every N seconds (default: once).")
    @click.option("--no-deliver", is_flag=True, help="Leave answers in the outbox for the scheduler.")
    @with_appcontext
    def mail_poll(every: float, no_deliver: bool) -> None:
        """Fetch unseen mail from the IMAP mailbox, handle it, mark it seen; print counts as JSON."""
        # deferred: the poller loads imaplib and the order handler only when it runs
        from app.mailin.imap import poll_once

        app = current_app._get_current_object()  # type: ignore[attr-defined]
        while True:
            try:
                counts = poll_once(app, deliver=not no_deliver)
            except Exception as exc:  # network, login: report, and retry when looping
                if not every:
                    raise click.ClickException(f"IMAP poll failed: {exc}") from exc
                click.echo(json.dumps({"error": str(exc)}), err=True)
            else:
                click.echo(json.dumps(counts))
            if not every:
                return
            time.sleep(every)
