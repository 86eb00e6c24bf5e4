"""on PostgreSQL, an order's write is one call of the function pbem_store_order

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 19:00:00.000000
"""
from alembic import op

from app.pg_schema import DROP_ORDER_FUNCTION, ORDER_FUNCTION

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(ORDER_FUNCTION)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DROP_ORDER_FUNCTION)
