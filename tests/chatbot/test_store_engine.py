"""Where the store's database is and how it is connected to (`chatbot.store_engine`), through the store and alone:
SQLite files in tmp_path."""
import pytest

from chatbot.store import Store
from chatbot.store_engine import resolve_url


def test_sqlite_uses_wal_and_a_busy_timeout(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.close()


def test_default_location_and_database_url(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SUPPORTDESK_DATA_DIR", str(tmp_path / "data"))
    Store().close()
    assert (tmp_path / "data" / "supportdesk.db").is_file()
    Store(data_dir=tmp_path / "explicit").close()
    assert (tmp_path / "explicit" / "supportdesk.db").is_file()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'from_env.db'}")
    Store(data_dir=tmp_path / "ignored").close()
    assert (tmp_path / "from_env.db").is_file() and not (tmp_path / "ignored").exists()
    assert resolve_url("postgres://u:pw@db/app").drivername == "postgresql+psycopg"
    with pytest.raises(ValueError):
        resolve_url("not a url")
