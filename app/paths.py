"""Where the files the app reads at run time live, in a checkout and in an installed wheel.

The templates and static files are kept in the top-level ``templates/`` folder of the
repository; a wheel carries the same folder inside the package, as ``app/templates``
(``setup.py`` maps it).  The Alembic scripts and the compiled catalogues live inside the
package in both cases (``app/migrate.py``, ``app/i18n``).
"""

from __future__ import annotations

import os

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _templates() -> str:
    installed = os.path.join(PACKAGE, "templates")
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(PACKAGE), "templates")


TEMPLATES = _templates()
STATIC = os.path.join(TEMPLATES, "static")


def _openapi() -> str:
    installed = os.path.join(PACKAGE, "apidocs", "openapi.yaml")
    if os.path.isfile(installed):
        return installed
    return os.path.join(os.path.dirname(PACKAGE), "docs", "openapi.yaml")


#: The JSON API's OpenAPI document: ``docs/openapi.yaml`` (a wheel carries it as ``app/apidocs``).
OPENAPI = _openapi()


def instance_path() -> str | None:
    """The instance folder named by ``PBEM_INSTANCE`` (absolute), or None for Flask's default.

    Flask's default is ``instance/`` beside the package in a checkout, and
    ``<prefix>/var/app-instance`` for an installed package.
    """
    path = os.environ.get("PBEM_INSTANCE")
    return os.path.abspath(path) if path else None
