"""The local mailbox: mail that would have been sent, for trying the app without SMTP.

Only served when no SMTP server is configured and never in production.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, make_response, render_template
from sqlmodel import select

from app.db import get_session
from app.mail import build_message, fill_link, order_link, prefs_link_for, report_filename
from app.models import OutboxMail, Report

bp = Blueprint("dev", __name__, url_prefix="/dev")


@bp.before_request
def only_without_smtp() -> None:
    if not current_app.config["DEV_MAILBOX"] or current_app.config["ENV_NAME"] == "production":
        abort(404)


@bp.route("/mailbox")
def mailbox() -> str:
    rows = get_session().exec(select(OutboxMail).order_by(OutboxMail.id.desc()).limit(300)).all()
    return render_template("dev/mailbox.html", mails=rows)


@bp.route("/mailbox/<int:mail_id>")
def mail(mail_id: int) -> str:
    session = get_session()
    row = session.get(OutboxMail, mail_id) or abort(404)
    link = order_link(session, row)
    prefs = prefs_link_for(session, row.to_addr)  # as the sender fills it: the reader's settings (a GM's home)
    return render_template("dev/mail.html", mail=row, body=fill_link(row.text, link, prefs), link=link,
                           gm_home=prefs if row.seat == "GM" else "")


@bp.route("/mailbox/<int:mail_id>/report.pdf")
def attachment(mail_id: int) -> Response:
    session = get_session()
    row = session.get(OutboxMail, mail_id) or abort(404)
    if row.report_id is None:
        abort(404)
    msg = build_message(session, row)
    pdf = next((p.get_content() for p in msg.iter_attachments()), None) or abort(404)
    report = session.get(Report, row.report_id)
    resp = make_response(pdf)
    resp.headers["Content-Type"] = "application/pdf"
    resp.headers["Content-Disposition"] = f'inline; filename="{report_filename(report)}"'
    return resp
