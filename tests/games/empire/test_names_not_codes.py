"""Empire speaks of offers, pacts, troops, cards and objectives by name, never by the rulebook's codes
(``B-O1``, ``R-PACT``, ``G-S2``, ``S05``, ``O3``, ``E413``), in the log, the forms, the mails and the PDF
reports, in English, Portuguese and Greek. The codes stay in the order notation only (its examples in
the mail and on the page)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess

import pytest

from app.games.base import bot_order, step_rng
from app.games.empire import RULES
from app.i18n.gametext import render

CODE = re.compile(r"\b(?:[BGYR]-(?:[SH][0-9]+|O[0-9]|PACT)|E[0-9]{3}|S[0-9]{2}(?:-[0-9]+)?|O[1-8]"
                  r"|GOLD|WOOD|STONE|IRON|FOOD|POP|ATTACK|DEFENCE|CONQUEST)\b")
#: a line that shows the notation (an example order): the only place the codes belong
NOTATION = re.compile(r"\b(?:PROPOSE|ANSWER|ADMIN|LOSE|ROUTE|PAY):")
LANGS = ("en", "pt", "el")


def _codes(text: str) -> list[str]:
    return [m.group(0) for line in text.splitlines() if not NOTATION.search(line) for m in CODE.finditer(line)]


def _texts(prompt: dict) -> list:
    """Every text of a prompt a player reads: title, text, forms' labels, fields' labels and choices."""
    out = [prompt.get("title"), prompt.get("text")]
    for form in prompt.get("forms") or []:
        out.append(form.get("label"))
        for field in form.get("fields") or []:
            out.append(field.get("label"))
            out += [c.get("label") for c in field.get("choices") or []]
    return [t for t in out if t]


def _bot_game(players: int, seed: int) -> tuple[list, list]:
    """A whole game played by bots: its events and the prompts of every step."""
    opts = RULES.check_options({"players": players})
    state = RULES.setup(opts, RULES.seats(opts), random.Random(seed))
    events: list = []
    prompts: list = []
    for step in range(200):
        if RULES.outcome(state) is not None:
            break
        owed = RULES.owed(state)
        prompts += owed.values()
        orders = {s: bot_order(RULES, state, s, step_rng(str(seed), step, s)) for s in owed}
        state, new = RULES.resolve(state, orders, step_rng(str(seed), step))
        events += new
    assert RULES.outcome(state) is not None, "the bots finish a game"
    return events, prompts


@pytest.mark.parametrize(("players", "seed"), [(4, 2), (3, 2), (2, 3)])
def test_a_whole_bot_game_is_told_without_codes_in_every_language(players, seed):
    events, prompts = _bot_game(players, seed)
    told = [e["text"] for e in events] + [t for p in prompts for t in _texts(p)]
    kinds = {e["text"]["msg"] for e in events}
    assert {"event.offer_all", "event.attack"} <= kinds | {"event.attack_mods"}, kinds
    assert players == 2 or "event.pact_proposed" in kinds, kinds
    for lang in LANGS:
        text = "\n".join(render("empire", t, lang) for t in told)
        assert not _codes(text), (lang, sorted(set(_codes(text)))[:10])
    english = "\n".join(render("empire", t, "en") for t in told)
    assert re.search(r"(BLUE|GREEN|YELLOW|RED)'s offer \(\d+ \w+ for \d+ \w+\)", english)
    assert re.search(r"(Blue|Green|Yellow|Red) (heavy )?troop \d+ attacks", english)


def test_refusals_name_the_offer_pact_and_troop_in_words():
    st = RULES.setup(RULES.check_options({"players": 4}), RULES.seats(RULES.check_options({"players": 4})),
                     random.Random(4))
    st, _ = RULES.resolve(st, {s: RULES.parse("OFFER GIVE 1 FOOD GET 1 WOOD") for s in RULES.owed(st)},
                          random.Random(1))
    seat = next(iter(RULES.owed(st)))
    mine = RULES.view(st, seat)["private"]["colour"][0]
    with pytest.raises(Exception) as refused:
        RULES.validate(st, seat, RULES.parse(f"ACCEPT OFFER {mine}-O1; DECLINE PACT {mine}-PACT"))
    for lang in LANGS:
        said = render("empire", refused.value.message, lang)
        assert not _codes(said), (lang, said)
    said = render("empire", refused.value.message, "en")
    assert "Offer 1 from" in said and "proposed no pact to you" in said, said


def _pdf_text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)")
def test_the_log_mails_and_reports_of_a_whole_game_show_no_codes(app, client, runner):
    pytest.importorskip("flask")
    from sqlmodel import Session, select

    from app.db import get_engine, write_session
    from app.mail import build_message
    from app.models import OutboxMail
    from app.turns import get_or_create_player
    from tests.platform.helpers import create_game, csrf_of, game_row, path_of, step_of

    emails = tuple(f"{lang}@example.org" for lang in LANGS)
    with app.app_context(), write_session(get_engine(app)) as session:
        for email in emails:
            get_or_create_player(session, email).language = email[:2]
    made = create_game(runner, "empire", emails, "--bot", "--option", "players=4", "--option", "round_limit=2")
    links = {s["seat"]: s["link"] for s in made["seats"] if s.get("email")}
    logs = {seat: "" for seat in links}

    def page(seat: str) -> str:  # the seat's page; its log (the latest events) is read on the way
        html = client.get(path_of(links[seat])).get_data(as_text=True)
        log = re.sub(r"<[^>]+>", " ", html.split('id="log"')[-1])
        assert not _codes(log), (seat, sorted(set(_codes(log))))
        logs[seat] += log
        return html

    for _ in range(40):  # each human seat plays the bot's order, typed as notation
        game = game_row(app, made["game"])
        if game.status != "running":
            break
        for seat, prompt in game.owed.items():
            if seat in links:
                order = RULES.ai_order(RULES.view(game.state, seat), prompt, step_rng("t", game.step_no, seat))
                html = page(seat)
                sent = client.post(path_of(links[seat]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                               "notation": RULES.format(order)})
                assert sent.status_code == 303, sent.get_data(as_text=True)[:2000]
    assert game_row(app, made["game"]).status == "finished"
    for seat in links:
        page(seat)
    named = {"en": r"(Blue|Green|Yellow|Red) troop \d", "pt": r"tropa (azul|verde|amarela|vermelha) \d",
             "el": r"(μπλε|πράσινο|κίτρινο|κόκκινο) στράτευμα \d"}  # the troops' positions, every round
    for seat, email in zip(sorted(links), emails, strict=True):
        assert re.search(named[email[:2]], logs[seat]), (email, logs[seat][:3000])
    with app.app_context(), Session(get_engine(app)) as session:
        mails = session.exec(select(OutboxMail).where(OutboxMail.game_id == made["game"])
                             .order_by(OutboxMail.id)).all()
        assert len(mails) >= 3 * 6
        for mail in mails:
            assert not _codes(mail.text), (mail.to_addr, sorted(set(_codes(mail.text))))
        # a report in each language, from different steps (the map, the tables, the log since the last one)
        for mail in mails[len(mails) // 2 - 1:len(mails) // 2 + 2] + mails[-3:]:
            pdf = next(p.get_content() for p in build_message(session, mail).iter_attachments()
                       if p.get_content_type() == "application/pdf")
            text = _pdf_text(pdf)
            assert not _codes(text), (mail.to_addr, sorted(set(_codes(text))))
