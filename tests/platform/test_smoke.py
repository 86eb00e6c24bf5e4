from tests.platform.helpers import create_game, game_row, mails, path_of, post_form


def test_create_submit_resolve(app, client, runner):
    made = create_game(runner)
    assert made["game"] and len(made["seats"]) == 2
    a, b = made["seats"]
    assert a["link"].startswith("https://pbem.example.org/p/")
    assert len(mails(app, kind="start")) == 2
    page = client.get(path_of(a["link"]))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Pick a number for round 1" in html
    r = post_form(client, a["link"], {"n": "3"})
    assert r.status_code == 303, r.get_data(as_text=True)
    assert game_row(app, made["game"]).step_no == 1
    r = post_form(client, b["link"], {"n": "2"})
    assert r.status_code == 303
    assert game_row(app, made["game"]).step_no == 2
    assert len(mails(app, kind="turn")) == 2
