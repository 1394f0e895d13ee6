"""The store on real databases: SQLite files in tmp_path always, PostgreSQL where one is reachable
($SUPPORTDESK_TEST_POSTGRES_URL; `.ci/start-postgres` starts one). No mocks of the database."""
import io
import os
import sqlite3
import uuid
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, make_url, text
from sqlalchemy.exc import SQLAlchemyError

from chatbot import migrations
from chatbot.store import Store, StoreUnavailable, Turn, hash_key

POSTGRES_URL = os.environ.get("SUPPORTDESK_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
TABLES = {"alembic_version", "api_keys", "conversations", "messages", "request_metrics", "users"}


def make_turn(conversation_id="c1", n=0, question="Can I return shoes?", answer="Yes, within 30 days.", **changes):
    metrics = {
        "queue_s": 0.01, "ttft_s": 0.2, "tpot_s": 0.02, "total_s": 1.5, "route_s": 0.05, "outline_s": 0.3,
        "expand_s": 0.9, "prompt_tokens": 120, "completion_tokens": 40, "cached_prompt_tokens": 96,
        "guard_firings": ["grounding"], "error": None,
    }
    turn = Turn(
        conversation_id=conversation_id, request_id=uuid.uuid4().hex, question=question, answer=answer, lang="en",
        mode="sot", category="returns", outline=["Window", "Receipt"], sources=["returns#window"],
        created_at=T0 + timedelta(seconds=n), metrics=metrics,
    )
    return turn._replace(**changes)


@pytest.fixture(scope="module")
def postgres_url():
    """The PostgreSQL server for this module's tests, or a skip saying why there is none."""
    engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 2})
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        pytest.skip(f"no PostgreSQL reachable at {engine.url}: {str(exc).splitlines()[0]}")
    finally:
        engine.dispose()
    return POSTGRES_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A URL to an empty database: a SQLite file, or a fresh PostgreSQL schema dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    base_url = request.getfixturevalue("postgres_url")
    schema = f"test_store_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}", "application_name": schema})
    yield url.render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture
def store(db_url):
    store = Store(db_url)
    store.start()
    yield store
    store.close()


def test_turns_round_trip_in_order(store):
    first, second = make_turn(n=0), make_turn(n=5, question="And sale items?", answer="Final sale.", mode="direct")
    store.record_turn(first)
    store.record_turn(second)
    store.record_turn(make_turn("other", n=1))
    assert store.flush()
    messages = store.conversation("c1")
    assert [(m["role"], m["text"]) for m in messages] == [
        ("user", first.question), ("assistant", first.answer), ("user", second.question), ("assistant", second.answer)
    ]
    assert messages[1] == {
        "role": "assistant", "text": first.answer, "mode": "sot", "category": "returns",
        "outline": ["Window", "Receipt"], "sources": ["returns#window"], "created_at": T0.isoformat(),
    }
    assert messages[0]["mode"] is None and messages[0]["outline"] == [] and messages[3]["mode"] == "direct"
    assert store.conversation("nobody") is None
    assert store.num_dropped_writes == 0


def test_pii_is_masked_before_it_is_stored(store, db_url):
    question = "My card 4111 1111 1111 1111 was charged twice, mail me at jane.doe@example.com or call 415-555-0123"
    store.record_turn(make_turn(question=question, answer="We will email jane.doe@example.com.",
                                metrics={**make_turn().metrics, "error": "timeout for jane.doe@example.com"}))
    assert store.flush()
    user, assistant = store.conversation("c1")
    assert user["text"] == "My card [card] was charged twice, mail me at [email] or call [phone]"
    assert assistant["text"] == "We will email [email]."
    assert store.request_metrics(T0)[0]["error"] == "timeout for [email]"
    if db_url.startswith("sqlite"):
        store.close()
        path = Path(make_url(db_url).database)
        raw = b"".join(p.read_bytes() for p in path.parent.glob(f"{path.name}*"))  # the file and any -wal
        assert b"jane.doe" not in raw and b"4111" not in raw and b"555-0123" not in raw


def test_request_metrics_since_limit_and_utc(store):
    turns = [make_turn(f"c{n}", n=n) for n in range(5)]
    for turn in reversed(turns):
        store.record_turn(turn)
    assert store.flush()
    rows = store.request_metrics(T0 + timedelta(seconds=1))
    assert [r["request_id"] for r in rows] == [t.request_id for t in turns[1:]]  # newest last
    assert [r["request_id"] for r in store.request_metrics(T0, limit=2)] == [t.request_id for t in turns[3:]]
    row = rows[0]
    assert row["created_at"] == T0 + timedelta(seconds=1) and row["created_at"].tzinfo is not None
    assert row["created_at"].utcoffset() == timedelta(0)
    assert {k: row[k] for k in ("mode", "lang", "ttft_s", "expand_s", "cached_prompt_tokens", "guard_firings")} == {
        "mode": "sot", "lang": "en", "ttft_s": 0.2, "expand_s": 0.9, "cached_prompt_tokens": 96,
        "guard_firings": ["grounding"],
    }
    # another timezone for `since` means the same instant
    assert len(store.request_metrics((T0 + timedelta(seconds=3)).astimezone(timezone(timedelta(hours=8))))) == 2


def test_users_and_api_keys(store):
    agent_key = store.add_user("alice", "agent")
    admin_key = store.add_user("bob", "admin")
    assert agent_key != admin_key and len(agent_key) >= 32
    assert store.role_for_key(agent_key) == "agent" and store.role_for_key(admin_key) == "admin"
    assert store.role_for_key(agent_key + "x") is None and store.role_for_key("") is None
    with pytest.raises(ValueError, match="already exists"):
        store.add_user("alice", "admin")
    with pytest.raises(ValueError, match="role"):
        store.add_user("carol", "root")
    with store.engine.connect() as connection:
        stored = connection.execute(text("SELECT key_hash FROM api_keys")).scalars().all()
    assert sorted(stored) == sorted([hash_key(agent_key), hash_key(admin_key)])  # never the key itself
    assert store.revoke_user("alice") == 1
    assert store.role_for_key(agent_key) is None and store.role_for_key(admin_key) == "admin"
    assert [(u["name"], u["role"], u["num_active_keys"]) for u in store.list_users()] == [
        ("alice", "agent", 0), ("bob", "admin", 1)
    ]
    with pytest.raises(ValueError, match="no user"):
        store.revoke_user("nobody")


def test_migrations_upgrade_head_and_are_idempotent(db_url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no alembic.ini here: the config is built in code
    store = Store(db_url)  # runs `upgrade head`
    engine = store.engine
    head = migrations.head_revision()
    assert migrations.current_revision(engine) == head
    assert TABLES <= set(inspect(engine).get_table_names())
    with engine.begin() as connection:
        config = migrations.alembic_config(connection)
        config.stdout = out = io.StringIO()
        command.current(config)
    assert out.getvalue().split() == [head, "(head)"]  # what `alembic current` prints
    columns_before = {t: [c["name"] for c in inspect(engine).get_columns(t)] for t in TABLES}
    migrations.upgrade(engine)  # already at head: a no-op
    Store(db_url).close()  # and so does a second store on the same database
    assert migrations.current_revision(engine) == head
    assert {t: [c["name"] for c in inspect(engine).get_columns(t)] for t in TABLES} == columns_before
    store.close()


def test_locked_database_drops_writes_and_recovers(tmp_path):
    path = tmp_path / "locked.db"
    store = Store(f"sqlite:///{path}?timeout=0.1")
    store.start()
    store.record_turn(make_turn(n=0))
    assert store.flush()
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # another writer holds the database: ours gets "database is locked"
    store.record_turn(make_turn(n=1))
    store.record_turn(make_turn(n=2))
    assert store.flush()
    assert store.num_dropped_writes == 2
    assert len(store.conversation("c1")) == 2  # reads still work in WAL mode
    blocker.execute("ROLLBACK")
    blocker.close()
    store.record_turn(make_turn(n=3, question="back again"))
    assert store.flush()
    assert store.num_dropped_writes == 2
    assert [m["text"] for m in store.conversation("c1")][-2] == "back again"
    store.close()


def test_database_down_at_startup_then_back(tmp_path):
    url = f"sqlite:///{tmp_path / 'not_yet' / 'store.db'}"  # the directory is missing: connecting fails
    store = Store(url)
    store.start()
    store.record_turn(make_turn(n=0))
    assert store.flush()
    assert store.num_dropped_writes == 1
    with pytest.raises(StoreUnavailable):
        store.conversation("c1")
    assert store.role_for_key("anything") is None  # fails closed
    (tmp_path / "not_yet").mkdir()
    store.record_turn(make_turn(n=1))
    assert store.flush()
    assert store.num_dropped_writes == 1
    assert len(store.conversation("c1")) == 2
    store.close()


def test_full_queue_and_closed_store_count_drops(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'q.db'}", max_queue=2)
    for n in range(5):
        store.record_turn(make_turn(n=n))  # writer not started: the third turn on finds the queue full
    assert store.num_dropped_writes == 3
    store.close()  # flushes the two queued turns
    assert store.num_dropped_writes == 3
    store.record_turn(make_turn(n=9))
    assert store.num_dropped_writes == 4
    reopened = Store(f"sqlite:///{tmp_path / 'q.db'}")
    assert len(reopened.conversation("c1")) == 4
    reopened.close()


def test_a_bad_turn_costs_only_itself(db_url):
    duplicate = make_turn(n=0)
    first = Store(db_url)
    first.record_turn(duplicate)
    first.close()  # flushes
    store = Store(db_url)  # not started yet: the next turns form one batch
    store.record_turn(make_turn(n=1))
    store.record_turn(duplicate._replace(created_at=T0 + timedelta(seconds=2)))  # same request_id again
    store.record_turn(make_turn(n=3))
    store.record_turn(make_turn(metrics=None))  # malformed: dropped in record_turn, which never raises
    assert store.flush()
    assert store.num_dropped_writes == 2
    assert len(store.conversation("c1")) == 6
    store.close()


def test_unreachable_postgres_drops_writes():
    store = Store("postgresql://postgres@127.0.0.1:1/none?connect_timeout=1")  # nothing listens on port 1
    store.start()
    store.record_turn(make_turn())
    assert store.flush()
    assert store.num_dropped_writes == 1
    with pytest.raises(StoreUnavailable):
        store.request_metrics(T0)
    store.close()


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_postgres_connections_killed_then_writes_go_on(store, db_url):
    store.record_turn(make_turn(n=0))
    assert store.flush()
    admin = create_engine(db_url)
    with admin.connect() as connection:  # as a server restart would
        killed = connection.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = :name AND pid <> pg_backend_pid()"
        ), {"name": make_url(db_url).query["application_name"]}).scalars().all()
    admin.dispose()
    assert killed and all(killed)
    store.record_turn(make_turn(n=1))
    assert store.flush()
    assert store.num_dropped_writes == 0 and len(store.conversation("c1")) == 4
