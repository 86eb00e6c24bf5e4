"""Web blueprints and the headers every response carries."""

from __future__ import annotations

from flask import Flask, Request, Response, render_template, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from sqlalchemy.exc import DataError
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, UnicodeConverter

from app.i18n import gettext
from app.logs import TOKEN_PATH
from app.web import (
    api,
    boards,
    consent,
    dev,
    gm,
    language,
    league_join,
    leagues,
    limits,
    me,
    play,
    press,
    public,
    resend,
    rules,
    site,
    standing,
    verify,
)


class _CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, which build their signer only for a request that brings the cookie: no
    page of the site sets one, and building it cost every request, an order's post included, its time."""

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


def _security_headers(resp: Response) -> Response:
    resp.headers.setdefault("Referrer-Policy", "no-referrer")
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("X-Frame-Options", "DENY")
    resp.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self' 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    if TOKEN_PATH.search(request.path):  # a page behind a personal link: kept by no cache
        resp.headers["Cache-Control"] = "no-store"
    return resp


def trust_proxies(app: Flask) -> None:
    """Take the client's address (and scheme) from ``TRUSTED_PROXIES`` reverse proxies in front (0: none).

    Behind a proxy every request comes from the proxy's address: without this, rate limits
    would count every player together.  Set it to the number of proxies that append to
    ``X-Forwarded-For``, never more (a client could then choose its own address).
    """
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]


class DatabaseInt(IntegerConverter):
    """``<int:...>`` in URLs: ids beyond a database integer are simply not found (no 500)."""

    def __init__(self, map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):  # type: ignore[no-untyped-def]  # noqa: A002
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


class DatabaseString(UnicodeConverter):
    """``<name>`` in URLs: a part holding a NUL character (which PostgreSQL cannot store, so it
    names nothing) is simply not found (no 500)."""

    def __init__(self, map, minlength=1, maxlength=None, length=None):  # type: ignore[no-untyped-def]  # noqa: A002
        super().__init__(map, minlength=minlength, maxlength=maxlength, length=length)
        self.regex = self.regex.replace("[^/]", "[^/\\x00]")


def init_app(app: Flask) -> None:
    app.url_map.converters["int"] = DatabaseInt
    app.url_map.converters["default"] = app.url_map.converters["string"] = DatabaseString
    app.register_blueprint(site.bp)
    app.register_blueprint(me.bp)
    app.register_blueprint(consent.bp)
    app.register_blueprint(public.bp)
    app.register_blueprint(leagues.bp)
    app.register_blueprint(league_join.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(resend.bp)
    app.register_blueprint(boards.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(press.bp)
    app.register_blueprint(standing.bp)
    app.register_blueprint(gm.bp)
    app.register_blueprint(dev.bp)
    app.register_blueprint(verify.bp)
    app.register_blueprint(api.bp)
    trust_proxies(app)
    links = (play.bp, boards.bp, press.bp, standing.bp, gm.bp, me.bp, consent.bp, leagues.bp, league_join.bp,
             api.bp)
    limits.init_app(app, link_blueprints=links)
    language.init_app(app)
    app.after_request(_security_headers)
    app.session_interface = _CookieSessions()
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True

    @app.errorhandler(404)
    def not_found(_e):  # type: ignore[no-untyped-def]
        if request.blueprint == "gm" or request.path.startswith("/lg/"):  # a GM page moved, or mistyped
            return render_template("web/message.html", title=gettext("Not found"), message=gettext(
                "This GM page does not exist, or has moved to a new address: your GM home, linked from the "
                "mails you get as GM, lists the page of every game and league you run.")), 404
        return render_template("web/message.html", title=gettext("Not found"),
                               message=gettext("This page or link does not exist. If it came from a game mail, "
                               "the link may have been replaced: ask your GM for the new one.")), 404

    @app.errorhandler(403)
    def forbidden(_e):  # type: ignore[no-untyped-def]
        return render_template("web/message.html", title=gettext("Refused"),
                               message=gettext("This request was refused. Open your personal link again and "
                               "send the form from there.")), 403

    @app.errorhandler(413)
    def too_large(_e):  # type: ignore[no-untyped-def]
        return render_template("web/message.html", title=gettext("Too large"),
                               message=gettext("That submission is too large.")), 413

    @app.errorhandler(DataError)
    def unstorable(_e):  # type: ignore[no-untyped-def]
        # a value the database cannot hold (PostgreSQL refuses a NUL byte in text): the request changed nothing
        return render_template("web/message.html", title=gettext("Not understood"),
                               message=gettext("That request holds a character that cannot be stored (a control "
                                               "character). Nothing was changed.")), 400

    @app.errorhandler(500)
    def server_error(_e):  # type: ignore[no-untyped-def]
        return render_template("web/message.html", title=gettext("Something went wrong"),
                               message=gettext("Nothing you sent was lost: try again in a minute.")), 500
