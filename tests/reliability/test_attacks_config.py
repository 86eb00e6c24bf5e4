"""Issue 17, weaknesses 3, 4 and 6 (configuration): proxies, leaking settings links, unsafe settings.

3. one client behind the reverse proxy must not lock every player out;
4. the settings link ``/me/<token>`` is masked in logs, not cached, and can be replaced;
6. a production server does not start in development mode, on a guessable key, or mail on the dev key.
"""

from __future__ import annotations

import logging
import re
import secrets

import pytest

from app import ConfigError, create_app, key_bits
from app.db import create_all, get_engine
from app.logs import redact
from tests.platform.helpers import create_game, csrf_of, path_of, post_form

PROXY = "10.0.0.1"


def _app(database_url, **extra):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret-key-0123456789", "DATABASE_URL": database_url,
                      "BASE_URL": "https://pbem.example.org", "MAIL_SERVER": "", **extra})
    with app.app_context():
        create_all(get_engine())
    return app


def _via_proxy(client_ip):
    return {"environ_base": {"REMOTE_ADDR": PROXY}, "headers": {"X-Forwarded-For": client_ip}}


def test_3_a_guesser_behind_the_proxy_does_not_lock_the_players_out(database_url):
    """20+ bad-link lookups through the proxy: the guesser gets 429, every other player's page and POST work."""
    app = _app(database_url, TRUSTED_PROXIES=1, RATELIMIT_BAD_TOKENS="20 per minute")
    client = app.test_client()
    made = create_game(app.test_cli_runner())
    link = made["seats"][0]["link"]
    codes = [client.get("/p/" + secrets.token_urlsafe(32), **_via_proxy("203.0.113.66")).status_code
             for _ in range(25)]
    assert codes[:20] == [404] * 20 and set(codes[20:]) == {429}, "the guesser is limited"
    player = _via_proxy("198.51.100.7")
    page = client.get(path_of(link), **player)
    assert page.status_code == 200, "another player behind the same proxy still opens the page"
    html = page.get_data(as_text=True)
    step = re.search(r'name="step_no" value="(\d+)"', html).group(1)
    sent = client.post(path_of(link), data={"csrf_token": csrf_of(html), "step_no": step, "form_index": "0",
                                            "n": "2"}, **player)
    assert sent.status_code == 303, "and their order is taken"
    for path in ("/me/" + secrets.token_urlsafe(32), "/gm/" + secrets.token_urlsafe(32)):
        assert client.get(path, **_via_proxy("203.0.113.66")).status_code == 429


def test_3_without_a_trusted_proxy_a_forged_forwarded_for_changes_nothing(app, client, runner):
    """TRUSTED_PROXIES=0 (the default): X-Forwarded-For is ignored, so a guesser cannot pick a new address a try."""
    app.config["RATELIMIT_BAD_TOKENS"] = "5 per minute"
    codes = [client.get("/p/" + secrets.token_urlsafe(32), environ_base={"REMOTE_ADDR": "10.9.9.9"},
                        headers={"X-Forwarded-For": f"192.0.2.{i}"}).status_code for i in range(8)]
    assert codes[:5] == [404] * 5 and set(codes[5:]) == {429}


def test_4_token_urls_are_masked_and_not_cached(app, client, runner, caplog):
    """Every URL carrying a token is masked in logs; pages behind a token send Cache-Control: no-store."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    token = "T" * 43
    for path in (f"/p/{token}", f"/gm/{token}", f"/me/{token}", f"/lg/{token}", f"/l/spring/join/{token}",
                 f"/p/{token}/report.pdf?step=2", f"/me/{token}/deadlines.ics"):
        assert token not in redact(f'127.0.0.1 - - "GET {path} HTTP/1.1" 200 -'), path
    caplog.set_level(logging.INFO)
    logging.getLogger("werkzeug").error("Exception on /me/%s [GET]", token)
    assert token not in caplog.text
    me = path_of(made["gm_home"])
    for path in (me, path_of(made["gm_link"]), path_of(made["seats"][0]["link"]), me + "/deadlines.ics"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path


def test_4_a_leaked_settings_link_can_be_replaced_by_the_player_and_by_the_gm(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    old = path_of(made["gm_home"])
    page = client.get(old).get_data(as_text=True)
    moved = client.post(old, data={"csrf_token": csrf_of(page), "action": "new-link"})
    assert moved.status_code == 303
    new = moved.headers["Location"].split("?")[0]
    assert new != old and client.get(new).status_code == 200
    assert client.get(old).status_code == 404 and client.get(old + "/deadlines.ics").status_code == 404
    # the GM replaces a player's settings link, without ever seeing it
    with app.app_context():
        from sqlmodel import Session, select

        from app.links import prefs_link
        from app.models import Player

        with Session(get_engine()) as s:
            before = path_of(prefs_link(s.exec(select(Player).where(Player.email == "b@example.org")).one()))
    assert client.get(before).status_code == 200
    gm = path_of(made["gm_link"])
    html = client.get(gm).get_data(as_text=True)
    resp = client.post(gm, data={"csrf_token": csrf_of(html), "action": "settings-link",
                                 "seat": made["seats"][1]["seat"]})
    assert resp.status_code == 303
    assert client.get(before).status_code == 404, "the old settings link stopped working"
    assert "/me/" not in client.get(gm).get_data(as_text=True).replace(made["gm_home"], "")
    assert post_form(client, made["seats"][1]["link"], {"n": "1"}).status_code == 303, "game links unchanged"


@pytest.mark.parametrize("name", ["production", "Production", "PROD", "prod", " production "])
def test_6_every_spelling_of_production_is_production(tmp_path, name):
    app = create_app({"ENV_NAME": name, "SECRET_KEY": secrets.token_urlsafe(32),
                      "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"})
    assert app.config["ENV_NAME"] == "production" and app.config["DEV_MAILBOX"] is False
    assert app.test_client().get("/dev/mailbox").status_code == 404, "no mailbox of every player's links"


@pytest.mark.parametrize("name", ["staging", "prodution", "live", "1"])
def test_6_an_unknown_env_name_refuses_to_start(tmp_path, name):
    with pytest.raises(ConfigError, match="ENV_NAME"):
        create_app({"ENV_NAME": name, "SECRET_KEY": secrets.token_urlsafe(32),
                    "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"})


@pytest.mark.parametrize("key", ["a" * 16, "a" * 64, "ab" * 20, "abcdefghijklmnop", "0123456789012345"])
def test_6_a_guessable_key_is_refused_in_production(tmp_path, key):
    assert key_bits(key) < 128
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app({"ENV_NAME": "production", "SECRET_KEY": key, "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"})


def test_6_random_keys_pass_the_entropy_estimate():
    for key in (secrets.token_urlsafe(32), secrets.token_hex(32), secrets.token_hex(16),
                "a-strong-production-key-0123"):
        assert key_bits(key) >= 128, key


def test_6_mail_on_the_development_key_needs_an_explicit_development(tmp_path):
    url = f"sqlite:///{tmp_path}/x.sqlite"
    with pytest.raises(ConfigError, match="MAIL_SERVER"):
        create_app({"MAIL_SERVER": "smtp.example.org", "DATABASE_URL": url})
    with pytest.raises(ConfigError, match="MAIL_SERVER"):
        create_app({"MAIL_SERVER": "smtp.example.org", "SECRET_KEY": "dev-only-secret-change-me", "DATABASE_URL": url})
    assert create_app({"MAIL_SERVER": "smtp.example.org", "ENV_NAME": "development", "DATABASE_URL": url})
    assert create_app({"MAIL_SERVER": "smtp.example.org", "SECRET_KEY": secrets.token_urlsafe(32),
                       "DATABASE_URL": url})
    assert create_app({"DATABASE_URL": url}).config["SECRET_KEY"] == "dev-only-secret-change-me", "no mail: fine"


def test_6_trusted_proxies_must_be_a_count(tmp_path):
    with pytest.raises(ConfigError, match="TRUSTED_PROXIES"):
        create_app({"TRUSTED_PROXIES": "yes", "DATABASE_URL": f"sqlite:///{tmp_path}/x.sqlite"})
