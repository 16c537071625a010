"""Type stubs of the native module (re-exported by ``robotsmatch``)."""

from typing import Any, List, Optional, Tuple, Union, final, overload

__all__ = ["Decision", "Matcher", "Robots", "__version__"]

__version__: str

_Body = Union[bytes, bytearray, str]
_Url = Union[str, bytes]

@final
class Decision:
    """The verdict for one URL and the rule that decided it (None when no rule did)."""

    allowed: bool
    kind: Optional[str]
    pattern: Optional[str]
    line: Optional[int]
    def __new__(
        cls,
        allowed: bool,
        kind: Optional[str] = None,
        pattern: Optional[str] = None,
        line: Optional[int] = None,
    ) -> Decision: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Robots:
    """A parsed robots.txt file (the first 500 KiB; the line the limit cuts is dropped)."""

    @staticmethod
    def parse(body: _Body) -> Robots: ...
    def matcher(self, agent: str, profile: str = "google") -> Matcher: ...
    def crawl_delay(self, agent: str, profile: str = "google") -> Optional[float]: ...
    def request_rate(self, agent: str, profile: str = "google") -> Optional[Tuple[int, float]]: ...
    @property
    def sitemaps(self) -> List[str]: ...
    @property
    def warnings(self) -> List[str]: ...
    @property
    def body(self) -> bytes: ...
    @property
    def size(self) -> int: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def rule_count(self) -> int: ...

@final
class Matcher:
    """One crawler's compiled rules; immutable, thread-safe, picklable."""

    def __new__(cls, body: _Body, agent: str, profile: str = "google") -> Matcher: ...
    def allowed(self, url: _Url) -> bool: ...
    def decide(self, url: _Url) -> Decision: ...
    @overload
    def allowed_many(self, urls: Union[List[_Url], Tuple[_Url, ...]]) -> List[bool]: ...
    @overload
    def allowed_many(self, urls: Any) -> Any:
        """An Arrow array or chunked array of strings gives a pyarrow BooleanArray / ChunkedArray."""
    @overload
    def decide_many(
        self, urls: Union[List[_Url], Tuple[_Url, ...]]
    ) -> List[Tuple[bool, Optional[int]]]: ...
    @overload
    def decide_many(self, urls: Any) -> Any:
        """An Arrow array or chunked array of strings gives a pyarrow struct array {allowed, line}."""
    @property
    def agent(self) -> str: ...
    @property
    def profile(self) -> str: ...
    @property
    def engine(self) -> str: ...
    @property
    def rule_count(self) -> int: ...
