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
`robotsmatch.scrapy.RobotsMatchParser` is a drop-in robots.txt parser for Scrapy.
"""

from ._robotsmatch import Decision, Matcher, Robots, __version__

__all__ = ["Decision", "Matcher", "Robots", "__version__"]
