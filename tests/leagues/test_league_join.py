"""Joining a league by its invitation link: only an address its owner confirms joins; names stay private."""

from __future__ import annotations

import json
import re

from sqlalchemy import update
from sqlmodel import Session, select

from app.db import get_engine
from app.models import LeagueMember, Player
from tests.platform.helpers import mails, path_of


def _league(runner) -> dict:
    out = runner.invoke(args=["league", "create", "Winter Cup", "--game", "toy"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _members(app) -> list[str]:
    with Session(get_engine(app)) as s:
        return sorted(s.get(Player, m.player_id).email for m in s.exec(select(LeagueMember)).all())


def _confirm_link(app, address: str) -> str:
    sent = [m for m in mails(app, to_addr=address) if m.kind.startswith("league-join")]
    assert sent, f"no confirmation mail to {address}"
    return path_of(re.search(r"https://\S+/confirm/\S+", sent[-1].text).group(0))


def test_the_invitation_link_joins_only_an_address_its_owner_confirms(app, client, runner):
    join = path_of(_league(runner)["invite"])
    page = client.post(join, data={"email": "Ann@Example.org"})
    assert page.status_code == 200 and "A mail is on its way to ann@example.org" in page.get_data(as_text=True)
    assert _members(app) == [], "asking is not joining: the address must confirm"
    mail = [m for m in mails(app, to_addr="ann@example.org") if m.kind.startswith("league-join")][0]
    assert "Winter Cup" in mail.subject and "ignore this mail" in mail.text
    link = _confirm_link(app, "ann@example.org")
    shown = client.get(link)  # a mail scanner follows the link: that joins nobody
    assert shown.status_code == 200 and "ann@example.org" in shown.get_data(as_text=True)
    assert _members(app) == []
    done = client.post(link)
    assert done.status_code == 303 and done.headers["Location"].endswith("/l/winter-cup?joined=1")
    assert _members(app) == ["ann@example.org"]
    assert client.post(link).status_code == 303 and _members(app) == ["ann@example.org"], "twice is harmless"


def test_a_confirmation_link_cannot_be_bent_to_another_address_or_league(app, client, runner):
    made = _league(runner)
    join = path_of(made["invite"])
    client.post(join, data={"email": "ann@example.org"})
    link = _confirm_link(app, "ann@example.org").split("?")[0]
    code = link.rsplit("/", 1)[1]
    forged = link[: -len(code)] + code[:-3] + ("aaa" if not code.endswith("aaa") else "bbb")
    page = client.post(forged)
    assert page.status_code == 400 and "not valid" in page.get_data(as_text=True)
    other = json.loads(runner.invoke(args=["league", "create", "Summer Cup", "--game", "toy"]).output)
    moved = path_of(other["invite"]) + "/confirm/" + code
    assert client.post(moved).status_code == 400, "a code is for its own league"
    assert _members(app) == []
    assert client.post(join[:-5] + "xxxxx", data={"email": "x@example.org"}).status_code == 404


def test_bad_addresses_are_refused_and_mails_to_one_address_are_capped(app, client, runner):
    join = path_of(_league(runner)["invite"])
    bad = client.post(join, data={"email": "not an address"})
    assert bad.status_code == 422 and "Please enter your e-mail address" in bad.get_data(as_text=True)
    app.config["RATELIMIT_RESEND"] = "100 per hour"
    for _ in range(5):
        assert client.post(join, data={"email": "ann@example.org"}).status_code == 200
    sent = [m for m in mails(app, to_addr="ann@example.org") if m.kind.startswith("league-join")]
    assert len(sent) == app.config["RESEND_PER_DAY"], "a stranger's inbox is not flooded"


def test_the_confirmation_page_and_mail_are_in_the_language_of_the_page(app, client, runner):
    join = path_of(_league(runner)["invite"])
    page = client.post(join + "?lang=el", data={"email": "ann@example.org"}).get_data(as_text=True)
    assert "ann@example.org" in page and "A mail is on its way" not in page
    mail = [m for m in mails(app, to_addr="ann@example.org") if m.kind.startswith("league-join")][0]
    assert "Winter Cup" in mail.text and "ignore this mail" not in mail.text
    assert re.search(r"/confirm/\S+\?lang=el\b", mail.text), "opened on another device, the page is Greek too"


def test_league_pages_never_show_a_players_address_nor_a_part_of_it(app, client, runner):
    made = _league(runner)
    runner.invoke(args=["league", "add", "winter-cup", "ann.smith@example.org", "bob.jones@example.org"])
    with Session(get_engine(app)) as s:  # a name an earlier build took from the address is cleared too
        s.execute(update(Player).where(Player.email == "bob.jones@example.org").values(name="Bobby"))
        s.commit()
    page = client.get("/l/winter-cup").get_data(as_text=True)
    assert "ann.smith" not in page and "Player 1" in page and "Bobby" in page
    standings = json.loads(runner.invoke(args=["league", "standings", "winter-cup"]).output)
    assert sorted((r["player"], r["number"]) for r in standings) == [("", 1), ("Bobby", 2)]
    gm = client.get(path_of(made["gm_link"])).get_data(as_text=True)
    assert "2 members" in gm


def test_a_gm_replaces_a_leaked_invitation_link(app, client, runner):
    made = _league(runner)
    old = path_of(made["invite"])
    client.post(old, data={"email": "ann@example.org"})
    pending = _confirm_link(app, "ann@example.org")
    gm = path_of(made["gm_link"])
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get(gm).get_data(as_text=True)).group(1)
    done = client.post(gm, data={"csrf_token": csrf, "action": "new-invite"})
    assert done.status_code == 303
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "The old one no longer works" in page
    new = path_of(re.search(r"<code>(\S+/join/\S+)</code>", page).group(1))
    assert new != old and client.get(new).status_code == 200
    assert client.get(old).status_code == 404 and client.post(pending).status_code == 404
    assert _members(app) == []
    refused = client.post(gm, data={"csrf_token": csrf, "action": "explode"})
    assert refused.status_code == 422 and "Choose one of the page" in refused.get_data(as_text=True)


def test_the_confirmation_mail_goes_out_as_a_plain_mail_with_its_link(app, client, runner):
    from app.mail import build_message

    join = path_of(_league(runner)["invite"])
    client.post(join, data={"email": "ann@example.org"})
    [row] = [m for m in mails(app, to_addr="ann@example.org") if m.kind.startswith("league-join")]
    with app.app_context(), Session(get_engine(app)) as s:
        msg = build_message(s, s.get(type(row), row.id))
    assert msg["To"] == "ann@example.org" and not list(msg.iter_attachments())
    assert _confirm_link(app, "ann@example.org") in msg.get_content()


def test_a_leagues_gm_moves_a_leaked_gm_page_and_finds_it_on_their_home(app, client, runner):
    from app.links import prefs_link

    out = runner.invoke(args=["league", "create", "Winter Cup", "--game", "toy", "--gm", "Gina@Example.org"])
    made = json.loads(out.output)
    old = path_of(made["gm_link"])
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get(old).get_data(as_text=True)).group(1)
    moved = client.post(old, data={"csrf_token": csrf, "action": "new-gm-link"})
    assert moved.status_code == 303
    new = moved.headers["Location"].split("?")[0]
    assert new != old and "new GM page" in client.get(moved.headers["Location"]).get_data(as_text=True)
    gone = client.get(old)
    assert gone.status_code == 404 and "every game and league you run" in gone.get_data(as_text=True)
    with app.app_context(), Session(get_engine(app)) as s:
        home = path_of(prefs_link(s.exec(select(Player).where(Player.email == "gina@example.org")).one()))
    page = client.get(home).get_data(as_text=True)
    assert "Leagues you run as GM" in page and f'href="https://pbem.example.org{new}"' in page
    assert client.post("/resend", data={"email": "gina@example.org"}).status_code == 200
    assert [m for m in mails(app, to_addr="gina@example.org") if m.kind.startswith("gm-home")], \
        "a league's GM who lost the page gets their home page by mail"
    bad = runner.invoke(args=["league", "create", "Spring Cup", "--game", "toy", "--gm", "not an address"])
    assert bad.exit_code != 0 and "not an e-mail address" in bad.output


def test_a_leagues_address_spells_its_name_in_plain_latin_letters(runner):
    for name, slug in (("Κύπελλο Χειμώνα", "kypello-cheimona"), ("Taça de Inverno", "taca-de-inverno"),
                       ("Straße 2027", "strasse-2027"), ("日本", "league")):
        made = json.loads(runner.invoke(args=["league", "create", name, "--game", "toy"]).output)
        assert made["public"].endswith(f"/l/{slug}"), made["public"]
