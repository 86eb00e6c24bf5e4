"""inbound mail: handled inbound Message-IDs (orders by e-mail reply)

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 12:19:40.512387
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('inboundmail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('message_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('from_addr', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('step_no', sa.Integer(), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('detail', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('received_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('handled_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('inboundmail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inboundmail_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_inboundmail_key'), ['key'], unique=True)



def downgrade() -> None:
    with op.batch_alter_table('inboundmail', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_inboundmail_key'))
        batch_op.drop_index(batch_op.f('ix_inboundmail_game_id'))

    op.drop_table('inboundmail')
