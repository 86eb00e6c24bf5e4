"""Scan every channel a seat (or the public) can reach for other seats' private data.

Used by B23-B25 and by ``tests/stress/leak_scan.py``.  Private data comes from
each game's ``secrets(state, seat)``.  A secret only proves something when it
can be seen at all, so each one is first looked for in its owner's own
channels (the positive control); a secret of seat B found in any channel of
seat A, or in a public one, is a leak.  The game's seed must not appear
anywhere before the end.

Press is private data too: at the start every seat writes to the next one a
message with a unique mark, which must show in the sender's and the
recipient's channels (positive control) and in no other seat's or public one.
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, select

from app import press, turns
from app.db import get_engine, write_session
from app.games import IllegalOrder, get_rules
from app.games.base import step_rng
from app.mail import build_message
from app.models import Game, OutboxMail, Report, Seat

#: Options each game is scanned with (a few player counts).
GAME_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "dual_powers": [{}],
    "conquest": [{"players": 2}, {"players": 3}, {"players": 4}],
    "duel": [{}],
    "empire": [{"players": 2}, {"players": 3}, {"players": 4}],
    "toy": [{}],
}


def pattern(secret: str) -> re.Pattern[str]:
    """A secret as a whole word (``C-RED-5`` must not match inside ``C-RED-5B``)."""
    return re.compile(r"(?<![A-Za-z0-9_\-:])" + re.escape(secret) + r"(?![A-Za-z0-9_\-])")


def pdf_channels(data: bytes) -> dict[str, str]:
    """Text, metadata, outline and attachments of a PDF, each as text."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    meta = " ".join(f"{k}={v}" for k, v in (reader.metadata or {}).items())

    def titles(items: Any) -> list[str]:
        out: list[str] = []
        for item in items:
            if isinstance(item, list):
                out += titles(item)
            else:
                out.append(str(getattr(item, "title", item)))
        return out

    outline = " ".join(titles(reader.outline))
    attachments = " ".join(f"{name}:{body!r}" for name, body in reader.attachments.items())
    return {"pdf-text": text, "pdf-meta": meta, "pdf-outline": outline, "pdf-attachments": attachments}


def mail_channels(msg: Any) -> dict[str, str]:
    out = {"mail-headers": "\n".join(f"{k}: {v}" for k, v in msg.items())}
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype in ("text/plain", "text/html"):
            out[f"mail-{ctype}"] = part.get_content()
        elif ctype == "application/pdf":
            for k, v in pdf_channels(part.get_content()).items():
                out[f"mail-{k}"] = v
    return out


@dataclass
class ScanResult:
    games: int = 0
    steps: int = 0
    samples: int = 0
    channels: int = 0
    pdfs: int = 0
    mails: int = 0
    secrets_seen: int = 0  # secrets found in their owner's channels (positive controls)
    secrets_total: int = 0
    leaks: list[str] = field(default_factory=list)

    def add(self, other: ScanResult) -> None:
        for name in ("games", "steps", "samples", "channels", "pdfs", "mails", "secrets_seen", "secrets_total"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.leaks += other.leaks

    def line(self) -> str:
        return (f"games={self.games} steps={self.steps} samples={self.samples} channels={self.channels} "
                f"pdfs={self.pdfs} mails={self.mails} secrets_visible_to_owner={self.secrets_seen}/"
                f"{self.secrets_total} leaks={len(self.leaks)}")


def _seat_channels(app: Any, client: Any, game: Game, seat: Seat, token: str, *, pdf: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    base = f"/p/{token}"
    for name, path in (("page", base), ("history", base + "/history")):
        resp = client.get(path)
        assert resp.status_code == 200, (path, resp.status_code)
        out[name] = resp.get_data(as_text=True)
    page = out["page"]
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    if csrf:
        bad = client.post(base, data={"csrf_token": csrf.group(1), "step_no": str(game.step_no),
                                      "notation": "NOT AN ORDER <x>"})
        out["error-page"] = bad.get_data(as_text=True)
    out["not-found"] = client.get(base + "/nothing-here").get_data(as_text=True)
    home = re.search(r'href="(/me/[A-Za-z0-9_-]+)"', page)  # the player's home, linked from the seat page
    if home:
        out["home"] = client.get(home.group(1)).get_data(as_text=True)
    out.update(_api_seat_channels(client, game, token))
    with app.app_context(), Session(get_engine(app)) as s:
        has_report = s.exec(select(Report.id).where(Report.game_id == game.id, Report.seat == seat.seat)).first()
        mails = s.exec(select(OutboxMail).where(OutboxMail.game_id == game.id, OutboxMail.seat == seat.seat,
                                                OutboxMail.step_no == game.step_no)).all()
        for mail in mails:
            msg = build_message(s, mail, with_pdf=pdf)
            for k, v in mail_channels(msg).items():
                out[f"{k}#{mail.id}"] = v
    if pdf and has_report:
        resp = client.get(base + "/report.pdf")
        assert resp.status_code == 200
        for k, v in pdf_channels(resp.get_data()).items():
            out[k] = v
    return out


def _api_seat_channels(client: Any, game: Game, token: str) -> dict[str, str]:
    """The JSON API as the seat's client reads it: the seat (log since the start, in each language),
    a refused order, a closed step and an unknown path."""
    out: dict[str, str] = {}
    base = f"/api/v1/seat/{token}"
    for name, path in (("api-seat", base + "?since=0"), ("api-seat-pt", base + "?since=0&lang=pt"),
                       ("api-seat-el", base + "?lang=el")):
        resp = client.get(path)
        assert resp.status_code == 200, (path, resp.status_code)
        out[name] = resp.get_data(as_text=True)
    for name, body in (("api-refusal", {"notation": "NOT AN ORDER <x>", "step_no": game.step_no}),
                       ("api-closed", {"notation": "NOT AN ORDER", "step_no": game.step_no + 1000})):
        out[name] = client.post(base + "/orders", json=body).get_data(as_text=True)
    out["api-not-found"] = client.get(base + "/nothing-here").get_data(as_text=True)
    return out


def _public_channels(client: Any, game: Game) -> dict[str, str]:
    out = {}
    for name, path in (("verify", f"/g/{game.id}/verify"), ("export", f"/g/{game.id}/export.json"),
                       ("index", "/"), ("api-game", f"/api/v1/game/{game.id}?since=0"),
                       ("api-game-pt", f"/api/v1/game/{game.id}?lang=pt")):
        out[name] = client.get(path).get_data(as_text=True)
    return out


def scan_game(app: Any, client: Any, slug: str, options: dict[str, Any], seed: str, *,
              max_steps: int = 40, samples: int = 2, pdf: bool = True) -> ScanResult:
    """Play one seeded random game through the platform and scan it at a few steps."""
    result = ScanResult(games=1)
    rules = get_rules(slug)
    rnd = random.Random(seed)
    # the test client must not run inside our app context (it would share one stale session)
    opts = {**rules.default_options(), **options}
    robots = set(rules.robot_seats(opts))
    emails = [f"{seed}-{i}@example.org".replace(":", "-") for i, s in enumerate(rules.seats(opts))
              if s not in robots]
    orig = turns.setup.new_seed
    turns.setup.new_seed = lambda: seed.encode().hex()[:64].ljust(64, "0")
    try:
        with app.app_context(), write_session() as session:
            made = turns.create_game(session, slug, emails, options=options, hours=24)
            game_id = made.game.id
            links = dict(made.links)
            shared = _send_press(session, made.game, seed)
    finally:
        turns.setup.new_seed = orig
    sample_at = {1} | {rnd.randint(2, max_steps) for _ in range(max(samples - 1, 0))}
    engine = get_engine(app)
    for step in range(1, max_steps + 1):
        with Session(engine) as s:
            game = s.get(Game, game_id)
            seats = {x.seat: x for x in s.exec(select(Seat).where(Seat.game_id == game_id))}
        if game.status != "running":
            break
        if step in sample_at:
            _scan_now(app, client, game, seats, links, rules, result, pdf=pdf, shared=shared)
        for seat_id in sorted(game.owed):
            seat = seats[seat_id]
            if not seat.player_id:
                continue
            order = rules.random_order(game.state, seat_id, step_rng(seed, game.step_no, seat_id))
            try:
                with app.app_context():
                    turns.accept_order(engine, game_id, seat.id, order, step_no=game.step_no)
            except (turns.StepClosed, IllegalOrder):
                break
        result.steps += 1
    with Session(engine) as s:
        game = s.get(Game, game_id)
    if game.status == "finished":  # after the end: the seed is revealed on the verify page
        public = _public_channels(client, game)
        if game.seed not in public["verify"]:
            result.leaks.append(f"{slug} #{game_id}: the seed is not revealed after the end")
    return result


def _send_press(session: Any, game: Game, seed: str) -> dict[str, set[str]]:
    """Each seat with a player writes a marked message to the next such seat: {mark: {sender, recipient}}."""
    humans = [s for s in session.exec(select(Seat).where(Seat.game_id == game.id).order_by(Seat.id)).all()
              if s.player_id]
    shared: dict[str, set[str]] = {}
    if len(humans) < 3 or press.allowed_now(game, [humans[1].seat]):  # two seats: nobody else to leak to
        return shared
    for i, sender in enumerate(humans):
        to = humans[(i + 1) % len(humans)]
        mark = f"presssecret{seed.encode().hex()[:12]}x{i}"
        press.send(session, game, sender, [to.seat], f"Private word {mark}", game.created_at)
        shared[mark] = {sender.seat, to.seat}
    return shared


def _scan_press(channels: dict[str | None, dict[str, str]], shared: dict[str, set[str]], where: str,
                result: ScanResult) -> None:
    for mark, owners in shared.items():
        for owner in owners:
            result.secrets_total += 1
            if any(mark in t for t in channels.get(owner, {}).values()):
                result.secrets_seen += 1
        for viewer, chans in channels.items():
            if viewer in owners:
                continue
            for name, text in chans.items():
                if mark in text:
                    result.leaks.append(f"{where}: press {mark} of {sorted(owners)} in {viewer or 'public'} {name}")


def _scan_now(app: Any, client: Any, game: Game, seats: dict[str, Seat], links: dict[str, str], rules: Any,
              result: ScanResult, *, pdf: bool, shared: dict[str, set[str]] | None = None) -> None:
    result.samples += 1
    secrets = {s: [x for x in rules.secrets(game.state, s) if x] for s in seats}
    channels = {s: _seat_channels(app, client, game, seats[s], links[s], pdf=pdf) for s in links}
    channels[None] = _public_channels(client, game)
    for chans in channels.values():
        result.channels += len(chans)
        result.pdfs += sum(1 for k in chans if k.endswith("pdf-text"))
        result.mails += sum(1 for k in chans if k.startswith("mail-headers"))
    where = f"{game.slug} #{game.id} step {game.step_no}"
    _scan_press(channels, shared or {}, where, result)
    for owner, owned in secrets.items():
        for secret in owned:
            result.secrets_total += 1
            # "objective:O1" may be shown as "O1": use the spelling its owner sees
            spellings = [secret] + ([secret.split(":", 1)[1]] if ":" in secret else [])
            pat = pattern(secret)
            for spelling in spellings:
                candidate = pattern(spelling)
                if owner in channels and any(candidate.search(t) for t in channels[owner].values()):
                    result.secrets_seen += 1
                    pat = candidate
                    break
            for viewer, chans in channels.items():
                if viewer == owner:
                    continue
                for name, text in chans.items():
                    if pat.search(text):
                        result.leaks.append(f"{where}: {owner}'s secret {secret!r} in {viewer or 'public'} {name}")
    for viewer, chans in channels.items():
        for name, text in chans.items():
            if game.seed in text:
                result.leaks.append(f"{where}: the seed in {viewer or 'public'} {name} before the end")
