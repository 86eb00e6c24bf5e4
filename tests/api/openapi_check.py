"""Validate real answers of the JSON API against ``docs/openapi.yaml`` (openapi-core)."""

from __future__ import annotations

import functools
import os

from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENT = os.path.join(ROOT, "docs", "openapi.yaml")


@functools.cache
def spec() -> OpenAPI:
    return OpenAPI.from_file_path(DOCUMENT)


def checked(resp, body=None):
    """``resp`` (a Flask test client answer) after validating its request and answer against the document.

    ``body``: the JSON that was posted (the test client has read the request's own stream).
    """
    sent = resp.request
    if body is not None:
        sent = Request(EnvironBuilder(path=sent.path, query_string=sent.query_string.decode(), method=sent.method,
                                      json=body).get_environ())
    request = WerkzeugOpenAPIRequest(sent)
    response = WerkzeugOpenAPIResponse(resp)
    spec().validate_response(request, response)
    assert resp.headers.get("Cache-Control") == "no-store"
    return resp
