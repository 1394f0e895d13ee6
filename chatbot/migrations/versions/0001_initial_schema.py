"""Initial schema: conversations, messages, request metrics, users, API keys.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Frozen copies of the model types, so later model changes never rewrite this revision.
big_id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
json_list = sa.JSON().with_variant(JSONB(), "postgresql")
utc_datetime = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", utc_datetime, nullable=False),
        sa.Column("updated_at", utc_datetime, nullable=False),
        sa.Column("lang", sa.String(16), nullable=True),
    )
    op.create_table(
        "messages",
        sa.Column("id", big_id, primary_key=True, autoincrement=True),
        sa.Column(
            "conversation_id",
            sa.String(64),
            sa.ForeignKey("conversations.id", name="fk_messages_conversation_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=True),
        sa.Column("category", sa.String(64), nullable=True),
        sa.Column("outline", json_list, nullable=False),
        sa.Column("sources", json_list, nullable=False),
        sa.Column("created_at", utc_datetime, nullable=False),
    )
    op.create_index("ix_messages_conversation_id", "messages", ["conversation_id"])
    op.create_table(
        "request_metrics",
        sa.Column("id", big_id, primary_key=True, autoincrement=True),
        sa.Column("request_id", sa.String(64), nullable=False),
        sa.Column("conversation_id", sa.String(64), nullable=False),
        sa.Column("created_at", utc_datetime, nullable=False),
        sa.Column("mode", sa.String(16), nullable=True),
        sa.Column("lang", sa.String(16), nullable=True),
        *(sa.Column(name, sa.Float(), nullable=True)
          for name in ("queue_s", "ttft_s", "tpot_s", "total_s", "route_s", "outline_s", "expand_s")),
        *(sa.Column(name, sa.Integer(), nullable=True)
          for name in ("prompt_tokens", "completion_tokens", "cached_prompt_tokens")),
        sa.Column("guard_firings", json_list, nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.UniqueConstraint("request_id", name="uq_request_metrics_request_id"),
    )
    op.create_index("ix_request_metrics_created_at", "request_metrics", ["created_at"])
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", utc_datetime, nullable=False),
        sa.UniqueConstraint("name", name="uq_users_name"),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", name="fk_api_keys_user_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", utc_datetime, nullable=False),
        sa.Column("revoked_at", utc_datetime, nullable=True),
        sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),
    )
    op.create_index("ix_api_keys_user_id", "api_keys", ["user_id"])


def downgrade() -> None:
    op.drop_table("api_keys")
    op.drop_table("users")
    op.drop_table("request_metrics")
    op.drop_table("messages")
    op.drop_table("conversations")
