"""Words that templates translate from data (``_(game.status)``), marked here for extraction."""


def N_(message: str) -> str:  # noqa: N802 (the conventional name for a deferred translation mark)
    return message


#: game, season and mail states shown to players
STATES = [N_("running"), N_("paused"), N_("finished"), N_("crashed"), N_("pending"), N_("sent"), N_("local"),
          N_("failed"), N_("digest"), N_("digested"), N_("active"), N_("open"), N_("closed"), N_("done")]
#: game modes (Empire)
MODES = [N_("short"), N_("long")]
#: how an order came in (order history)
SOURCES = [N_("web"), N_("mail"), N_("bot"), N_("default"), N_("standing")]
