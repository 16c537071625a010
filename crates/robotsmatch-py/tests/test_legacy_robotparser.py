"""The `legacy` profile against Python's `urllib.robotparser`: what the README says legacy
models (where the two agree) and every difference it lists, each shown on a small file.

`legacy` models robotparser as it was before CPython's gh-138907 (RFC 9309 semantics: merged
groups, longest match, `*` and `$`), that is Python 3.12 and older and 3.13 before the backport.
Under a Python whose robotparser already follows RFC 9309 these comparisons do not apply and
the tests say so instead of passing.
"""

from __future__ import annotations

import urllib.robotparser

import pytest

from robotsmatch import Robots


def robotparser(body: str) -> urllib.robotparser.RobotFileParser:
    rp = urllib.robotparser.RobotFileParser()
    rp.parse(body.splitlines())
    return rp


def legacy(body: str, agent: str, url: str) -> bool:
    return Robots.parse(body.encode("utf-8")).matcher(agent, profile="legacy").allowed(url)


def _robotparser_is_rfc9309() -> bool:
    # gh-138907's robotparser lets the longer Allow win; the old one takes the first match.
    rp = robotparser("User-agent: *\nDisallow: /a\nAllow: /a/b\n")
    return rp.can_fetch("bot", "/a/b")


pytestmark = pytest.mark.skipif(
    _robotparser_is_rfc9309(),
    reason="this Python's urllib.robotparser follows RFC 9309 (gh-138907); legacy models the older one",
)

# (what, robots.txt, crawler, URL): legacy and robotparser give the same verdict.
AGREE = [
    ("first match in file order", "User-agent: *\nDisallow: /shop\nAllow: /shop/help\n", "bot", "/shop/help"),
    ("first match, Allow first", "User-agent: *\nAllow: /shop/help\nDisallow: /shop\n", "bot", "/shop/help"),
    ("'*' is literal", "User-agent: *\nDisallow: /*.pdf\n", "bot", "/a.pdf"),
    ("'*' is literal, and matches itself", "User-agent: *\nDisallow: /*.pdf\n", "bot", "/*.pdf"),
    ("'$' is literal", "User-agent: *\nDisallow: /a$\n", "bot", "/a/b"),
    ("'Disallow: *' matches nothing", "User-agent: *\nDisallow: *\n", "bot", "/x"),
    ("only the first group naming the crawler",
     "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n", "bot", "/b"),
    ("the first '*' group, wherever it is",
     "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
     "bot", "/b"),
    ("the first '*' group decides", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "bot", "/a"),
    ("a named group replaces '*'", "User-agent: *\nDisallow: /\n\nUser-agent: bot\nDisallow: /b\n", "bot", "/a"),
    ("names ignore case", "User-agent: BOT\nDisallow: /a\n", "bot", "/a"),
    ("the query is part of the path", "User-agent: *\nDisallow: /s?q=1\n", "bot", "https://x.example/s?q=1&r=2"),
    ("paths are case-sensitive", "User-agent: *\nDisallow: /Fish\n", "bot", "/fish"),
    ("non-ASCII as UTF-8 escapes", "User-agent: *\nDisallow: /café\n", "bot", "/caf%C3%A9/x"),
    ("hex case", "User-agent: *\nDisallow: /%c3%a9\n", "bot", "/%C3%A9"),
    ("an escaped unreserved character", "User-agent: *\nDisallow: /~user\n", "bot", "/%7Euser"),
    ("no group applies", "User-agent: other\nDisallow: /\n", "bot", "/x"),
]

# (what, robots.txt, crawler, URL, legacy's verdict): robotparser gives the other one. These are
# the rows of the README's table "Where legacy differs from urllib.robotparser".
DIFFER = [
    ("robotparser: a group applies when its name is a substring of the crawler's",
     "User-agent: Googlebot\nDisallow: /\n", "Googlebot-Mobile", "/x", True),
    ("robotparser: 'bot' applies to every crawler whose name contains it",
     "User-agent: bot\nDisallow: /\n", "Googlebot", "/x", True),
    ("robotparser: a full user-agent string is its text before the first '/' ('mozilla')",
     "User-agent: Googlebot\nDisallow: /\n",
     "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/x", False),
    ("robotparser: 'User-agent: Googlebot/2.1' matches no crawler",
     "User-agent: Googlebot/2.1\nDisallow: /\n", "Googlebot", "/x", False),
    ("robotparser: a blank line ends a group (here it drops the user-agent line)",
     "User-agent: bot\n\nDisallow: /x\n", "bot", "/x", False),
    ("robotparser: a crawl-delay line ends a group",
     "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /x\n", "a", "/x", False),
    ("robotparser: a group without rules is dropped, so '*' applies",
     "User-agent: *\nDisallow: /\n\nUser-agent: bot\n", "bot", "/x", True),
    ("robotparser: an empty 'Disallow:' allows everything from its place in the order",
     "User-agent: *\nDisallow:\nDisallow: /x\n", "bot", "/x", False),
    ("robotparser: keys must be spelled exactly, with a colon",
     "User-agent: *\nDisalow: /x\n", "bot", "/x", False),
    ("robotparser: a byte-order mark hides the first line",
     "\ufeffUser-agent: *\nDisallow: /x\n", "bot", "/x", False),
    ("robotparser: every escape is decoded, so '%2F' is '/'",
     "User-agent: *\nDisallow: /a%2Fb\n", "bot", "/a/b", True),
    ("robotparser: the fragment is kept (as '%23')",
     "User-agent: *\nDisallow: /a%23b\n", "bot", "/a#b", True),
    ("robotparser: /robots.txt is decided by the rules",
     "User-agent: *\nDisallow: /\n", "bot", "/robots.txt", True),
    ("robotparser: a '\\' does not end the host, so the path is '/'",
     "User-agent: *\nDisallow: /private\n", "bot", "http://example.com\\private", False),
]


@pytest.mark.parametrize("what,body,agent,url", AGREE, ids=[a[0] for a in AGREE])
def test_legacy_agrees_with_robotparser(what, body, agent, url):
    assert legacy(body, agent, url) == robotparser(body).can_fetch(agent, url), what


@pytest.mark.parametrize("what,body,agent,url,want", DIFFER, ids=[d[0] for d in DIFFER])
def test_legacy_differs_from_robotparser(what, body, agent, url, want):
    assert legacy(body, agent, url) is want, what
    assert robotparser(body).can_fetch(agent, url) is (not want), what


def test_crawl_delay_differs():
    # robotparser: whole seconds only ('2.5' is ignored); legacy: any non-negative number.
    body = "User-agent: bot\nCrawl-delay: 2.5\nDisallow: /x\n"
    assert Robots.parse(body.encode()).crawl_delay("bot", profile="legacy") == 2.5
    assert robotparser(body).crawl_delay("bot") is None
    # Whole seconds agree.
    body = "User-agent: bot\nCrawl-delay: 3\nDisallow: /x\n"
    assert Robots.parse(body.encode()).crawl_delay("bot", profile="legacy") == 3.0
    assert robotparser(body).crawl_delay("bot") == 3
