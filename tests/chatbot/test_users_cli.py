"""`supportdesk users add|list|revoke` against a SQLite file."""
import argparse

import pytest

from chatbot.store import Store
from chatbot.users_cli import add_users_parser


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="supportdesk")
    add_users_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_add_prints_the_key_once_and_list_shows_users(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'users.db'}"
    assert run(["users", "add", "alice", "--role", "agent", "--database-url", url]) == 0
    out, err = capsys.readouterr()
    key = out.strip()
    assert out == key + "\n" and "not shown again" in err and len(err.splitlines()) == 1
    store = Store(url)
    assert store.role_for_key(key) == "agent"
    store.close()
    assert run(["users", "list", "--database-url", url]) == 0
    out, _ = capsys.readouterr()
    assert "alice" in out and "agent" in out and key not in out
    assert run(["users", "revoke", "alice", "--database-url", url]) == 0
    store = Store(url)
    assert store.role_for_key(key) is None
    store.close()


def test_errors_are_value_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    assert run(["users", "add", "bob", "--role", "admin"]) == 0
    with pytest.raises(ValueError, match="already exists"):
        run(["users", "add", "bob", "--role", "agent"])
    with pytest.raises(SystemExit):
        run(["users", "add", "carol", "--role", "root"])  # argparse rejects the role
    assert (tmp_path / "env.db").is_file()
