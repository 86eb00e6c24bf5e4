"""E-mail addresses: one person is one player whatever the case, holds one seat of a game, and a GM's
home lists what needs them first.

``Ann@Example.org`` and ``ann@example.org`` are the same mailbox: one player, one home
page, found by "resend my link" either way, and never two seats of one game (two seats'
secrets to one person).  Game creation refuses what is not an address.
"""

from __future__ import annotations

import re

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.kinds import GameStatus
from app.models import Game, OutboxMail, Player
from tests.platform.helpers import create_game, path_of


def _create(runner, *players: str, extra: tuple[str, ...] = ()):
    args = ["game", "create", "toy"]
    for p in players:
        args += ["--player", p]
    return runner.invoke(args=args + list(extra))


def test_one_address_in_two_seats_or_a_non_address_is_refused_and_creates_nothing(app, runner):
    for players, why in ((("ann@example.org", "Ann@Example.ORG"), "is given for two seats"),
                         (("bob", "ann@example.org"), "is not an e-mail address"),
                         (("ann@example.org", "<x>@example.org"), "is not an e-mail address")):
        result = _create(runner, *players)
        assert result.exit_code != 0 and why in result.output, (players, result.output)
    result = _create(runner, "ann@example.org", "b@example.org", extra=("--gm", "not-an-address"))
    assert result.exit_code != 0 and "is not an e-mail address" in result.output
    with Session(get_engine(app)) as s:
        assert s.exec(select(Game)).all() == [] and s.exec(select(OutboxMail)).all() == []


def test_an_address_in_another_case_is_the_same_player_and_gets_its_link_resent(app, client, runner):
    first = create_game(runner, "toy", ("Ann@Example.org", "b@example.org"), "--gm", "GM@Example.org")
    second = create_game(runner, "toy", ("ann@example.org", "c@example.org"), "--gm", "gm@example.org")
    with Session(get_engine(app)) as s:
        assert [p.email for p in s.exec(select(Player).where(Player.email.like("%nn@%")))] == ["ann@example.org"]
    assert first["gm_home"] == second["gm_home"], "one GM, one home page listing both games"
    home = client.get(path_of(first["gm_home"])).get_data(as_text=True)
    assert f"#{first['game']}<" in home and f"#{second['game']}<" in home
    before = len(_mails_to(app, "ann@example.org"))
    resp = client.post("/resend", data={"email": "ANN@example.ORG"})
    assert resp.status_code == 200
    assert len(_mails_to(app, "ann@example.org")) == before + 2, "a link for each of Ann's two seats"


def _mails_to(app, address: str) -> list[OutboxMail]:
    with Session(get_engine(app)) as s:
        return list(s.exec(select(OutboxMail).where(OutboxMail.to_addr == address)).all())


def test_a_gms_home_lists_games_needing_them_first_and_finished_ones_last(app, client, runner):
    made = [create_game(runner, "toy", (f"a{i}@example.org", f"b{i}@example.org"), "--gm", "gm@example.org")
            for i in range(4)]
    status = [GameStatus.FINISHED, GameStatus.RUNNING, GameStatus.PAUSED, GameStatus.CRASHED]
    with write_session(get_engine(app)) as s:
        for m, st in zip(made, status, strict=True):
            game = s.get(Game, m["game"])
            game.status = st
            s.add(game)
    home = client.get(path_of(made[0]["gm_home"])).get_data(as_text=True)
    section = home.split("Games you run as GM", 1)[1].split("</table>", 1)[0]
    listed = [int(n) for n in re.findall(r">[^<#]*#(\d+)</a>", section)]
    assert listed == [made[3]["game"], made[1]["game"], made[2]["game"], made[0]["game"]]

