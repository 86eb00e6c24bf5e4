"""An invitation link's ``?lang=`` sets the player's language for every later page, mail and PDF."""

from __future__ import annotations

from sqlmodel import Session, select

from app.db import get_engine
from app.games import get_rules
from app.games.base import step_rng
from app.links import prefs_link
from app.mail import build_message
from app.models import OutboxMail, Player
from tests.platform.helpers import create_game, csrf_of, game_row, path_of, step_of


def _language(app, email):
    with Session(get_engine(app)) as s:
        return s.exec(select(Player).where(Player.email == email)).one().language


def test_a_link_with_lang_sets_the_players_language_for_later_pages_and_mails(app, client, runner):
    made = create_game(runner, "dual_powers", ("ana@example.org", "rui@example.org"))
    link = path_of(made["seats"][0]["link"])
    assert 'lang="pt"' in client.get(link + "?lang=pt").get_data(as_text=True)
    assert _language(app, "ana@example.org") == "pt"
    later = client.get(link).get_data(as_text=True)
    assert 'lang="pt"' in later
    history = client.get(link + "/history").get_data(as_text=True)
    assert 'lang="pt"' in history
    pause = client.get(link + "/pause")
    assert pause.status_code != 200 or 'lang="pt"' in pause.get_data(as_text=True)
    # the other player is not touched
    assert _language(app, "rui@example.org") in ("", None, "en")
    with app.app_context(), Session(get_engine(app)) as s:
        player = s.exec(select(Player).where(Player.email == "ana@example.org")).one()
        assert 'lang="pt"' in client.get(path_of(prefs_link(player))).get_data(as_text=True)
    # the turn mail made after it is in Portuguese: both seats order, the step resolves
    rules = get_rules("dual_powers")
    for seat in made["seats"]:
        game = game_row(app, made["game"])
        html = client.get(path_of(seat["link"])).get_data(as_text=True)
        order = rules.random_order(game.state, seat["seat"], step_rng("t", game.step_no, seat["seat"]))
        client.post(path_of(seat["link"]), data={"csrf_token": csrf_of(html), "step_no": step_of(html),
                                                  "notation": rules.format(order)})
    with app.app_context(), Session(get_engine(app)) as s:
        rows = s.exec(select(OutboxMail).where(OutboxMail.to_addr == "ana@example.org")
                      .order_by(OutboxMail.id.desc())).all()
        msg = build_message(s, rows[0], with_pdf=False)
    assert "relatório" in str(msg["Subject"]) + msg.get_body(("plain",)).get_content()


def test_a_bad_link_page_follows_the_last_chosen_language(app, client, runner):
    made = create_game(runner, "dual_powers", ("ana@example.org", "rui@example.org"))
    client.get(path_of(made["seats"][0]["link"]) + "?lang=el")
    missing = client.get("/p/" + "x" * 43)
    assert missing.status_code in (403, 404)
    assert 'lang="el"' in missing.get_data(as_text=True)


def test_a_language_we_do_not_speak_changes_nothing(app, client, runner):
    made = create_game(runner, "dual_powers", ("ana@example.org", "rui@example.org"))
    client.get(path_of(made["seats"][0]["link"]) + "?lang=de")
    assert _language(app, "ana@example.org") in ("", None, "en")



def test_a_head_request_with_a_language_changes_nothing(app, client, runner):
    """A link checker's HEAD keeps nothing; only a player's GET does."""
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    before = _language(app, "a@example.org")
    assert client.head(link + "?lang=el").status_code == 200
    assert _language(app, "a@example.org") == before != "el"
    client.get(link + "?lang=el")
    assert _language(app, "a@example.org") == "el"
