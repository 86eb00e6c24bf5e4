"""Secrets of the platform: seat links, GM links and game seeds.

A link token is derived from a per-seat random salt (``secrets.token_urlsafe(32)``)
and the server's ``SECRET_KEY`` with HMAC-SHA256: 256 bits.  Only the SHA-256
of the token is stored, and mails keep a placeholder that is filled in at
delivery, so neither a database dump nor the outbox reveals a working link.
Rotating a link (new salt, version + 1) kills the old one at once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

LINK_PLACEHOLDER = "%%ORDER_LINK%%"
PREFS_PLACEHOLDER = "%%PREFS_LINK%%"


def new_salt() -> str:
    return secrets.token_urlsafe(32)


def derive_token(key: str, purpose: str, owner_id: int, salt: str, version: int = 1) -> str:
    mac = hmac.new(key.encode(), f"{purpose}|{owner_id}|{salt}|{version}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_seed() -> str:
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The commitment published when a game starts: SHA-256 of its seed."""
    return hashlib.sha256(seed.encode()).hexdigest()


def looks_like_token(token: str) -> bool:
    return 20 <= len(token) <= 100 and all(c.isalnum() or c in "-_" for c in token)


def sign(key: str, *parts: object) -> str:
    msg = "|".join(str(p) for p in parts).encode()
    return hmac.new(key.encode(), msg, hashlib.sha256).hexdigest()
