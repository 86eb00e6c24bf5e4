"""A small IMAP4rev1 server for tests (no IMAP server can be installed here).

It speaks just what ``app.mailin.imap`` uses: CAPABILITY, LOGIN, SELECT,
UID SEARCH UNSEEN, UID FETCH (RFC822.SIZE, BODY.PEEK[HEADER], BODY.PEEK[]),
UID STORE +FLAGS (\\Seen), NOOP and LOGOUT, over a real TCP socket, so the
poller runs unchanged through the standard library's ``imaplib``.
"""

from __future__ import annotations

import re
import socketserver
import threading


class Mailbox:
    def __init__(self, user: str = "orders", password: str = "secret") -> None:
        self.user = user
        self.password = password
        self.messages: list[dict] = []  # {"uid", "raw", "seen"}
        self.commands: list[str] = []

    def add(self, raw: bytes) -> int:
        uid = len(self.messages) + 1
        self.messages.append({"uid": uid, "raw": raw, "seen": False})
        return uid

    def by_uid(self, uid: int) -> tuple[int, dict] | None:
        for seq, msg in enumerate(self.messages, start=1):
            if msg["uid"] == uid:
                return seq, msg
        return None


def _header_of(raw: bytes) -> bytes:
    for sep in (b"\r\n\r\n", b"\n\n"):
        i = raw.find(sep)
        if i >= 0:
            return raw[: i + len(sep)]
    return raw


class _Handler(socketserver.StreamRequestHandler):
    def send(self, data: bytes | str) -> None:
        self.wfile.write(data.encode() if isinstance(data, str) else data)

    def handle(self) -> None:
        box: Mailbox = self.server.mailbox  # type: ignore[attr-defined]
        self.send("* OK [CAPABILITY IMAP4rev1] fake IMAP ready\r\n")
        authed = False
        while True:
            line = self.rfile.readline()
            if not line:
                return
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            box.commands.append(text)
            tag, _, rest = text.partition(" ")
            cmd, _, args = rest.partition(" ")
            cmd = cmd.upper()
            if cmd == "CAPABILITY":
                self.send(f"* CAPABILITY IMAP4rev1\r\n{tag} OK CAPABILITY completed\r\n")
            elif cmd == "NOOP":
                self.send(f"{tag} OK NOOP completed\r\n")
            elif cmd == "LOGIN":
                parts = [p.strip('"') for p in re.findall(r'"[^"]*"|\S+', args)]
                if parts == [box.user, box.password]:
                    authed = True
                    self.send(f"{tag} OK LOGIN completed\r\n")
                else:
                    self.send(f"{tag} NO LOGIN failed\r\n")
            elif cmd == "LOGOUT":
                self.send(f"* BYE logging out\r\n{tag} OK LOGOUT completed\r\n")
                return
            elif not authed:
                self.send(f"{tag} BAD not authenticated\r\n")
            elif cmd in ("SELECT", "EXAMINE"):
                self.send(f"* {len(box.messages)} EXISTS\r\n* 0 RECENT\r\n* FLAGS (\\Seen)\r\n"
                          f"{tag} OK [READ-WRITE] SELECT completed\r\n")
            elif cmd == "UID":
                self.uid(box, tag, args)
            else:
                self.send(f"{tag} BAD unknown command\r\n")

    def uid(self, box: Mailbox, tag: str, args: str) -> None:
        sub, _, rest = args.partition(" ")
        sub = sub.upper()
        if sub == "SEARCH":
            uids = [str(m["uid"]) for m in box.messages if not m["seen"]]
            self.send(f"* SEARCH {' '.join(uids)}\r\n{tag} OK SEARCH completed\r\n".replace("SEARCH \r", "SEARCH\r"))
            return
        uid_s, _, what = rest.partition(" ")
        found = box.by_uid(int(uid_s))
        if found is None:
            self.send(f"{tag} OK nothing\r\n")
            return
        seq, msg = found
        if sub == "FETCH":
            what = what.upper()
            items = [f"UID {msg['uid']}"]
            literal = b""
            if "RFC822.SIZE" in what:
                items.append(f"RFC822.SIZE {len(msg['raw'])}")
            if "BODY.PEEK[HEADER]" in what:
                literal = _header_of(msg["raw"])
                items.append(f"BODY[HEADER] {{{len(literal)}}}")
            elif "BODY.PEEK[]" in what:
                literal = msg["raw"]
                items.append(f"BODY[] {{{len(literal)}}}")
            head = f"* {seq} FETCH (" + " ".join(items)
            if literal:
                self.send(head.encode() + b"\r\n" + literal + b")\r\n")
            else:
                self.send(head + ")\r\n")
            self.send(f"{tag} OK FETCH completed\r\n")
        elif sub == "STORE":
            if "\\SEEN" in what.upper():
                msg["seen"] = True
            self.send(f"* {seq} FETCH (UID {msg['uid']} FLAGS (\\Seen))\r\n{tag} OK STORE completed\r\n")
        else:
            self.send(f"{tag} BAD unknown UID command\r\n")


class FakeImapServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, mailbox: Mailbox) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mailbox = mailbox
        self.port = self.server_address[1]
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    def start(self) -> FakeImapServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
