"""Error answers: one plain sentence, as JSON for the API and as a page for a screen."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, jsonify, make_response, redirect, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from app.infra.pdf import PrintBusy, PrintFailed, PrintTooSlow
from app.rules.speech import say, words
from app.web import pages


def _error(exc: HTTPException) -> Any:
    if exc.code == 405 and request.method in ("GET", "HEAD") and not pages.wants_json():
        # A form's address opened with GET: a phone reloading the answer to a form (after the
        # player switched apps) or a bookmark. The screen the form belongs to opens instead.
        page = pages.nearest_page(request.path)
        if page is not None:
            return redirect(page, code=303)
    stock = {
        400: words("The request could not be read."),
        403: words("This needs the game's edit token."),
        404: words("There is nothing at this address."),
        405: words("{method} is not allowed here."),
        413: words("The request is too large."),
        429: words("Too many requests; wait a moment and try again."),
    }.get(exc.code or 500)
    message = say(stock, method=request.method) if stock else exc.description or say("The request failed.")
    # A description we wrote (not werkzeug's stock one) is the plain sentence to show.
    if exc.description and exc.description != type(exc).description:
        message = exc.description
    if pages.wants_json():
        return jsonify(error=message), exc.code
    return _error_page(message, exc.code or 500)


def _print_failed(exc: Exception) -> Any:
    current_app.logger.error("PDF failed: %s", exc)
    headers = {}
    if isinstance(exc, PrintBusy):
        message = say(
            "Other sheets are being printed just now; try again in {seconds} seconds.",
            seconds=exc.retry_after,
        )
        headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, PrintTooSlow):
        message = say(
            "This sheet took longer than {seconds} seconds to lay out and was stopped; "
            "shorten it (fewer entries or shorter notes) and print it again.",
            seconds=f"{exc.seconds:g}",
        )
    else:
        message = say("The PDF could not be made just now; try again in a moment.")
    if pages.wants_json():
        return jsonify(error=message), 503, headers
    return render_template("error.html", message=message, code=503), 503, headers


def _csrf_error(exc: CSRFError) -> Any:
    message = say("The form has expired or did not come from Muster; reload the page and try again.")
    if pages.wants_json():
        return jsonify(error=message), 400
    return _error_page(message, 400)


def _error_page(message: str, code: int) -> Any:
    """The error page; a refused POST also carries its sentence in a header (app/web/pages.py).

    Only a judgement is a refusal: an expired form (400), a request that took too long (408),
    too many at once (429) and a server fault are answered without the header, so a phone
    keeps the entry and sends it again (docs/offline.md).
    """
    response = make_response(render_template("error.html", message=message, code=code), code)
    judged = 400 < code < 500 and code not in pages.NOT_JUDGED
    return pages.refused(response, message) if request.method == "POST" and judged else response


def register(app: Flask) -> None:
    """Answer every HTTP error, a failed print and an expired form with one plain sentence."""
    app.register_error_handler(HTTPException, _error)
    app.register_error_handler(PrintFailed, _print_failed)
    app.register_error_handler(CSRFError, _csrf_error)
