"""The features behind B26 and the input limits: replay verdicts, exports, order receipts, size limits."""

from __future__ import annotations

import hashlib
import json
import re

from sqlmodel import Session, select

from app.db import get_engine, write_session
from app.models import Order, Step
from app.verify import canonical_json, order_nonce, receipt_of
from tests.platform.helpers import create_game, game_row, path_of, post_form


def _finish_toy(client, runner, picks=(3, 1, 2)):
    made = create_game(runner)
    a, b = made["seats"]
    for n in picks:
        assert post_form(client, a["link"], {"n": str(n)}).status_code == 303
        assert post_form(client, b["link"], {"n": "2"}).status_code == 303
    return made


def test_receipt_is_shown_on_submit_and_checkable_after_the_end(app, client, runner):
    """Order receipts: shown on submit and on the history page; at the end the nonces are published and every hash
    checks."""
    made = create_game(runner)
    a, b = made["seats"]
    first = post_form(client, a["link"], {"n": "3"})
    page = client.get(first.headers["Location"]).get_data(as_text=True)
    shown = re.search(r"Receipt: ([0-9a-f]{64})", page).group(1)
    second = post_form(client, a["link"], {"n": "1"})
    page2 = client.get(second.headers["Location"]).get_data(as_text=True)
    counting = re.search(r"Receipt: ([0-9a-f]{64})", page2).group(1)
    assert counting != shown
    on_file = re.search(r'id="on-file".*?<code>([^<]*)</code>.*?class="receipt">([0-9a-f]{64})', page2, re.S)
    assert on_file.group(1) == "PICK 1" and on_file.group(2) == counting, "the page says which order counts"
    history = client.get(path_of(a["link"]) + "/history").get_data(as_text=True)
    assert shown in history and counting in history and "replaced" in history
    verify_running = client.get(f"/g/{made['game']}/verify").get_data(as_text=True)
    assert made["seed_hash"] in verify_running and counting not in verify_running
    post_form(client, b["link"], {"n": "2"})
    for _ in range(2):
        post_form(client, a["link"], {"n": "2"})
        post_form(client, b["link"], {"n": "2"})
    assert game_row(app, made["game"]).status == "finished"
    export = json.loads(client.get(f"/g/{made['game']}/export.json").data)
    rows = {r["receipt"]: r for r in export["receipts"]}
    assert shown in rows and counting in rows
    for r in export["receipts"]:
        assert hashlib.sha256((canonical_json(r["order"]) + r["nonce"]).encode()).hexdigest() == r["receipt"]
    assert rows[counting]["canonical"] == '{"n":1,"type":"PICK"}'
    verify = client.get(f"/g/{made['game']}/verify").get_data(as_text=True)
    assert "every step confirmed" in verify and rows[counting]["nonce"] in verify
    assert "secret objective" in verify, "the page says why orders are revealed only at the end"


def test_nonce_depends_on_the_key_and_the_order():
    assert order_nonce("k1", 5) != order_nonce("k2", 5) != order_nonce("k1", 6)
    assert receipt_of({"a": 1, "b": 2}, "n") == receipt_of({"b": 2, "a": 1}, "n")
    assert receipt_of({"a": 1}, "n") != receipt_of({"a": 2}, "n")


def test_verify_command_checks_the_database_and_an_exported_file(app, client, runner, tmp_path):
    """`flask --app app verify GAME_ID` and `--file export.json`: OK on a true game, exit 1 on a tampered one."""
    made = _finish_toy(client, runner)
    ok = runner.invoke(args=["verify", str(made["game"])])
    assert ok.exit_code == 0 and "OK: game" in ok.output
    path = tmp_path / "export.json"
    path.write_bytes(client.get(f"/g/{made['game']}/export.json").data)
    assert runner.invoke(args=["verify", "--file", str(path)]).exit_code == 0
    data = json.loads(path.read_text())
    data["steps"][0]["orders"]["A"]["n"] = 2
    path.write_text(json.dumps(data))
    bad = runner.invoke(args=["verify", "--file", str(path)])
    assert bad.exit_code == 1 and "MISMATCH" in bad.output
    data = json.loads(client.get(f"/g/{made['game']}/export.json").data)
    data["receipts"][0]["order"] = {"type": "PICK", "n": 3 if data["receipts"][0]["order"]["n"] != 3 else 1}
    path.write_text(json.dumps(data))
    assert "receipt does not match" in runner.invoke(args=["verify", "--file", str(path)]).output
    running = create_game(runner)
    out = runner.invoke(args=["verify", str(running["game"])])
    assert out.exit_code == 1 and "not ended" in out.output
    assert client.get(f"/g/{running['game']}/export.json").status_code == 409


def test_verify_page_reports_a_mismatch(app, client, runner):
    made = _finish_toy(client, runner)
    with write_session(get_engine(app)) as s:
        step = s.exec(select(Step).where(Step.game_id == made["game"], Step.step_no == 2)).one()
        step.state = {**step.state, "score": {"A": 99, "B": 0}}
        s.add(step)
    from app.web import verify as verify_view

    verify_view._verdicts.clear()
    page = client.get(f"/g/{made['game']}/verify").get_data(as_text=True)
    assert "mismatch" in page and "step 2" in page


def test_request_and_field_size_limits_answer_with_clear_pages(app, client, runner):
    """Input limits: request size limit and field length limits give clear pages, store nothing."""
    made = create_game(runner)
    link = path_of(made["seats"][0]["link"])
    page = client.get(link).get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    big = client.post(link, data={"csrf_token": csrf, "step_no": "1", "notation": "x" * 300_000})
    assert big.status_code == 413 and "too large" in big.get_data(as_text=True)
    long = client.post(link, data={"csrf_token": csrf, "step_no": "1", "notation": "PICK 1" + " " * 5000})
    assert long.status_code == 422 and "too long" in long.get_data(as_text=True)
    field = client.post(link, data={"csrf_token": csrf, "step_no": "1", "form_index": "0", "n": "1" * 5000})
    assert field.status_code == 422 and "too long" in field.get_data(as_text=True)
    with Session(get_engine(app)) as s:
        assert s.exec(select(Order)).all() == []
