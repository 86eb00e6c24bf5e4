"""Reminders, digests, unsubscribing, absences, calendars and outage notices."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

from icalendar import Calendar
from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.leagues.absences import declare
from app.models import Event, Meta, OutboxMail, Player, Reminder, utcnow
from jobs import deadlines as deadline_jobs
from jobs import reminders
from tests.platform.helpers import csrf_of, game_row, mails, path_of, post_form


def _game(runner, hours="48", players=("a@example.org", "b@example.org")):
    args = ["game", "create", "toy", "--hours", hours]
    for p in players:
        args += ["--player", p]
    return json.loads(runner.invoke(args=args).output)


def test_thresholds_scale_with_the_step():
    assert reminders.thresholds(timedelta(hours=72)) == [24 * 60, 120]
    assert reminders.thresholds(timedelta(hours=12)) == [120]
    assert reminders.thresholds(timedelta(hours=2)) == [30]
    assert reminders.thresholds(timedelta(minutes=90)) == [22]


def test_reminders_once_per_threshold_and_only_to_seats_that_owe(app, client, runner):
    made = _game(runner)
    post_form(client, made["seats"][0]["link"], {"n": "2"})  # A has answered
    deadline = game_row(app, made["game"]).deadline
    assert reminders.run(app, deadline - timedelta(hours=30)) == 0
    assert reminders.run(app, deadline - timedelta(hours=23)) == 1
    assert reminders.run(app, deadline - timedelta(hours=22)) == 0, "never twice"
    assert reminders.run(app, deadline - timedelta(hours=1)) == 1
    sent = [m for m in mails(app) if m.kind.startswith("remind")]
    assert sorted(m.kind for m in sent) == ["remind120", "remind1440"]
    assert {m.to_addr for m in sent} == {"b@example.org"}
    assert "Deadline:" in sent[0].text and "%%ORDER_LINK%%" in sent[0].text


def test_two_concurrent_ticks_send_each_reminder_once(app, runner):
    for _ in range(3):
        _game(runner)
    with Session(get_engine(app)) as s:
        from app.models import Game

        deadline = s.exec(select(Game)).first().deadline
    when = deadline - timedelta(hours=1)
    results = []
    barrier = threading.Barrier(2)

    def tick():
        barrier.wait()
        results.append(reminders.run(app, when))

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(results) == 6  # 3 games x 2 seats, one reminder each
    with Session(get_engine(app)) as s:
        assert len(s.exec(select(Reminder)).all()) == 6
        assert len(s.exec(select(OutboxMail).where(OutboxMail.kind == "remind120")).all()) == 6


def _prefs_link(app, email):
    with app.app_context(), Session(get_engine(app)) as s:
        from app.links import prefs_link

        return prefs_link(s.exec(select(Player).where(Player.email == email)).one())


def test_every_mail_carries_the_settings_link_and_unsubscribe_keeps_order_mail(app, client, runner):
    made = _game(runner)
    with app.app_context(), Session(get_engine(app)) as s:
        from app.mail import build_message

        row = s.exec(select(OutboxMail).where(OutboxMail.to_addr == "a@example.org")).first()
        msg = build_message(s, row, with_pdf=False)
    link = _prefs_link(app, "a@example.org")
    assert link in msg.get_body(("plain",)).get_content()
    assert msg["List-Unsubscribe"] == f"<{link}>"
    page = client.get(path_of(link)).get_data(as_text=True)
    assert "Your settings" in page and "Toy Duel #" in page
    resp = client.post(path_of(link), data={"csrf_token": csrf_of(page), "action": "settings", "timezone": "UTC",
                                            "no_news": "on"})
    assert resp.status_code == 303
    # A answers; B still owes: B's mail is for a decision owed and goes out, A's news does not
    post_form(client, made["seats"][0]["link"], {"n": "3"})
    post_form(client, made["seats"][1]["link"], {"n": "1"})
    turn_mails = [m for m in mails(app) if m.kind == "turn"]
    assert {m.to_addr for m in turn_mails} == {"a@example.org", "b@example.org"}, "both owe the next pick"


def test_digest_holds_news_and_sends_one_mail(app, client, runner):
    with app.app_context(), write_session(get_engine(app)) as s:
        from app.turns import get_or_create_player

        p = get_or_create_player(s, "b@example.org")
        p.digest = True
        s.add(p)
    made = _game(runner, players=("a@example.org", "b@example.org"))
    with app.app_context(), write_session(get_engine(app)) as s:
        from app.models import Game

        g = s.get(Game, made["game"])
        g.owed = {"A": g.owed["A"]}  # only A owes now: B's next mail is news
        s.add(g)
    from app import notify, turns
    from app.games import get_rules

    with app.app_context(), write_session(get_engine(app)) as s:
        from app.models import Game, Seat

        g = s.get(Game, made["game"])
        notify.turn_reports(s, g, get_rules("toy"), s.exec(select(Seat)).all(), utcnow())
    held = [m for m in mails(app) if m.status == "digest"]
    assert [m.to_addr for m in held] == ["b@example.org"]
    assert reminders.send_digests(app) == 1
    digest = [m for m in mails(app) if m.kind.startswith("digest")]
    assert len(digest) == 1 and "Your games since the last digest" in digest[0].text
    assert all(m.status == "digested" for m in mails(app) if m.id == held[0].id)
    assert turns  # imported for the side effect of registering models


def test_absence_moves_the_deadline_and_is_capped(app, runner):
    with app.app_context(), write_session(get_engine(app)) as s:
        from app.turns import get_or_create_player

        p = get_or_create_player(s, "a@example.org")
        now = utcnow()
        declare(s, p.id, now, now + timedelta(days=5), now)
        try:
            declare(s, p.id, now + timedelta(days=10), now + timedelta(days=25), now)
            raise AssertionError("more than 14 days a year must be refused")
        except ValueError as exc:
            assert "14 days" in str(exc)
    made = _game(runner, hours="24")
    assert game_row(app, made["game"]).deadline > utcnow() + timedelta(days=5)
    with Session(get_engine(app)) as s:
        assert any("is away (declared in advance)" in e.text for e in s.exec(select(Event))), "others are told"


def test_player_feed_lists_deadlines_and_turn_mail_carries_an_ics(app, runner):
    made = _game(runner)
    with app.app_context(), Session(get_engine(app)) as s:
        from app.mail import build_message

        row = s.exec(select(OutboxMail).where(OutboxMail.to_addr == "a@example.org")).first()
        msg = build_message(s, row, with_pdf=False)
    ics = [p for p in msg.iter_attachments() if p.get_content_type() == "text/calendar"]
    assert len(ics) == 1
    cal = Calendar.from_ical(ics[0].get_content())
    event = next(c for c in cal.walk() if c.name == "VEVENT")
    assert event.decoded("dtend").astimezone(UTC) == game_row(app, made["game"]).deadline
    client = app.test_client()
    feed = client.get(path_of(_prefs_link(app, "a@example.org")) + "/deadlines.ics")
    assert feed.headers["Content-Type"].startswith("text/calendar")
    assert b"Toy Duel" in feed.data and b"BEGIN:VEVENT" in feed.data


def test_outage_shifts_deadlines_and_tells_players(app, runner):
    made = _game(runner, hours="1")
    before = utcnow() - timedelta(hours=1)  # the deadline fell while the server was down
    with app.app_context(), write_session(get_engine(app)) as s:
        from app.models import Game

        s.add(Meta(key="last_sweep", value=(utcnow() - timedelta(hours=3)).isoformat()))
        g = s.get(Game, made["game"])
        g.deadline = before
        s.add(g)
    deadline_jobs.startup(app)
    game = game_row(app, made["game"])
    assert game.step_no == 1, "nobody defaulted because of the outage"
    assert game.deadline > before + timedelta(hours=2, minutes=50) > utcnow()
    with Session(get_engine(app)) as s:
        assert any("server was unavailable" in e.text for e in s.exec(select(Event)))
    assert len([m for m in mails(app) if m.kind.startswith("outage")]) == 2


def test_short_stop_resolves_overdue_steps_on_restart(app, runner):
    made = _game(runner, hours="1")
    with app.app_context(), write_session(get_engine(app)) as s:
        from app.models import Game

        s.add(Meta(key="last_sweep", value=(utcnow() - timedelta(minutes=2)).isoformat()))
        g = s.get(Game, made["game"])
        g.deadline = utcnow() - timedelta(minutes=1)  # fell due during a two-minute stop
        s.add(g)
    deadline_jobs.startup(app)
    assert game_row(app, made["game"]).step_no == 2


def test_gm_extension_is_capped_logged_and_refused_to_a_playing_gm(app, client, runner):
    out = json.loads(runner.invoke(args=["game", "create", "toy", "--player", "gm@example.org", "--player",
                                         "b@example.org", "--gm", "gm@example.org"]).output)
    gm = path_of(out["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    resp = client.post(gm, data={"csrf_token": csrf_of(page), "action": "extend", "hours": "24"})
    assert resp.status_code == 422 and "You play in this game" in resp.get_data(as_text=True)
    other = json.loads(runner.invoke(args=["game", "create", "toy", "--player", "a@example.org", "--player",
                                           "b@example.org", "--gm", "boss@example.org"]).output)
    gm = path_of(other["gm_link"])
    page = client.get(gm).get_data(as_text=True)
    before = game_row(app, other["game"]).deadline
    assert client.post(gm, data={"csrf_token": csrf_of(page), "action": "extend", "hours": "24"}).status_code == 303
    assert game_row(app, other["game"]).deadline == before + timedelta(hours=24)
    too_much = client.post(gm, data={"csrf_token": csrf_of(page), "action": "extend", "hours": "400"})
    assert too_much.status_code == 422 and "capped" in too_much.get_data(as_text=True)
    html = client.get(gm).get_data(as_text=True)
    assert "deadline extended (24 h)" in html
    with Session(get_engine(app)) as s:
        assert any("The GM extended the deadline by 24 hours." == e.text for e in s.exec(select(Event)))
    assert datetime  # keep the import for readers of the dates above


def test_a_gm_with_many_games_sees_them_on_one_page(app, client, runner):
    for i in range(3):
        runner.invoke(args=["game", "create", "toy", "--player", f"a{i}@example.org", "--player", "b@example.org",
                            "--gm", "gm@example.org"])
    page = client.get(path_of(_prefs_link(app, "gm@example.org"))).get_data(as_text=True)
    assert "Games you run as GM" in page
    assert page.count("/gm/") == 3 and page.count("A, B") == 3
