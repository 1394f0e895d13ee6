"""Alembic migrations of the store, configured in code: no alembic.ini is needed, so they run
from an installed package. `upgrade(engine)` brings a database to the head revision."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

SCRIPT_LOCATION = Path(__file__).resolve().parent


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic config for this package's revisions, bound to an open connection or a URL."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision id in this package."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "no Alembic revisions found"
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; None for an empty database."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """`alembic upgrade head` in one transaction; a no-op on an up-to-date database."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), revision)
