"""`supportdesk users add|list|revoke`: agents and admins, with API keys kept in the store."""
from __future__ import annotations

import sys


def _open_store(args):
    from chatbot.store import Store

    return Store(args.database_url)


def _cmd_users_add(args) -> int:
    """Create the user; print the new API key alone on stdout and a notice on stderr."""
    store = _open_store(args)
    try:
        key = store.add_user(args.name, args.role)
    finally:
        store.close()
    print(key)
    print(f"created {args.role} {args.name.strip()!r}; keep this API key now, it is not shown again", file=sys.stderr)
    return 0


def _cmd_users_list(args) -> int:
    """One line per user: name, role, creation time, number of active keys."""
    store = _open_store(args)
    try:
        users = store.list_users()
    finally:
        store.close()
    if not users:
        print("no users; add one with: supportdesk users add NAME --role agent|admin", file=sys.stderr)
        return 0
    width = max(len(user["name"]) for user in users)
    print(f"{'name':{width}s}  role   active_keys  created_at")
    for user in users:
        print(f"{user['name']:{width}s}  {user['role']:5s}  {user['num_active_keys']:11d}  {user['created_at']}")
    return 0


def _cmd_users_revoke(args) -> int:
    """Revoke every active key of the user."""
    store = _open_store(args)
    try:
        num_revoked = store.revoke_user(args.name)
    finally:
        store.close()
    print(f"revoked {num_revoked} key(s) of {args.name!r}", file=sys.stderr)
    return 0


def add_users_parser(subparsers) -> None:
    """Register `users add NAME --role agent|admin`, `users list` and `users revoke NAME`."""
    users = subparsers.add_parser("users", help="agents and admins, and their API keys")
    users_sub = users.add_subparsers(dest="users_command", required=True)

    def database_args(p) -> None:
        p.add_argument(
            "--database-url",
            default=None,
            help="SQLAlchemy URL (default: $DATABASE_URL, else supportdesk.db under $SUPPORTDESK_DATA_DIR "
            "or ~/.local/share/supportdesk)",
        )

    p = users_sub.add_parser("add", help="create a user and print a new API key once")
    p.add_argument("name")
    p.add_argument("--role", required=True, choices=["agent", "admin"])  # Store.add_user checks it too
    database_args(p)
    p.set_defaults(func=_cmd_users_add)

    p = users_sub.add_parser("list", help="list users, roles and active keys")
    database_args(p)
    p.set_defaults(func=_cmd_users_list)

    p = users_sub.add_parser("revoke", help="revoke every API key of a user")
    p.add_argument("name")
    database_args(p)
    p.set_defaults(func=_cmd_users_revoke)
