"""A robots.txt parser for Scrapy backed by robotsmatch.

In the project's ``settings.py``::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotsmatch.scrapy.RobotsMatchParser"

It implements the interface of ``scrapy.robotstxt.RobotParser`` (``from_crawler`` and
``allowed``) without importing Scrapy, so this module imports with or without Scrapy
installed. One matcher is compiled per distinct user agent and kept.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Optional, Union

from ._robotsmatch import Matcher, Robots

__all__ = ["RobotsMatchParser"]


def _text(value: Union[str, bytes]) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value


class RobotsMatchParser:
    """Scrapy's ``RobotParser`` interface over a robotsmatch ``Robots``.

    ``user_agent`` is matched by its product token (``MyBot/1.0 (+https://...)`` is
    ``MyBot``), and so is Scrapy's default agent; the rules are read as Google reads them
    (profile ``google``).
    """

    def __init__(self, robotstxt_body: Union[bytes, str, None], spider: Any = None) -> None:
        self.spider = spider
        self.robots = Robots.parse(robotstxt_body if robotstxt_body is not None else b"")
        self._matchers: Dict[str, Matcher] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_crawler(cls, crawler: Any, robotstxt_body: Union[bytes, str, None]) -> "RobotsMatchParser":
        """Builds the parser for ``crawler`` (Scrapy passes the body as bytes)."""
        spider: Optional[Any] = getattr(crawler, "spider", None)
        return cls(robotstxt_body, spider)

    def matcher(self, user_agent: Union[str, bytes]) -> Matcher:
        """The compiled matcher for ``user_agent`` (built on first use, then kept)."""
        agent = _text(user_agent)
        m = self._matchers.get(agent)
        if m is None:
            with self._lock:
                m = self._matchers.get(agent)
                if m is None:
                    m = self.robots.matcher(agent)
                    self._matchers[agent] = m
        return m

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        """True when ``user_agent`` may fetch ``url``."""
        if isinstance(url, bytes):
            url = url.decode("utf-8", errors="replace")
        return self.matcher(user_agent).allowed(url)
