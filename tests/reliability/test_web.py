"""RELIABILITY.md B28-B31: configuration checks, escaping, redirects, the PDF renderer."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pypdf import PdfReader
from sqlmodel import select

from app import DEV_SECRET, ConfigError, create_app
from app.db import get_engine, write_session
from app.models import Event
from tests.platform.helpers import create_game, csrf_of, path_of, post_form, step_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAYLOAD = "<script>alert('x')</script>{{7*7}}{{config}}"


@pytest.mark.parametrize("cfg", [
    {"SECRET_KEY": None}, {"SECRET_KEY": ""}, {"SECRET_KEY": DEV_SECRET}, {"SECRET_KEY": "short"},
    {"SECRET_KEY": "a-strong-production-key-0123", "DEBUG": True},
])
def test_b28_production_refuses_weak_key_or_debug(tmp_path, cfg):
    """B28. App refuses empty/default `SECRET_KEY` or `DEBUG=1`."""
    with pytest.raises(ConfigError):
        create_app({"ENV_NAME": "production", "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite", **cfg})


def test_b28_production_refuses_debug_from_the_environment(tmp_path):
    """B28 (`DEBUG=1` from the environment, as an operator would set it)."""
    env = {**os.environ, "FLASK_ENV_NAME": "production", "FLASK_SECRET_KEY": "a-strong-production-key-0123",
           "FLASK_DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite", "FLASK_DEBUG": "1"}
    out = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "routes"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "DEBUG" in out.stderr + out.stdout
    ok = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "routes"], cwd=ROOT,
                        env={**env, "FLASK_DEBUG": "0"}, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr[-2000:]


def test_b28_error_pages_show_no_traceback(tmp_path):
    """B28. 404/500 pages show no traceback (a production app, an exception inside a view)."""
    app = create_app({"ENV_NAME": "production", "SECRET_KEY": "a-strong-production-key-0123",
                      "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"})

    @app.route("/_boom")
    def boom():  # type: ignore[no-untyped-def]
        raise RuntimeError("secret internals: /etc/pbem password=hunter2")

    from app.db import create_all

    with app.app_context():
        create_all(get_engine())
    client = app.test_client()
    for path, code in (("/_boom", 500), ("/nothing", 404), ("/p/" + "x" * 43, 404), ("/g/999/verify", 404)):
        resp = client.get(path)
        body = resp.get_data(as_text=True)
        assert resp.status_code == code
        assert "Traceback" not in body and "hunter2" not in body and "RuntimeError" not in body
        assert "<h1>" in body
    assert client.get("/dev/mailbox").status_code == 404, "no local mailbox in production"


def test_b29_player_text_shows_literally_in_html_mail_and_pdf(smtp_app, smtp, client, runner):
    """B29. Name `<script>` / `{{7*7}}` shows literally in HTML, email and PDF; every email template autoescaped;
    no `render_template_string(user)`.

    Player-supplied text reaches the pages through the game log (events quote
    players, e.g. trade offers), rejected input echoed in error messages, and the
    player's name in the report data; each is checked on the page, in the mail
    (text and HTML) and in the PDF.
    """
    from tests.reliability.leakscan import pdf_channels

    app = smtp_app
    app.config["RENDER_WORKERS"] = 0
    made = create_game(runner)
    a, b = made["seats"]
    with write_session(get_engine(app)) as s:
        s.add(Event(game_id=made["game"], step_no=1, seq=99, to=None, text=f"A said: {PAYLOAD}"))
        from app.models import Player

        for p in s.exec(select(Player)):
            p.name = PAYLOAD
            s.add(p)
    bad = post_form(client, a["link"], {"n": PAYLOAD})
    assert bad.status_code == 422
    assert "&lt;script&gt;" in bad.get_data(as_text=True) and "<script>alert" not in bad.get_data(as_text=True)
    post_form(client, a["link"], {"n": "2"})
    post_form(client, b["link"], {"n": "1"})
    page = client.get(path_of(a["link"])).get_data(as_text=True)
    assert "A said: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;{{7*7}}{{config}}" in page
    assert "<script>alert" not in page and "49" not in page.split("A said:")[1][:80]
    assert "SECRET_KEY" not in page and "test-secret-key" not in page
    runner.invoke(args=["mail", "deliver"])
    turn = [m["msg"] for m in smtp.sink.messages if ".s2." in m["msg"]["Message-ID"]]
    assert len(turn) == 2
    for msg in turn:
        text = msg.get_body(("plain",)).get_content()
        html = msg.get_body(("html",)).get_content()
        if "A said" in text:
            assert f"A said: {PAYLOAD}" in text
        if "A said" in html:
            assert "<script>alert" not in html and "&lt;script&gt;" in html
        pdf = [p.get_content() for p in msg.iter_attachments() if p.get_content_type() == "application/pdf"][0]
        pdf_text = pdf_channels(pdf)["pdf-text"].replace("\n", "")
        assert "A said: <script>alert('x')</script>{{7*7}}{{config}}" in pdf_text
        assert "test-secret-key" not in pdf_text
    for dirpath, _d, files in os.walk(os.path.join(ROOT, "app")):
        for name in files:
            if name.endswith(".py"):
                assert "render_template_string" not in open(os.path.join(dirpath, name), encoding="utf-8").read()
    for name in os.listdir(os.path.join(ROOT, "templates", "mail")):
        if "html" in name:
            assert app.jinja_env.autoescape(name), name


def test_b30_next_parameters_are_ignored(app, client, runner):
    """B30. `?next=https://evil.test` or `//evil.test` ignored."""
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    for evil in ("https://evil.test/x", "//evil.test", "/\\evil.test", "javascript:alert(1)"):
        page = client.get(link + "?next=" + evil).get_data(as_text=True)
        resp = client.post(link + "?next=" + evil, data={"csrf_token": csrf_of(page), "step_no": step_of(page),
                                                        "form_index": "0", "n": "2", "next": evil})
        assert resp.status_code == 303
        assert resp.headers["Location"].startswith(link + "?done=")
        assert "evil" not in resp.headers["Location"]
        gm = path_of(made["gm_link"])
        for action in ("pause", "resume"):
            resp = client.post(gm + "?next=" + evil, data={
                "csrf_token": csrf_of(client.get(gm).get_data(as_text=True)), "action": action, "next": evil})
            assert resp.status_code == 303 and resp.headers["Location"] == f"{gm}?done={action}"
        assert "evil" not in client.post("/resend?next=" + evil, data={"email": "a@example.org",
                                                                       "next": evil}).headers.get("Location", "")


class _Canary(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802
        _Canary.hits.append(self.path)
        if self.path.startswith("/redirect"):
            self.send_response(302)
            self.send_header("Location", "file:///etc/passwd")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"body{color:red}")

    def log_message(self, *a):  # noqa: D401
        pass


@pytest.mark.slow
def test_b31_pdf_fetches_nothing_and_embeds_nothing(app):
    """B31. Player text with `<img src=file:///etc/passwd>`, `<link rel=attachment href=file:///…>`, canary URL or
    a redirect to it -> 0 canary hits, no PDF attachment.

    Checked twice: through the report template (text is escaped, so it is just
    text), and as raw HTML handed to the renderer (the fetcher is the last line).
    """
    from app.reports import render_html, render_limited, render_pdf

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Canary)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    _Canary.hits.clear()
    payload = (f'<img src="file:///etc/passwd"><link rel="attachment" href="file:///etc/passwd">'
               f'<link rel="stylesheet" href="http://127.0.0.1:{port}/canary.css">'
               f'<img src="http://127.0.0.1:{port}/canary.png"><img src="http://127.0.0.1:{port}/redirect">'
               f'<a rel="attachment" href="file:///etc/hostname">x</a>'
               f'<style>@import url("http://127.0.0.1:{port}/import.css");</style>')
    context = {"game": {"id": 1, "slug": "toy", "title": payload, "step_no": 1, "turn_key": "R1",
                        "status": "running", "seed_hash": "ab" * 32, "seed": None, "options": {}},
               "seat": "A", "player": {"name": payload, "timezone": "UTC"},
               "view": {"round": 1, "rounds": 3, "score": {"A": 0, "B": 0}},
               "events": [{"step": 1, "text": payload}], "prompt": None, "waiting_for": [],
               "deadline": None, "outcome": None, "made_at": "2026-01-01T00:00:00Z"}
    try:
        with app.test_request_context():
            assert payload not in render_html(context, "")
            pdfs = [render_pdf(context, ""), render_limited("<html><body>" + payload + "</body></html>", 60, 1024)]
    finally:
        server.shutdown()
    assert _Canary.hits == []
    for pdf in pdfs:
        reader = PdfReader(io.BytesIO(pdf))
        assert reader.attachments == {}
        assert b"root:x:0:0" not in pdf and b"/EmbeddedFile" not in pdf


@pytest.mark.slow
def test_b31_endless_or_huge_render_is_stopped(app):
    """B31. huge-CSS render killed by timeout/RLIMIT (per render: time limit, then memory limit)."""
    import time

    from app.reports import RenderError, render_limited

    with app.app_context():
        heavy = "<style>td{border:1px solid;padding:1px}</style><table>" + "<tr><td>x</td></tr>" * 120_000 + "</table>"
        started = time.monotonic()
        with pytest.raises(RenderError, match="longer than"):
            render_limited(heavy, 2, 2048)
        assert time.monotonic() - started < 10
        with pytest.raises(RenderError, match="memory|died"):
            # 30 MB of text: the parser's first copies of it already pass a 60 MB allowance
            render_limited("<p>" + "x" * 30_000_000 + "</p>", 60, 60)
        assert render_limited("<p>still fine</p>", 30, 1024).startswith(b"%PDF")
    assert issubclass(RenderError, OSError), "a stopped render defers the mail, it does not crash delivery"


def test_a_value_the_database_cannot_hold_is_a_400_that_changed_nothing(app):
    """PostgreSQL refuses a NUL byte in text (``DataError``): whatever request still carries one gets a plain
    400 page, never a 500."""
    from sqlalchemy.exc import DataError

    def store_nul():
        raise DataError("INSERT ...", {"x": "\x00"}, ValueError("text fields cannot contain NUL (0x00) bytes"))

    app.add_url_rule("/probe-nul", "probe_nul", store_nul)
    resp = app.test_client().get("/probe-nul")
    assert resp.status_code == 400 and "cannot be stored" in resp.get_data(as_text=True)
