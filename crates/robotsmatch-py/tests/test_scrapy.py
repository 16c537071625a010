"""The Scrapy adapter, with a fake crawler (Scrapy itself is not needed)."""

from __future__ import annotations

import importlib
import pickle
import sys
from concurrent.futures import ThreadPoolExecutor

from robotsmatch import Matcher

BODY = (
    b"User-agent: *\nDisallow: /private\n\n"
    b"User-agent: MyBot\nDisallow: /mybot-only\nAllow: /private/ok\n"
)


class FakeCrawler:
    """What Scrapy passes: an object with a `spider` (and settings, unused here)."""

    def __init__(self, spider=None):
        self.spider = spider
        self.settings = {"ROBOTSTXT_PARSER": "robotsmatch.scrapy.RobotsMatchParser"}


def _load(path: str):
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_settings_path_loads_without_scrapy():
    cls = _load(FakeCrawler().settings["ROBOTSTXT_PARSER"])
    assert cls.__name__ == "RobotsMatchParser"
    assert "scrapy" not in sys.modules or hasattr(sys.modules["scrapy"], "Spider")


def test_from_crawler_and_allowed_match_the_matcher():
    cls = _load("robotsmatch.scrapy.RobotsMatchParser")
    spider = object()
    parser = cls.from_crawler(FakeCrawler(spider), BODY)
    assert parser.spider is spider
    urls = ["https://x.example/private", "https://x.example/private/ok", "https://x.example/mybot-only"]
    for agent in ["MyBot/1.0 (+https://mybot.example)", "Scrapy/2.11 (+https://scrapy.org)"]:
        m = Matcher(BODY, agent)
        for url in urls:
            assert parser.allowed(url, agent) == m.allowed(url)
            assert parser.allowed(url.encode(), agent.encode()) == m.allowed(url)
    assert parser.allowed(urls[0], "MyBot/1.0") is True
    assert parser.allowed(urls[0], "Scrapy/2.11") is False
    assert parser.allowed(urls[2], "MyBot") is False


def test_body_as_str_none_and_bad_bytes():
    cls = _load("robotsmatch.scrapy.RobotsMatchParser")
    assert cls.from_crawler(FakeCrawler(), BODY.decode()).allowed("/private", "x") is False
    assert cls.from_crawler(FakeCrawler(), None).allowed("/private", "x") is True
    parser = cls.from_crawler(FakeCrawler(), b"User-agent: *\nDisallow: /\xff\n")
    assert parser.allowed("/%FF", "x") is False
    assert parser.allowed(b"/\xff", "x") is True  # undecodable URL bytes become U+FFFD


def test_shared_between_threads():
    cls = _load("robotsmatch.scrapy.RobotsMatchParser")
    parser = cls.from_crawler(FakeCrawler(), BODY)
    agents = [f"Bot{i % 5}/1.0" for i in range(200)] + ["MyBot"] * 50
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda a: parser.allowed("/private/ok", a), agents))
    assert got == [a == "MyBot" for a in agents]
    assert pickle.loads(pickle.dumps(parser.matcher("MyBot"))).allowed("/private/ok") is True
