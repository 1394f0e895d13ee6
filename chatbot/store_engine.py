"""Where the store's database is and how it is connected to: a SQLite file under the data directory by default,
`DATABASE_URL` for another database (PostgreSQL via psycopg), each with its connection settings."""
from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError

DEFAULT_DB_FILENAME = "supportdesk.db"
DEFAULT_BUSY_TIMEOUT_S = 5.0
DEFAULT_PG_CONNECT_TIMEOUT_S = 5


def default_data_dir() -> Path:
    """$SUPPORTDESK_DATA_DIR, else ~/.local/share/supportdesk."""
    return Path(os.environ.get("SUPPORTDESK_DATA_DIR") or Path.home() / ".local" / "share" / "supportdesk")


def resolve_url(url: str | None = None, data_dir: Path | None = None) -> URL:
    """url, else $DATABASE_URL, else a SQLite file under the data directory (created if missing).
    `postgres://` and `postgresql://` select the psycopg (v3) driver."""
    url = url or os.environ.get("DATABASE_URL")
    if not url:
        data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        data_dir.mkdir(parents=True, exist_ok=True)
        return URL.create("sqlite", database=str(data_dir / DEFAULT_DB_FILENAME))
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ValueError(f"invalid database URL: {exc}") from None
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: URL) -> Engine:
    """An engine with the store's connection settings: SQLite gets WAL, a busy timeout and
    foreign keys on every connection; PostgreSQL gets a connect timeout and pre-ping."""
    kwargs: dict = {"hide_parameters": True}  # errors never echo the (masked) texts into logs
    if url.get_backend_name() == "sqlite":
        busy_timeout_ms = int(float(url.query.get("timeout", DEFAULT_BUSY_TIMEOUT_S)) * 1000)
        engine = create_engine(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection, connection_record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
        kwargs["connect_args"] = {"connect_timeout": DEFAULT_PG_CONNECT_TIMEOUT_S}
    return create_engine(url, pool_pre_ping=True, **kwargs)
