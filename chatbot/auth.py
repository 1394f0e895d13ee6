"""API keys and roles: anonymous customers chat, agents look up policies, admins see latency and metrics.

Keys come from the environment (`SUPPORTDESK_AGENT_KEYS`, `SUPPORTDESK_ADMIN_KEYS`, comma-separated),
from config (the constructor), or from the store (`supportdesk users add`). Every comparison is
constant-time: the key's SHA-256 is compared with `hmac.compare_digest` against every configured hash.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os

log = logging.getLogger(__name__)

ROLES = ("agent", "admin")
_RANK = {None: 0, "agent": 1, "admin": 2}


def hash_key(key: str) -> str:
    """The sha256 hex digest of an API key: what is compared, and all the store keeps."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def api_key_from_headers(headers) -> str | None:
    """The API key of a request: `Authorization: Bearer <key>`, else `X-API-Key`."""
    scheme, _, token = (headers.get("authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return headers.get("x-api-key") or None


def has_role(role: str | None, required: str) -> bool:
    """Admins may do everything agents may."""
    return _RANK.get(role, 0) >= _RANK[required]


class KeyAuth:
    """Maps API keys to roles; configured keys first, then the store's."""

    def __init__(self, agent_keys: list[str] = (), admin_keys: list[str] = (), store=None) -> None:
        self._hashes = ([(hash_key(k), "agent") for k in agent_keys if k]
                        + [(hash_key(k), "admin") for k in admin_keys if k])
        self.store = store

    @classmethod
    def from_env(cls, store=None) -> KeyAuth:
        def keys(name: str) -> list[str]:
            return [k.strip() for k in os.environ.get(name, "").split(",") if k.strip()]

        return cls(keys("SUPPORTDESK_AGENT_KEYS"), keys("SUPPORTDESK_ADMIN_KEYS"), store)

    def role_for_key(self, key: str | None) -> str | None:
        """The key's role, or None for no key or an unknown one."""
        if not key:
            return None
        digest = hash_key(key)
        role = None
        for known, known_role in self._hashes:  # no early exit: the time does not depend on which key matched
            if hmac.compare_digest(digest, known) and _RANK[known_role] > _RANK[role]:
                role = known_role
        if role is None and self.store is not None:
            try:
                role = self.store.role_for_key(key)
            except Exception as exc:  # the database is down: only configured keys work
                log.warning("key lookup in the store failed: %s", exc)
        return role
