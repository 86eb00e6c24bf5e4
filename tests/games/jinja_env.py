"""The application's own Jinja templates, for tests that render game templates.

Game templates use the platform's filters and translations (``_``, ``game_text``,
``game_svg``), so they are rendered exactly as pages and reports render them:
each render runs inside an application context of its own, which it leaves
behind it (no context leaks into later tests).
"""

from __future__ import annotations

from typing import Any

_app = None


class _Template:
    def __init__(self, app: Any, template: Any) -> None:
        self._app, self._template = app, template

    def render(self, *args: Any, **kwargs: Any) -> str:
        with self._app.app_context():
            return self._template.render(*args, **kwargs)


class _Env:
    def __init__(self, app: Any) -> None:
        self._app = app

    def get_template(self, name: str) -> _Template:
        return _Template(self._app, self._app.jinja_env.get_template(name))


def app_env() -> _Env:
    """Templates from the application's Jinja environment."""
    global _app
    if _app is None:
        from app import create_app

        _app = create_app({"TESTING": True, "SECRET_KEY": "template-tests-0123456789",
                           "DATABASE_URL": "sqlite://", "BASE_URL": "https://pbem.example.org"})
    return _Env(_app)
