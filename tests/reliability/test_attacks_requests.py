"""Issue 17, weaknesses 5 and 6 (requests): out-of-range input, address probing, mail replay, render loops.

5. numbers and dates out of range get a 4xx page, never a 500;
6. ``/resend`` takes as long for an address that plays as for one that does not; the same
   Message-ID mailed to two seats is an order for each; a report rendered on request is
   cached and its renders limited per client.
"""

from __future__ import annotations

import time
from datetime import date

import pytest
from sqlmodel import select

from app.db import get_engine, write_session
from app.mailin.handler import handle_message
from app.models import Seat
from app.web.limits import get_limiter
from tests.mail.helpers import orders, reply, reply_addr
from tests.platform.helpers import create_game, csrf_of, path_of, post_form


def _settings_post(client, me, **fields):
    page = client.get(me).get_data(as_text=True)
    return client.post(me, data={"csrf_token": csrf_of(page), **fields})


def test_5_out_of_range_numbers_and_dates_get_a_4xx(app, client, runner):
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"), "--gm", "gm@example.org")
    link = path_of(made["seats"][0]["link"])
    assert post_form(client, made["seats"][0]["link"], {"n": "2"}).status_code == 303
    assert client.get(link + "?done=saved&r=99999999999999999999999").status_code == 200
    assert client.get(link + "?done=saved&r=-5").status_code == 200
    for step in ("99999999999999999999999", "-1", str(2**31), "-99999999999999999999"):
        assert client.get(f"{link}/report.pdf?step={step}").status_code == 404, step
    me = path_of(made["gm_home"])
    for start, end in (("2026-12-20", "9999-12-31"), ("0001-01-01", "0001-01-02"), ("9999-12-31", "9999-12-31"),
                       (str(date.today()), "2999-01-01")):
        resp = _settings_post(client, me, action="absence", start=start, end=end)
        assert resp.status_code == 422, (start, end)
    gm = path_of(made["gm_link"])
    for hours in ("inf", "-inf", "nan", "1e400", "x"):
        page = client.get(gm).get_data(as_text=True)
        resp = client.post(gm, data={"csrf_token": csrf_of(page), "action": "extend", "hours": hours})
        assert resp.status_code in (303, 422), hours
    app.config["GM_CREATE_KEY"] = ""
    for hours in ("inf", "nan", "1e308", "-1"):
        resp = client.post("/gm/new", data={"slug": "toy", "players": "a@example.org\nb@example.org", "hours": hours})
        text = resp.get_data(as_text=True)
        assert resp.status_code == 200 and ("hours per turn" in text or "not a number" in text), hours


def test_6_resend_takes_the_same_time_whether_or_not_the_address_plays(app, client, runner, monkeypatch):
    """On a clock of its own (no timing): queuing the links of an address with five running seats costs
    time, finding that an address plays nowhere almost none; both answers leave after the same time."""
    from app.web import resend

    get_limiter(app).enabled = False
    app.config["RESEND_PER_DAY"] = 1000
    app.config["RESEND_ANSWER_SECONDS"] = 0.3
    for _ in range(5):
        create_game(runner, "toy", ("plays@example.org", "b@example.org"))
    clock = {"now": 1000.0}

    class Clock:
        time = staticmethod(time.time)  # the form tokens' wall clock stays real

        @staticmethod
        def monotonic() -> float:
            return clock["now"]

        @staticmethod
        def sleep(seconds: float) -> None:
            assert seconds >= 0
            clock["now"] += seconds

    queue, queued_for = resend._queue_resends, []

    def costly(email: str) -> int:
        queued = queue(email)
        queued_for.append(queued)
        clock["now"] += 0.001 + 0.04 * queued  # each link mailed costs time
        return queued

    monkeypatch.setattr(resend, "time", Clock)
    monkeypatch.setattr(resend, "_queue_resends", costly)

    def answered_after(email: str) -> float:
        started = clock["now"]
        assert client.post("/resend", data={"email": email}).status_code == 200
        return clock["now"] - started

    plays, nobody = answered_after("plays@example.org"), answered_after("nobody@example.org")
    assert plays == pytest.approx(0.3) and nobody == pytest.approx(0.3), (plays, nobody)
    assert queued_for == [5, 0], "five links were queued for the address that plays"


def test_6_one_message_id_to_two_seats_is_an_order_for_each(app, runner):
    """A player of two seats answers both with one mail (same Message-ID, two reply addresses in two copies)."""
    made = create_game(runner, "toy", ("a@example.org", "b@example.org"))
    game_id = made["game"]
    seats = [s["seat"] for s in made["seats"]]
    with write_session(get_engine(app)) as session:  # one player in two seats, as an older build allowed
        rows = session.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.id)).all()
        rows[1].player_id = rows[0].player_id
        session.add(rows[1])
    with app.app_context():
        for seat in seats:
            to = reply_addr(app, game_id, seat)
            raw = reply(to, "PICK 1", msgid="<same@example.org>").as_bytes()
            assert handle_message(raw, rcpt_tos=[to], mail_from="a@example.org").status == "accepted", seat
        again = handle_message(raw, rcpt_tos=[to], mail_from="a@example.org")
    assert again.status == "duplicate", "the same mail to the same seat is still handled once"
    assert sorted(o.seat for o in orders(app, game_id, "mail")) == sorted(seats)


def test_6_a_report_reloaded_in_a_loop_renders_once_and_renders_are_limited(app, client, runner, monkeypatch):
    from app.web import play

    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    assert post_form(client, made["seats"][0]["link"], {"n": "2"}).status_code == 303
    assert post_form(client, made["seats"][1]["link"], {"n": "1"}).status_code == 303
    renders = []
    real = play.render_pdf
    monkeypatch.setattr(play, "render_pdf", lambda *a, **k: renders.append(1) or real(*a, **k))
    first = client.get(link + "/report.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    for _ in range(20):
        assert client.get(link + "/report.pdf").data == first.data
    assert len(renders) == 1, "a reload is served from the cache"
    client.get(link + "/report.pdf?lang=pt")
    assert len(renders) == 2, "one render per language"
    app.config["RATELIMIT_REPORT"] = "2 per minute"
    codes = [client.get(f"{link}/report.pdf?{q}", environ_base={"REMOTE_ADDR": "10.7.7.7"}).status_code
             for q in ("step=1", "step=1&lang=pt", "step=1&lang=el", "step=2&lang=el")]
    assert codes == [200, 200, 429, 429], codes
    assert client.get(link + "/report.pdf").status_code == 200, "a cached report still opens"
    other = path_of(made["seats"][1]["link"])
    assert client.get(other, environ_base={"REMOTE_ADDR": "10.8.8.8"}).status_code == 200
