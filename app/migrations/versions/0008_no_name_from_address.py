"""a player's name is never made from their address: names an earlier build took from it are cleared

Earlier builds named a new player after the part of their address before the @, and league pages
showed that name to everyone. A name equal to it was not chosen by the player, so it is cleared; the
player is shown by their number in a league until they choose a name.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 06:00:00.000000
"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, email, name FROM player WHERE name <> ''")).all()
    taken = [pid for pid, email, name in rows if name == (email or "").split("@")[0]]
    for start in range(0, len(taken), 500):
        bind.execute(sa.text("UPDATE player SET name = '' WHERE id IN :ids")
                     .bindparams(sa.bindparam("ids", expanding=True)), {"ids": taken[start:start + 500]})


def downgrade() -> None:
    pass  # the names cleared were never chosen: there is nothing to put back
