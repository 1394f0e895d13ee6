"""The persistent store: conversations, messages, request metrics, users and API keys.

SQLite in WAL mode by default; `DATABASE_URL` selects another database (PostgreSQL via psycopg).
Turns are PII-masked on the caller's thread, then written off the request path by one batch-writer
thread. If the database is down, chats go on and `num_dropped_writes` counts the turns lost.
"""
from __future__ import annotations

import hmac
import logging
import queue
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from chatbot import migrations
from chatbot.auth import ROLES, hash_key
from chatbot.guard import mask_pii
from chatbot.store_engine import make_engine, resolve_url
from chatbot.store_models import ApiKey, Conversation, Message, RequestMetrics, User

log = logging.getLogger(__name__)

MAX_BATCH_TURNS = 256
METRIC_FIELDS = ("queue_s", "ttft_s", "tpot_s", "total_s", "route_s", "outline_s", "expand_s",
                 "prompt_tokens", "completion_tokens", "cached_prompt_tokens")


class StoreUnavailable(RuntimeError):
    """The database cannot be reached (or migrated) right now."""


class Turn(NamedTuple):
    """One question and its answer, as the service hands it over."""

    conversation_id: str
    request_id: str
    question: str
    answer: str
    lang: str
    mode: str  # "sot" | "direct" | "escalate" | "refuse"
    category: str | None
    outline: list[str]
    sources: list[str]
    created_at: datetime  # UTC, timezone-aware
    metrics: dict


def _error_summary(exc: BaseException) -> str:
    """A one-line, PII-masked description of a database error, for logs."""
    cause = getattr(exc, "orig", None) or exc
    return mask_pii(f"{type(cause).__name__}: {cause}".splitlines()[0])[:300]


class Store:
    """The database, a bounded queue of turns and the thread that writes them in batches."""

    def __init__(self, url: str | None = None, *, data_dir: Path | None = None, max_queue: int = 10_000) -> None:
        """url None -> $DATABASE_URL -> SQLite file `supportdesk.db` under data_dir, $SUPPORTDESK_DATA_DIR
        or ~/.local/share/supportdesk. Runs the migrations; a database that is down is logged and
        retried before later writes, so the service can start without it."""
        assert max_queue > 0
        self.url = resolve_url(url, data_dir)
        try:
            self.engine = make_engine(self.url)
        except (ArgumentError, ImportError) as exc:
            raise ValueError(f"unusable database URL {self.url}: {exc}") from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._queue: queue.Queue[Turn | None] = queue.Queue(maxsize=max_queue)
        self._lock = threading.Condition()
        self._num_enqueued = 0
        self._num_done = 0
        self._num_dropped_writes = 0
        self._is_down = False
        self._is_closed = False
        self._writer: threading.Thread | None = None
        self._schema_lock = threading.Lock()
        self._is_migrated = False
        try:
            self._ensure_schema()
        except StoreUnavailable as exc:
            log.warning("store: %s; writes are dropped until it is back", exc)

    # -- schema -----------------------------------------------------------------------------

    def _ensure_schema(self) -> None:
        """Upgrade to the head revision once; StoreUnavailable while the database is down."""
        with self._schema_lock:
            if self._is_migrated:
                return
            try:
                migrations.upgrade(self.engine)
            except (DBAPIError, OSError) as exc:
                raise StoreUnavailable(f"database {self.url} unavailable: {_error_summary(exc)}") from exc
            self._is_migrated = True

    # -- writes -----------------------------------------------------------------------------

    @property
    def num_dropped_writes(self) -> int:
        """Turns that were never stored: queue full, database down, or store closed."""
        return self._num_dropped_writes

    def start(self) -> None:
        """Start the batch-writer thread (idempotent)."""
        with self._lock:
            if self._writer is not None or self._is_closed:
                return
            self._writer = threading.Thread(target=self._run_writer, name="store-writer", daemon=True)
            self._writer.start()

    def record_turn(self, turn: Turn) -> None:
        """Mask PII and enqueue the turn for the writer. Never blocks, never raises; a turn that
        cannot be queued is counted in num_dropped_writes."""
        try:
            masked = turn._replace(
                question=mask_pii(turn.question),
                answer=mask_pii(turn.answer),
                outline=[mask_pii(point) for point in turn.outline],
                metrics={**turn.metrics, "error": turn.metrics.get("error") and mask_pii(str(turn.metrics["error"]))},
            )
            with self._lock:
                if self._is_closed:
                    raise queue.Full
                self._queue.put_nowait(masked)
                self._num_enqueued += 1
        except queue.Full:
            self._count_dropped(1, enqueued=False)
        except Exception:  # a malformed turn must not break the chat that produced it
            log.exception("store: could not queue turn %s", getattr(turn, "request_id", "?"))
            self._count_dropped(1, enqueued=False)

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Wait until every turn queued so far was written or dropped; False on timeout."""
        self.start()
        with self._lock:
            target = self._num_enqueued
            return self._lock.wait_for(lambda: self._num_done >= target, timeout=timeout_s)

    def close(self, timeout_s: float = 5.0) -> None:
        """Flush what can be flushed in timeout_s, stop the writer, count what is left as dropped,
        and dispose of the engine."""
        if not self._is_closed:
            self.flush(timeout_s)
        with self._lock:
            self._is_closed = True
            writer, self._writer = self._writer, None
        if writer is not None:
            try:
                self._queue.put(None, timeout=timeout_s)
            except queue.Full:
                log.warning("store: writer still busy at close")
            writer.join(timeout_s)
        num_left = 0
        while True:
            try:
                num_left += self._queue.get_nowait() is not None
            except queue.Empty:
                break
        if num_left:
            self._count_dropped(num_left, enqueued=True)
        self.engine.dispose()

    def _count_dropped(self, num_turns: int, *, enqueued: bool) -> None:
        with self._lock:
            self._num_dropped_writes += num_turns
            if enqueued:
                self._num_done += num_turns
                self._lock.notify_all()

    def _run_writer(self) -> None:
        while True:
            turn = self._queue.get()
            if turn is None:
                return
            batch = [turn]
            is_stopping = False
            while len(batch) < MAX_BATCH_TURNS:
                try:
                    turn = self._queue.get_nowait()
                except queue.Empty:
                    break
                if turn is None:
                    is_stopping = True
                    break
                batch.append(turn)
            self._write_batch(batch)
            with self._lock:
                self._num_done += len(batch)
                self._lock.notify_all()
            if is_stopping:
                return

    def _write_batch(self, batch: list[Turn]) -> None:
        """Write the batch in one transaction; on a constraint error retry turn by turn, so one
        bad turn costs only itself; on a database outage drop the batch and count it."""
        try:
            self._ensure_schema()
            with self._sessions.begin() as session:
                conversations: dict[str, Conversation] = {}
                for turn in batch:
                    self._add_turn(session, conversations, turn)
        except IntegrityError as exc:
            if len(batch) > 1:
                for turn in batch:
                    self._write_batch([turn])
                return
            log.warning("store: dropped turn %s: %s", batch[0].request_id, _error_summary(exc))
            self._count_dropped(1, enqueued=False)
            return
        except (StoreUnavailable, SQLAlchemyError, OSError) as exc:  # the database is down or unusable
            self._count_dropped(len(batch), enqueued=False)
            if not self._is_down:
                self._is_down = True
                log.warning("store: database unavailable, dropping writes: %s", _error_summary(exc))
            return
        except Exception:  # never let the writer thread die
            log.exception("store: dropped %d turn(s) on an unexpected error", len(batch))
            self._count_dropped(len(batch), enqueued=False)
            return
        if self._is_down:
            self._is_down = False
            log.info("store: database available again; %d writes dropped so far", self._num_dropped_writes)

    @staticmethod
    def _add_turn(session: Session, conversations: dict[str, Conversation], turn: Turn) -> None:
        """Upsert the conversation; add the question, the answer and the request's metrics."""
        conversation = conversations.get(turn.conversation_id) or session.get(Conversation, turn.conversation_id)
        if conversation is None:
            conversation = Conversation(id=turn.conversation_id, created_at=turn.created_at)
            session.add(conversation)
        conversations[turn.conversation_id] = conversation
        conversation.updated_at = turn.created_at
        conversation.lang = turn.lang
        common = {"conversation_id": turn.conversation_id, "category": turn.category, "created_at": turn.created_at}
        session.add(Message(role="user", text=turn.question, mode=None, outline=[], sources=[], **common))
        session.add(Message(role="assistant", text=turn.answer, mode=turn.mode, outline=list(turn.outline),
                            sources=list(turn.sources), **common))
        session.add(RequestMetrics(
            request_id=turn.request_id, conversation_id=turn.conversation_id, created_at=turn.created_at,
            mode=turn.mode, lang=turn.lang, guard_firings=list(turn.metrics.get("guard_firings") or []),
            error=turn.metrics.get("error"), **{name: turn.metrics.get(name) for name in METRIC_FIELDS},
        ))

    # -- reads ------------------------------------------------------------------------------

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A session for reads and user changes; StoreUnavailable while the database is down."""
        self._ensure_schema()
        try:
            with self._sessions() as session:
                yield session
        except IntegrityError:
            raise
        except DBAPIError as exc:
            raise StoreUnavailable(f"database unavailable: {_error_summary(exc)}") from exc

    def conversation(self, conversation_id: str) -> list[dict] | None:
        """The conversation's messages, oldest first; None if the conversation is unknown."""
        with self._session() as session:
            if session.get(Conversation, conversation_id) is None:
                return None
            messages = session.scalars(
                select(Message).where(Message.conversation_id == conversation_id).order_by(Message.created_at, Message.id)
            ).all()
        return [
            {"role": m.role, "text": m.text, "mode": m.mode, "category": m.category, "outline": list(m.outline),
             "sources": list(m.sources), "created_at": m.created_at.isoformat()}
            for m in messages
        ]

    def request_metrics(self, since: datetime, limit: int = 10_000) -> list[dict]:
        """Request metrics created at or after `since`: the newest `limit` rows, newest last."""
        query = (
            select(RequestMetrics)
            .where(RequestMetrics.created_at >= since)
            .order_by(RequestMetrics.created_at.desc(), RequestMetrics.id.desc())
            .limit(limit)
        )
        with self._session() as session:
            rows = session.scalars(query).all()
        return [
            {"request_id": r.request_id, "conversation_id": r.conversation_id, "created_at": r.created_at,
             "mode": r.mode, "lang": r.lang, **{name: getattr(r, name) for name in METRIC_FIELDS},
             "guard_firings": list(r.guard_firings), "error": r.error}
            for r in reversed(rows)
        ]

    # -- users and API keys -----------------------------------------------------------------

    def add_user(self, name: str, role: str) -> str:
        """Create a user with a new API key and return the key; only its sha256 is stored.
        ValueError for an unknown role, an empty name or a name already taken."""
        name = name.strip()
        if not name:
            raise ValueError("user name must not be empty")
        if role not in ROLES:
            raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        key = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        try:
            with self._session() as session, session.begin():
                if session.scalar(select(User.id).where(User.name == name)) is not None:
                    raise ValueError(f"user {name!r} already exists")
                user = User(name=name, role=role, created_at=now)
                session.add(user)
                session.flush()
                session.add(ApiKey(user_id=user.id, key_hash=hash_key(key), created_at=now))
        except IntegrityError:  # added by someone else since the check above
            raise ValueError(f"user {name!r} already exists") from None
        return key

    def revoke_user(self, name: str) -> int:
        """Revoke every active key of the user; returns how many. ValueError for an unknown user."""
        with self._session() as session, session.begin():
            user = session.scalar(select(User).where(User.name == name))
            if user is None:
                raise ValueError(f"no user {name!r}")
            keys = session.scalars(select(ApiKey).where(ApiKey.user_id == user.id, ApiKey.revoked_at.is_(None))).all()
            for key in keys:
                key.revoked_at = datetime.now(UTC)
        return len(keys)

    def role_for_key(self, key: str) -> str | None:
        """The role of an active key, else None. Every active key hash is compared with
        hmac.compare_digest, without stopping at a match. Fails closed (None) if the database is down."""
        if not key:
            return None
        key_hash = hash_key(key)
        try:
            with self._session() as session:
                rows = session.execute(
                    select(ApiKey.key_hash, User.role).join(User).where(ApiKey.revoked_at.is_(None))
                ).all()
        except StoreUnavailable as exc:
            log.warning("store: cannot check API key, denying: %s", exc)
            return None
        role = None
        for stored_hash, stored_role in rows:
            if hmac.compare_digest(stored_hash, key_hash):
                role = stored_role
        return role

    def list_users(self) -> list[dict]:
        """Every user: name, role, created_at (ISO), num_active_keys."""
        with self._session() as session:
            users = session.scalars(select(User).order_by(User.name)).all()
            active_user_ids = session.scalars(select(ApiKey.user_id).where(ApiKey.revoked_at.is_(None))).all()
        return [
            {"name": u.name, "role": u.role, "created_at": u.created_at.isoformat(),
             "num_active_keys": sum(user_id == u.id for user_id in active_user_ids)}
            for u in users
        ]
