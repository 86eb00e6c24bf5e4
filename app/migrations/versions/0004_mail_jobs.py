"""mail jobs: reports and mails built after the step's commit

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03 04:40:00.000000
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('mailjob',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('step_no', sa.Integer(), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'step_no', 'seat', 'kind')
    )
    with op.batch_alter_table('mailjob', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mailjob_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('mailjob', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mailjob_game_id'))
    op.drop_table('mailjob')
