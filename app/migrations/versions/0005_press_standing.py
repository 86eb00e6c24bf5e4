"""press between players, standing orders, bounce-excused deadlines

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 06:20:00.000000
"""
import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    op.create_table('press',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('step_no', sa.Integer(), nullable=False),
    sa.Column('sender', text(), nullable=False),
    sa.Column('sender_player', sa.Integer(), nullable=True),
    sa.Column('to', sa.JSON(), nullable=True),
    sa.Column('text', text(), nullable=False),
    sa.Column('source', text(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_press_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_press_created_at'), ['created_at'], unique=False)

    op.create_table('standingorder',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', text(), nullable=False),
    sa.Column('kind', text(), nullable=False),
    sa.Column('title', sa.JSON(), nullable=True),
    sa.Column('order', sa.JSON(), nullable=True),
    sa.Column('text', text(), nullable=False),
    sa.Column('set_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seat', 'kind')
    )
    with op.batch_alter_table('standingorder', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_standingorder_game_id'), ['game_id'], unique=False)

    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('press', text(), nullable=False, server_default='full'))

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('press_read', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('bounce_excused_step', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('bounce_excused_step')
        batch_op.drop_column('press_read')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('press')
    with op.batch_alter_table('standingorder', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_standingorder_game_id'))
    op.drop_table('standingorder')
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_press_created_at'))
        batch_op.drop_index(batch_op.f('ix_press_game_id'))
    op.drop_table('press')
