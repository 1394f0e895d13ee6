"""SQLAlchemy 2.0 ORM tables of the store: conversations, messages, request metrics, users, API keys.

The schema itself is created and upgraded by the Alembic revisions in `chatbot/migrations/`;
these models describe it for queries and for `alembic revision --autogenerate`.
"""
from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# BIGINT ids on PostgreSQL; plain INTEGER on SQLite, where only that aliases the autoincrementing rowid.
BigId = BigInteger().with_variant(Integer(), "sqlite")
JsonList = JSON().with_variant(JSONB(), "postgresql")


class UtcDateTime(TypeDecorator):
    """Timezone-aware UTC datetimes on every backend. SQLite keeps no offset, so values are
    stored as UTC and read back with tzinfo=UTC; a naive value is taken to be UTC already."""

    impl = DateTime(timezone=True)
    cache_ok = True

    @staticmethod
    def _as_utc(value: datetime | None) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        return self._as_utc(value)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        return self._as_utc(value)


class Base(DeclarativeBase):
    # The constraint names the migrations use, so autogenerate sees no difference.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_name)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s",
        }
    )


class Conversation(Base):
    __tablename__ = "conversations"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
    lang: Mapped[str | None] = mapped_column(String(16))


class Message(Base):
    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    conversation_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("conversations.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(String(16))  # "user" | "assistant"
    text: Mapped[str] = mapped_column(Text)
    mode: Mapped[str | None] = mapped_column(String(16))
    category: Mapped[str | None] = mapped_column(String(64))
    outline: Mapped[list[str]] = mapped_column(JsonList)
    sources: Mapped[list[str]] = mapped_column(JsonList)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class RequestMetrics(Base):
    """One answered request: engine timings, SoT stage timings, tokens, prefix-cache hits, guard firings."""

    __tablename__ = "request_metrics"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    request_id: Mapped[str] = mapped_column(String(64), unique=True)
    conversation_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), index=True)
    mode: Mapped[str | None] = mapped_column(String(16))
    lang: Mapped[str | None] = mapped_column(String(16))
    queue_s: Mapped[float | None] = mapped_column(Float)
    ttft_s: Mapped[float | None] = mapped_column(Float)
    tpot_s: Mapped[float | None] = mapped_column(Float)
    total_s: Mapped[float | None] = mapped_column(Float)
    route_s: Mapped[float | None] = mapped_column(Float)
    outline_s: Mapped[float | None] = mapped_column(Float)
    expand_s: Mapped[float | None] = mapped_column(Float)
    prompt_tokens: Mapped[int | None] = mapped_column(Integer)
    completion_tokens: Mapped[int | None] = mapped_column(Integer)
    cached_prompt_tokens: Mapped[int | None] = mapped_column(Integer)
    guard_firings: Mapped[list[str]] = mapped_column(JsonList)
    error: Mapped[str | None] = mapped_column(Text)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(128), unique=True)
    role: Mapped[str] = mapped_column(String(16))  # "agent" | "admin"
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class ApiKey(Base):
    """Only the key's sha256 is kept; the key itself is shown once, when it is made."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime())
