"""Google-compatible robots.txt matching (RFC 9309), compiled in Rust.

>>> import robotsmatch
>>> robots = robotsmatch.Robots.parse(b"User-agent: *\\nDisallow: /cart\\nAllow: /cart/help$\\n")
>>> googlebot = robots.matcher("Googlebot")
>>> googlebot.allowed("https://shop.example/cart?item=1")
False
>>> googlebot.decide("https://shop.example/cart/help")
Decision(allowed=True, kind='allow', pattern='/cart/help$', line=3)
>>> googlebot.allowed_many(["https://shop.example/", "https://shop.example/cart"])
[True, False]

`Matcher.allowed_many` / `Matcher.decide_many` take a list of str/bytes (answered with a list)
or any Arrow array or chunked array of strings (answered with a pyarrow array), and release the
GIL while they work. Matchers are immutable, thread-safe and picklable.

`Store` holds a robots.txt per host (`Store.open(dir, agent)`, `Store.from_bodies({host: body},
agent)`, `Store.from_warc(paths, agent)`) and classifies a whole log (`classify_log`,
`count_log`) or an Arrow array of URLs (`classify`, `count`) on all cores, answering with a
pyarrow Table or a dict of counts.
`robotsmatch.scrapy.RobotsMatchParser` is a drop-in robots.txt parser for Scrapy.
"""

from ._robotsmatch import Decision, Matcher, Robots, Store, __version__

__all__ = ["Decision", "Matcher", "Robots", "Store", "__version__"]
