#!/usr/bin/env python3
"""Oracle driver: answers robots.txt questions with Google's C++ library.

Google's open-source robots.txt matcher (github.com/google/robotstxt) is
published on PyPI with Python bindings as ``jwm.robotstxt``
(see ``requirements.txt``). This script wraps it in a long-lived process
that Rust tests (and ``check_cases.py``) talk to over pipes.

Protocol: JSON Lines. Read one request per line on stdin, write exactly one
JSON object per request on stdout, flushed after each line.

Request fields:

* the robots.txt body, one of
  - ``"robots_hex"``: hex of the raw bytes, or
  - ``"robots_file"``: a path; the last body read from a path is cached, so
    repeating the same path does not re-read the file;
* ``"agent"``: the crawler's product token (e.g. ``"Googlebot"``), passed to
  Google's ``OneAgentAllowedByRobots`` unchanged;
* the URL(s), one of
  - ``"url"``: a string (sent as UTF-8) or ``"url_hex"``: hex of raw bytes;
  - ``"urls"``: a list of strings or ``"urls_hex"``: a list of hex strings.

Response:

* single URL: ``{"allowed": true|false, "line": N}`` where ``N`` is
  ``matching_line()`` (0 when no rule matched). Note that Google reports the
  line of a matching *empty* ``Disallow:`` even though it allows the URL;
* list of URLs: ``{"results": [{"allowed": ..., "line": ...}, ...]}``;
* bad request: ``{"error": "..."}``; the process keeps going.

Empty input lines are ignored. The process exits at end of input.
"""

import json
import sys

from jwm.robotstxt import googlebot

_cache_path = None
_cache_body = None


def _body(req):
    global _cache_path, _cache_body
    if "robots_hex" in req:
        return bytes.fromhex(req["robots_hex"])
    if "robots_file" in req:
        path = req["robots_file"]
        if path != _cache_path:
            with open(path, "rb") as f:
                body = f.read()
            _cache_path, _cache_body = path, body
        return _cache_body
    raise ValueError("missing robots_hex or robots_file")


def _as_bytes(value, is_hex):
    if not isinstance(value, str):
        raise ValueError("URL must be a string")
    return bytes.fromhex(value) if is_hex else value.encode("utf-8")


def _check(matcher, body, agent, url):
    allowed = matcher.OneAgentAllowedByRobots(body, agent, url)
    return {"allowed": bool(allowed), "line": int(matcher.matching_line())}


def answer(req, matcher):
    """Returns the response object for one decoded request."""
    if not isinstance(req, dict):
        raise ValueError("request must be a JSON object")
    agent = req.get("agent")
    if not isinstance(agent, str):
        raise ValueError("missing agent")
    body = _body(req)
    if "url" in req or "url_hex" in req:
        is_hex = "url_hex" in req
        url = _as_bytes(req["url_hex"] if is_hex else req["url"], is_hex)
        return _check(matcher, body, agent, url)
    if "urls" in req or "urls_hex" in req:
        is_hex = "urls_hex" in req
        urls = req["urls_hex"] if is_hex else req["urls"]
        if not isinstance(urls, list):
            raise ValueError("urls must be a list")
        return {"results": [_check(matcher, body, agent, _as_bytes(u, is_hex))
                            for u in urls]}
    raise ValueError("missing url, url_hex, urls or urls_hex")


def main():
    matcher = googlebot.RobotsMatcher()
    out = sys.stdout
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        try:
            resp = answer(json.loads(raw), matcher)
        except Exception as e:  # never crash on a bad request
            resp = {"error": f"{type(e).__name__}: {e}"}
            matcher = googlebot.RobotsMatcher()
        out.write(json.dumps(resp) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
