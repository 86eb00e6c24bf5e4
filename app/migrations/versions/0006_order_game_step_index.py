"""orders read by game and step through one index on (game, step, seat)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 02:00:00.000000
"""
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('order', schema=None) as batch_op:
        batch_op.create_index('ix_order_game_step_seat', ['game_id', 'step_no', 'seat'], unique=False)
        batch_op.drop_index(batch_op.f('ix_order_step_no'))
        batch_op.drop_index(batch_op.f('ix_order_game_id'))


def downgrade() -> None:
    with op.batch_alter_table('order', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_order_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_order_step_no'), ['step_no'], unique=False)
        batch_op.drop_index('ix_order_game_step_seat')
