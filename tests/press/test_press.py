"""Press between players: who reads what, the GM's setting, limits, mail, replacement, the end."""

from __future__ import annotations

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.mailin import seat_reply_address
from app.mailin.handler import handle_message
from app.models import Game, OutboxMail, Player
from app.turns import replace_player
from tests.mail.helpers import reply
from tests.platform.helpers import csrf_of, path_of
from tests.press.helpers import create, links, page, press_mails, seat, stored, write


def test_a_message_to_one_seat_is_read_only_by_sender_and_recipient(app, client, runner):
    made = create(runner)
    link = links(made)
    resp = write(client, link["A"], "Shall we share the north? <b>yes</b>", to=["B"])
    assert resp.status_code == 303 and resp.headers["Location"].endswith("?press=sent#press")
    b_page = page(client, link["B"])
    assert "Shall we share the north?" in b_page and "1 unread" in b_page
    assert "&lt;b&gt;yes&lt;/b&gt;" in b_page and "<b>yes</b>" not in b_page, "press text is escaped"
    assert "Shall we share the north?" in page(client, link["A"])
    assert "Shall we share the north?" not in page(client, link["C"])
    [mail] = press_mails(app)
    assert mail.to_addr == "b@example.org" and mail.seat == "B" and "Shall we share the north?" in mail.text
    assert "press from A" in mail.subject


def test_a_message_to_everyone_reaches_every_other_seat_and_marking_read_clears_unread(app, client, runner):
    made = create(runner)
    link = links(made)
    assert write(client, link["C"], "Peace to all.").status_code == 303
    assert [m.to_addr for m in press_mails(app)] == ["a@example.org", "b@example.org"]
    html = page(client, link["A"])
    assert "Peace to all." in html and "1 unread" in html
    resp = client.post(f"{link['A']}/press/read", data={"csrf_token": csrf_of(html)})
    assert resp.status_code == 303
    assert "unread message" not in page(client, link["A"])
    assert "1 unread" in page(client, link["B"])


def test_size_and_rate_limits_refuse_and_store_nothing(app, client, runner):
    made = create(runner)
    link = links(made)
    app.config["PRESS_MAX_CHARS"] = 50
    resp = write(client, link["A"], "x" * 51)
    assert resp.status_code == 422 and "at most 50 characters" in resp.get_data(as_text=True)
    assert write(client, link["A"], "   ").status_code == 422
    app.config["PRESS_PER_HOUR"] = 2
    assert write(client, link["A"], "one").status_code == 303
    assert write(client, link["A"], "two").status_code == 303
    resp = write(client, link["A"], "three")
    assert resp.status_code == 422 and "wait a little" in resp.get_data(as_text=True)
    assert [p.text for p in stored(app)] == ["one", "two"]


def test_forged_posts_and_unknown_recipients_are_refused(app, client, runner):
    made = create(runner)
    link = links(made)
    assert client.post(f"{link['A']}/press", data={"csrf_token": "1.bad", "text": "hi"}).status_code == 403
    resp = write(client, link["A"], "hi", to=["Z"])
    assert resp.status_code == 422 and "not a seat of this game" in resp.get_data(as_text=True)
    assert stored(app) == []


def test_the_gm_sets_full_public_or_no_press(app, client, runner):
    made = create(runner)
    link = links(made)
    gm = path_of(made["gm_link"])
    gm_page = client.get(gm).get_data(as_text=True)
    assert "full press" in gm_page
    form = {"csrf_token": csrf_of(gm_page), "action": "press"}
    assert client.post(gm, data={**form, "press": "public"}).status_code == 303
    resp = write(client, link["A"], "secret deal", to=["B"])
    assert resp.status_code == 422 and "public only" in resp.get_data(as_text=True)
    assert write(client, link["A"], "open letter").status_code == 303
    client.post(gm, data={"csrf_token": csrf_of(gm_page), "action": "press", "press": "none"})
    a_page = page(client, link["A"])
    assert "played without press" in a_page and 'action="' + link["A"] + '/press"' not in a_page
    assert write(client, link["A"], "anyone?").status_code == 422
    assert client.post(gm, data={"csrf_token": csrf_of(gm_page), "action": "press",
                                 "press": "bogus"}).status_code == 422
    assert [p.text for p in stored(app)] == ["open letter"]
    assert "The GM set this game&#39;s press: no press (gunboat)." in page(client, link["B"])


def test_the_rules_may_forbid_press_in_a_phase(app, client, runner):
    made = create(runner)
    link = links(made)
    with write_session(get_engine(app)) as s:  # round 2 of the trio: no press
        game = s.get(Game, made["game"])
        game.state = {**game.state, "round": 2}
        s.add(game)
    resp = write(client, link["A"], "psst", to=["B"])
    assert resp.status_code == 422 and "no press in this phase" in resp.get_data(as_text=True)


def test_press_mail_follows_the_recipients_settings(app, client, runner):
    made = create(runner)
    link = links(made)
    with write_session(get_engine(app)) as s:
        for p in s.exec(select(Player)).all():
            p.digest = p.email == "b@example.org"
            p.optional_mail = p.email != "c@example.org"
            s.add(p)
    write(client, link["A"], "hello all")
    mails = {m.to_addr: m.status for m in press_mails(app)}
    assert mails == {"b@example.org": "digest"}, "B gets it in the digest, C (no news mail) on the page only"
    assert "hello all" in page(client, link["C"])
    from jobs.reminders import send_digests

    assert send_digests(app) == 1
    [digest] = [m for m in _all_mails(app) if m.kind.startswith("digest-")]
    assert digest.to_addr == "b@example.org" and "hello all" in digest.text and "press from A" in digest.text


def _mail_to(app, game_id, seat_id, body, msgid):
    with app.app_context():
        addr = seat_reply_address(seat(app, game_id, seat_id))
        msg = reply(addr, body, msgid=msgid)
        return handle_message(msg.as_bytes(), rcpt_tos=[addr])


def test_the_turn_mail_tells_how_to_write_press_unless_the_game_has_none(app, client, runner):
    made = create(runner)
    gm = path_of(made["gm_link"])
    start = [m for m in _all_mails(app) if m.kind == "start"][0]
    assert "PRESS TO" in start.text
    html = client.get(gm).get_data(as_text=True)
    client.post(gm, data={"csrf_token": csrf_of(html), "action": "press", "press": "none"})
    link = links(made)
    for name in "ABC":
        html = page(client, link[name])
        client.post(link[name], data={"csrf_token": csrf_of(html), "step_no": "1", "form_index": "0", "n": "1"})
    from app.mailjobs import build_pending

    with app.app_context():
        build_pending(get_engine(app))
    turn = [m for m in _all_mails(app) if m.kind == "turn" and m.seat == "A"]
    assert turn and "PRESS TO" not in turn[0].text


def test_press_by_mail_with_a_press_to_first_line(app, client, runner):
    made = create(runner)
    link = links(made)
    result = _mail_to(app, made["game"], "A", "PRESS TO c\nMeet me at the river.\n\n-- \nAlice", "<p1@x>")
    assert result.status == "press"
    [row] = stored(app)
    assert row.to == ["C"] and row.text == "Meet me at the river." and row.source == "mail"
    assert "Meet me at the river." in page(client, link["C"])
    assert "Meet me at the river." not in page(client, link["B"])
    answer = [m for m in _all_mails(app) if m.kind.startswith("reply-")][-1]
    assert answer.to_addr == "a@example.org" and "press sent" in answer.subject
    bad = _mail_to(app, made["game"], "A", "PRESS TO Atlantis\nhello", "<p2@x>")
    assert bad.status == "rejected" and len(stored(app)) == 1
    answer = [m for m in _all_mails(app) if m.kind.startswith("reply-")][-1]
    assert "Atlantis is not a seat of this game" in answer.text and "PRESS TO" in answer.text
    assert _mail_to(app, made["game"], "B", "press to a; c\nhi both", "<p4@x>").status == "press"
    assert stored(app)[-1].to is None, "every other seat is everyone"
    assert _mail_to(app, made["game"], "B", "PICK 2", "<p3@x>").status == "accepted", "orders still work"


def test_press_by_mail_to_the_press_address_answers_the_sender(app, client, runner):
    made = create(runner)
    link = links(made)
    write(client, link["A"], "Alliance?", to=["B"])
    [note] = press_mails(app)
    with app.app_context(), Session(get_engine(app)) as s:
        from app.mail import build_message

        built = build_message(s, s.get(OutboxMail, note.id), with_pdf=False)
        press_addr = built["Reply-To"]
    assert ".press." not in press_addr and "+press." in press_addr
    with app.app_context():
        answer = reply(press_addr, "Yes, gladly.\n\n> Alliance?", msgid="<b1@x>", in_reply_to=built["Message-ID"])
        assert handle_message(answer.as_bytes(), rcpt_tos=[press_addr]).status == "press"
        assert stored(app)[-1].to == ["A"] and stored(app)[-1].text == "Yes, gladly."
        other = reply(press_addr, "TO C\nAnd you?", msgid="<b2@x>")
        assert handle_message(other.as_bytes(), rcpt_tos=[press_addr]).status == "press"
        assert stored(app)[-1].to == ["C"]
        honest = reply(press_addr, "To be honest, I hesitate.", msgid="<b4@x>", in_reply_to=built["Message-ID"])
        assert handle_message(honest.as_bytes(), rcpt_tos=[press_addr]).status == "press"
        assert stored(app)[-1].to == ["A"] and stored(app)[-1].text == "To be honest, I hesitate."
        lost = reply(press_addr, "Hello?", msgid="<b3@x>")
        assert handle_message(lost.as_bytes(), rcpt_tos=[press_addr]).status == "rejected"
    assert "Yes, gladly." in page(client, link["A"]) and "Yes, gladly." not in page(client, link["C"])


def _all_mails(app):
    with Session(get_engine(app)) as s:
        return list(s.exec(select(OutboxMail).order_by(OutboxMail.id)).all())


def test_a_replaced_sender_loses_access(app, client, runner):
    made = create(runner)
    link = links(made)
    write(client, link["A"], "only for B", to=["B"])
    old_addr = None
    with app.app_context():
        old_addr = seat_reply_address(seat(app, made["game"], "A"))
    with app.app_context(), write_session(get_engine(app)) as s:
        from app.models import utcnow

        replace_player(s, s.get(Game, made["game"]), "A", "d@example.org", utcnow())
    assert client.get(link["A"]).status_code == 404
    with app.app_context():
        msg = reply(old_addr, "PRESS TO B\nstill here?", msgid="<old@x>")
        assert handle_message(msg.as_bytes(), rcpt_tos=[old_addr]).status == "unknown"
    assert len(stored(app)) == 1
    with app.app_context():
        from app.links import seat_link

        new_link = path_of(seat_link(seat(app, made["game"], "A")))
    assert "only for B" not in page(client, new_link), "the old player's messages stay the old player's"
    assert "only for B" in page(client, link["B"])


def test_press_is_kept_exported_per_seat_and_in_the_final_report(app, client, runner):
    made = create(runner, "toy3", ("a@example.org", "b@example.org", "c@example.org"), "--option", "rounds=1")
    link = links(made)
    write(client, link["A"], "A to B", to=["B"])
    write(client, link["C"], "C to all <i>x</i>")
    for s in ("A", "B", "C"):
        html = page(client, link[s])
        client.post(link[s], data={"csrf_token": csrf_of(html), "step_no": "1", "form_index": "0", "n": "2"})
    with Session(get_engine(app)) as s:
        assert s.get(Game, made["game"]).status == "finished"
    data = client.get(f"{link['C']}/export.json").get_json()
    assert [m["text"] for m in data["press"]] == ["C to all <i>x</i>"] and data["seed"]
    data = client.get(f"{link['B']}/export.json").get_json()
    assert [m["text"] for m in data["press"]] == ["A to B", "C to all <i>x</i>"]
    assert "press" not in client.get(f"/g/{made['game']}/export.json").get_json()
    from app.models import Report

    with Session(get_engine(app)) as s:
        end = {r.seat: r.context for r in s.exec(select(Report).where(Report.game_id == made["game"])).all()
               if r.context.get("outcome")}
    assert [m["text"] for m in end["C"]["press"]] == ["C to all <i>x</i>"]
    assert [m["text"] for m in end["A"]["press"]] == ["A to B", "C to all <i>x</i>"]
    from tests.reliability.leakscan import pdf_channels

    pdf = client.get(f"{link['B']}/report.pdf")
    assert pdf.status_code == 200
    text = " ".join(pdf_channels(pdf.get_data()).values())
    assert "Appendix: press" in text and "A to B" in text and "C to all <i>x</i>" in text, "escaped, shown as written"
    text_c = " ".join(pdf_channels(client.get(f"{link['C']}/report.pdf").get_data()).values())
    assert "C to all" in text_c and "A to B" not in text_c
