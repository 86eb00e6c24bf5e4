"""The floor of the web benchmarks: a bare Flask "hello" endpoint (GET or POST, form read)."""

from flask import Flask, request

app = Flask(__name__)


@app.route("/hello", methods=["GET", "POST"])
def hello() -> str:
    request.form  # noqa: B018  (parse the body like the order form does)
    return "hello"
