"""The packages: ``app`` and ``jobs``, and the top-level ``templates/`` folder installed as ``app/templates``
(and ``docs/openapi.yaml``, the JSON API's document that the app serves, as ``app/apidocs/openapi.yaml``).

Everything else is in pyproject.toml.  Only this mapping needs code: the template folders
are listed as packages so that setuptools installs them, their files as package data
(``app/paths.py`` finds them in either place).
"""

from setuptools import find_namespace_packages, setup

TEMPLATES = ["app.templates"] + [f"app.templates.{name}" for name in find_namespace_packages("templates")]

setup(
    packages=find_namespace_packages(include=["app", "app.*", "jobs", "jobs.*"]) + TEMPLATES + ["app.apidocs"],
    package_dir={"app.templates": "templates", "app.apidocs": "docs"},
)
