"""The one-URL API: Robots, Matcher, Decision, profiles, agents, sitemaps, crawl delays."""

from __future__ import annotations

import pytest

import robotsmatch
from robotsmatch import Decision, Matcher, Robots

from conftest import EXAMPLES

SHOP = (EXAMPLES / "shop.txt").read_bytes()


def test_parse_bytes_str_and_bytearray_agree():
    urls = ["/cart", "/cart/help", "/shoes?sort=price", "/public/guide.pdf", "/"]
    by_bytes = Robots.parse(SHOP).matcher("Googlebot")
    by_str = Robots.parse(SHOP.decode("utf-8")).matcher("Googlebot")
    by_bytearray = Robots.parse(bytearray(SHOP)).matcher("Googlebot")
    for url in urls:
        assert by_bytes.decide(url) == by_str.decide(url) == by_bytearray.decide(url)


def test_decision_fields_and_repr():
    m = Robots.parse(b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\n").matcher("Googlebot")
    d = m.decide("https://shop.example/cart?item=1")
    assert (d.allowed, d.kind, d.pattern, d.line) == (False, "disallow", "/cart", 2)
    assert repr(d) == "Decision(allowed=False, kind='disallow', pattern='/cart', line=2)"
    d = m.decide("https://shop.example/cart/help")
    assert (d.allowed, d.kind, d.pattern, d.line) == (True, "allow", "/cart/help$", 3)
    d = m.decide("https://shop.example/shoes")
    assert (d.allowed, d.kind, d.pattern, d.line) == (True, None, None, None)
    assert repr(d) == "Decision(allowed=True, kind=None, pattern=None, line=None)"
    assert m.allowed("https://shop.example/cart/help") is True
    assert m.allowed(b"https://shop.example/cart") is False


def test_decision_constructor_checks_kind():
    assert Decision(False, "disallow", "/x", 3) == Decision(False, "disallow", "/x", 3)
    assert Decision(True) != Decision(False)
    assert len({Decision(True), Decision(True), Decision(False, "disallow", "/x", 3)}) == 2
    with pytest.raises(ValueError, match="kind must be"):
        Decision(True, "permit")


def test_matcher_constructor_equals_robots_matcher():
    a = Matcher(SHOP, "Googlebot")
    b = Robots.parse(SHOP).matcher("Googlebot")
    for url in ["/cart", "/cart/help", "/shoes?color=red&sort=price", "/x.pdf"]:
        assert a.decide(url) == b.decide(url)
    assert (a.agent, a.profile, a.rule_count) == ("Googlebot", "google", b.rule_count)
    assert a.rule_count > 0
    assert a.engine in {"trivial", "direct", "dense", "lazy", "split", "reference"}
    assert repr(a).startswith("Matcher(agent='Googlebot', profile='google', rules=")


def test_longest_match_and_profiles():
    body = b"User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\n"
    google = Robots.parse(body).matcher("Bot")
    legacy = Robots.parse(body).matcher("Bot", profile="legacy")
    assert google.allowed("/a/b/c") is True  # longer Allow wins
    assert legacy.allowed("/a/b/c") is False  # first match wins
    assert google.allowed("/x.pdf") is False  # wildcard and anchor
    assert legacy.allowed("/x.pdf") is True  # `*` is literal under legacy
    assert legacy.profile == "legacy"
    assert Robots.parse(body).matcher("Bot", profile=" Legacy ").profile == "legacy"


def test_unknown_profile_is_a_value_error():
    with pytest.raises(ValueError, match="unknown profile 'bing'.*google, legacy"):
        Robots.parse(SHOP).matcher("Googlebot", profile="bing")


def test_agents_tokens_and_catalog_fallback():
    body = b"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\n"
    robots = Robots.parse(body)
    full = robots.matcher("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
    assert full.allowed("/g") is False and full.allowed("/all") is True
    # Googlebot-Image obeys a Googlebot group when the file has none of its own.
    assert robots.matcher("Googlebot-Image").allowed("/g") is False
    assert robots.matcher("OtherBot").allowed("/g") is True
    assert robots.matcher("OtherBot").allowed("/all") is False


def test_robots_txt_is_always_allowed():
    m = Matcher(b"User-agent: *\nDisallow: /\n", "Googlebot")
    assert m.allowed("https://example.com/robots.txt") is True
    assert m.allowed("https://example.com/other") is False


def test_sitemaps_warnings_and_properties():
    body = (
        b"Sitemap: https://example.com/a.xml\n"
        b"User-agent: *\nDisalow: /x\nSitemap: https://example.com/b.xml\n"
    )
    robots = Robots.parse(body)
    assert robots.sitemaps == ["https://example.com/a.xml", "https://example.com/b.xml"]
    assert any("line 3" in w and "disalow" in w.lower() for w in robots.warnings), robots.warnings
    assert robots.body == body
    assert robots.size == len(body)
    assert robots.truncated is False
    assert robots.rule_count == 1
    assert robots.matcher("Googlebot").allowed("/x") is False
    assert repr(robots) == "Robots(size=%d, groups=1, rules=1, sitemaps=2)" % len(body)


def test_crawl_delay_follows_group_selection():
    body = (
        b"User-agent: *\nCrawl-delay: 10\nDisallow: /x\n\n"
        b"User-agent: slowbot\nCrawl-delay: 2.5\nDisallow: /s\n\n"
        b"User-agent: badbot\nCrawl-delay: soon\nDisallow: /b\n\n"
        b"User-agent: negbot\nCrawl-delay: -1\nDisallow: /n\n"
    )
    robots = Robots.parse(body)
    assert robots.crawl_delay("Googlebot") == 10.0
    assert robots.crawl_delay("SlowBot/1.0") == 2.5
    assert robots.crawl_delay("badbot") is None  # not a number: ignored
    assert robots.crawl_delay("negbot") is None
    assert Robots.parse(b"User-agent: *\nDisallow: /\n").crawl_delay("Googlebot") is None
    # Crawl-delay is not a rule: it does not end a group, so a and b share 'Disallow: /x';
    # but the delay belongs to the user-agent line directly above it, a's (issue 15).
    shared = Robots.parse(b"User-agent: a\nCrawl-delay: 3\nUser-agent: b\nDisallow: /x\n")
    assert shared.crawl_delay("a") == 3.0
    assert shared.crawl_delay("b") is None and shared.crawl_delay("c") is None
    assert shared.matcher("b").allowed("/x") is False


def test_issue15_crawl_delay_and_request_rate_per_crawler():
    robots = Robots.parse(
        b"User-agent: bingbot\nCrawl-delay: 1\nRequest-rate: 1/5\nUser-agent: msnbot\nCrawl-delay: 2\n"
        b"User-agent: *\nDisallow: /login\n\n"
        b"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: Googlebot\nCrawl-delay: 7\n"
    )
    assert robots.crawl_delay("msnbot") == 2.0
    assert robots.crawl_delay("bingbot") == 1.0
    assert robots.crawl_delay("anybot") is None  # not bingbot's 1
    assert robots.request_rate("bingbot") == (1, 5.0)
    assert robots.request_rate("msnbot") is None
    # The rules stay grouped as Google groups them.
    for agent in ("bingbot", "msnbot", "anybot"):
        assert robots.matcher(agent).allowed("/login") is False
    # Merged groups (google) against the first group only (legacy).
    assert robots.crawl_delay("Googlebot") == 7.0
    assert robots.crawl_delay("Googlebot", profile="legacy") is None
    assert robots.crawl_delay("Googlebot-Image") == 7.0  # the catalog's fallback
    with pytest.raises(ValueError, match="unknown profile"):
        robots.crawl_delay("Googlebot", profile="bing")


def test_issue15_whole_product_tokens():
    robots = Robots.parse(
        b"User-agent: Ai2Bot-Dolma\nDisallow: /\n\nUser-agent: AI2Bot\nDisallow: /private/\n\n"
        b"User-agent: MJ12bot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"
    )
    ai2 = robots.matcher("AI2Bot")
    assert ai2.allowed("/public") is True  # was disallowed: AI2Bot and Ai2Bot-Dolma cut to AI
    assert ai2.decide("/private/a") == Decision(False, "disallow", "/private/", 5)
    assert robots.matcher("Ai2Bot-Dolma").allowed("/public") is False
    assert robots.matcher("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)").allowed("/y") is False
    assert robots.matcher("MJ").decide("/y") == Decision(True)  # no prefix of MJ12bot
    assert robots.matcher("MJ").allowed("/x") is False


def test_issue15_backslash_after_the_host_is_a_slash():
    m = Matcher(b"User-agent: *\nDisallow: /private\n", "Googlebot")
    assert m.allowed("http://example.com\\private") is False
    assert m.allowed_many(["http://example.com\\private\\x", "http://example.com/public"]) == [False, True]


def test_module_exports():
    assert isinstance(robotsmatch.__version__, str) and robotsmatch.__version__
    assert Robots.__module__ == "robotsmatch"
    assert Matcher.__doc__ and "thread" in Matcher.__doc__
    assert "500 KiB" in (Robots.parse.__doc__ or "")
