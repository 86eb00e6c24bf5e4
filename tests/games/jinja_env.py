"""The application's own Jinja environment, for tests that render game templates.

Game templates use the platform's filters and translations (``_``, ``game_text``,
``game_svg``), so they are rendered exactly as pages and reports render them.
"""

from __future__ import annotations

import jinja2

_app = None


def app_env() -> jinja2.Environment:
    """The app's Jinja environment, with an application context pushed for translations."""
    global _app
    if _app is None:
        from app import create_app

        _app = create_app({"TESTING": True, "SECRET_KEY": "template-tests-0123456789",
                           "DATABASE_URL": "sqlite://", "BASE_URL": "https://pbem.example.org"})
        _app.app_context().push()
    return _app.jinja_env
