"""Answers to orders sent by mail come in the player's language (Portuguese, Greek).

The orders go through the real SMTP receiver and the answers through ``mail
deliver`` to the SMTP sink, as in ``test_inbound``; the game's own words in them
(the prompt title, the game's reason for refusing an order) are translated too,
the quoted order and the links are not.
"""

from __future__ import annotations

import re

import pytest

from app.db import get_engine, write_session
from app.i18n.gametext import render
from app.turns import get_or_create_player
from tests.mail.helpers import (
    create_game,
    deliver,
    game_row,
    inbound,
    orders,
    outbox,
    reply,
    reply_addr,
    send,
    set_aside_turn_mails,
)

GREEK = re.compile(r"[\u0370-\u03ff]")

#: (subject, a phrase of the body) of each answer, per language
EXPECT = {
    "pt": {
        "accepted": ("ordem recebida para o passo 1", "está registada para o passo 1"),
        "rejected": ("ordem NÃO aceite", "foi lido, mas nenhuma ordem foi registada"),
        "problem": "Problema: Ordem desconhecida: “FOO”; use OBJECTIVE, PLAY, PLACE ou UNREST.",
        "footer": "É uma resposta automática",
    },
    "el": {
        "accepted": ("η εντολή για το βήμα 1 ελήφθη", "καταχωρήθηκε για το βήμα 1"),
        "rejected": ("η εντολή ΔΕΝ έγινε δεκτή", "διαβάστηκε, αλλά δεν καταχωρήθηκε καμία εντολή"),
        "problem": "Πρόβλημα: Άγνωστη εντολή: “FOO”· χρησιμοποιήστε OBJECTIVE, PLAY, PLACE ή UNREST.",
        "footer": "Είναι αυτόματη απάντηση",
    },
}

#: sentences of the English answers that must not be left in a translated one
ENGLISH = [
    "order received", "NOT accepted", "is on file for step", "Your order for", "Your mail for",
    "You can change it until the deadline", "the last order received counts", "Your page:",
    "was read, but no order was stored", "Problem:", "Unknown order", "You owe:", "Deadline:",
    "Write one order in the game's notation", "Send it to your order address", "or use your personal page",
    "This answers a mail from", "It is an automatic answer",
]


def _players_in(app, lang: str) -> tuple[str, str]:
    emails = (f"sov-{lang}@example.org", f"gov-{lang}@example.org")
    with app.app_context(), write_session(get_engine(app)) as session:
        for email in emails:
            player = get_or_create_player(session, email)
            player.language = lang
            session.add(player)
    return emails


def _body(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def _no_english(text: str) -> None:
    left = [sentence for sentence in ENGLISH if sentence in text]
    assert not left, f"English left in the answer: {left}\n{text}"


@pytest.mark.parametrize("lang", ["pt", "el"])
def test_confirmation_and_rejection_by_mail_in_the_players_language(smtp_app, receiver, runner, smtp, lang):
    sov, _gov = _players_in(smtp_app, lang)
    made = create_game(runner, "dual_powers", (sov, _gov))
    set_aside_turn_mails(smtp_app)
    game = game_row(smtp_app, made["game"])
    prompt = game.owed["SOV"]
    title = render("dual_powers", prompt["title"], lang)
    assert title != render("dual_powers", prompt["title"], "en"), "the prompt title has a translation"
    addr = reply_addr(smtp_app, made["game"], "SOV")
    words = EXPECT[lang]

    send(receiver.port, reply(addr, "FOO\n", sender=sov, msgid="<bad@client.example>"), mail_from=sov)
    assert orders(smtp_app, made["game"], "mail") == []
    send(receiver.port, reply(addr, f"{prompt['example']}\n", sender=sov, msgid="<good@client.example>"),
         mail_from=sov)
    assert [o.text for o in orders(smtp_app, made["game"], "mail")] == [prompt["example"]]
    assert [m.status for m in inbound(smtp_app)] == ["rejected", "accepted"]
    rejected, accepted = outbox(smtp_app)
    assert "%%ORDER_LINK%%" in rejected.text and "%%ORDER_LINK%%" in accepted.text

    assert deliver(runner)["sent"] == 2
    answers = {m["msg"]["Subject"]: m for m in smtp.sink.messages if "reply-" in m["msg"]["Message-ID"]}
    assert len(answers) == 2 and all(m["to"] == [sov] for m in answers.values())
    [bad_subject] = [s for s in answers if words["rejected"][0] in s]
    [good_subject] = [s for s in answers if words["accepted"][0] in s]
    assert bad_subject.startswith(f"[{render('dual_powers', {'msg': 'title'}, lang)} #{game.id}] "
                                  f"{render('dual_powers', {'msg': 'seat.SOV'}, lang)}: ")

    bad = _body(answers[bad_subject]["msg"])
    assert words["rejected"][1] in bad
    assert words["problem"] in bad
    assert "> FOO" in bad, "the order is quoted as sent"
    assert title in bad, "the prompt title in the player's language"
    assert f"    {prompt['example']}" in bad and addr in bad
    assert "https://pbem.example.org/p/" in bad, "the link placeholder was filled in"
    assert words["footer"] in bad and sov in bad
    _no_english(bad_subject + "\n" + bad)

    good = _body(answers[good_subject]["msg"])
    assert words["accepted"][1] in good and title in good
    assert f"> {prompt['example']}" in good
    assert "https://pbem.example.org/p/" in good
    _no_english(good_subject + "\n" + good)
    if lang == "el":
        assert GREEK.search(good_subject) and GREEK.search(bad_subject)


def test_an_order_to_a_finished_game_is_answered_in_the_players_language(smtp_app, receiver, runner):
    a, b = _players_in(smtp_app, "pt")
    made = create_game(runner, "toy", (a, b), "--option", "rounds=1")
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), "PICK 1", sender=a, msgid="<f1@x>"))
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "B"), "PICK 1", sender=b, msgid="<f2@x>"))
    assert game_row(smtp_app, made["game"]).status == "finished"
    send(receiver.port, reply(reply_addr(smtp_app, made["game"], "A"), "PICK 2", sender=a, msgid="<f3@x>"))
    closed = outbox(smtp_app)[-1]
    assert closed.subject.endswith(": nenhuma ordem registada")
    assert "nenhuma ordem foi registada: o jogo terminou." in closed.text
    assert "> PICK 2" in closed.text and "A sua página: %%ORDER_LINK%%" in closed.text
    _no_english(closed.subject + "\n" + closed.text)
