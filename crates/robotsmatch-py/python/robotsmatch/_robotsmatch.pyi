"""Type stubs of the native module (re-exported by ``robotsmatch``)."""

import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, final, overload

__all__ = ["Decision", "Matcher", "Robots", "Store", "__version__"]

__version__: str

_Body = Union[bytes, bytearray, str]
_Url = Union[str, bytes]
_Path = Union[str, "os.PathLike[str]"]
_Paths = Union[_Path, Sequence[_Path]]

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

@final
class Store:
    """robots.txt files per host, compiled for one crawler when their host is first seen."""

    @staticmethod
    def open(path: _Path, agent: str, profile: str = "google") -> Store: ...
    @staticmethod
    def from_bodies(bodies: Mapping[str, _Body], agent: str, profile: str = "google") -> Store: ...
    @staticmethod
    def from_warc(paths: _Paths, agent: str, profile: str = "google") -> Store: ...
    def classify_log(
        self,
        logs: _Paths,
        *,
        threads: Optional[int] = None,
        column: Optional[int] = None,
        delimiter: str = "\t",
        decode_amp: bool = False,
    ) -> Any:
        """A pyarrow Table: url, host, verdict, line, rule, robots; one row per line."""
    def count_log(
        self,
        logs: _Paths,
        *,
        threads: Optional[int] = None,
        column: Optional[int] = None,
        delimiter: str = "\t",
        decode_amp: bool = False,
    ) -> Dict[str, Any]: ...
    def classify(
        self,
        urls: Any,
        hosts: Any = None,
        *,
        threads: Optional[int] = None,
        decode_amp: bool = False,
    ) -> Any:
        """A pyarrow Table: the input url column, then host, verdict, line, rule, robots."""
    def count(
        self,
        urls: Any,
        hosts: Any = None,
        *,
        threads: Optional[int] = None,
        decode_amp: bool = False,
    ) -> Dict[str, Any]: ...
    @property
    def agent(self) -> str: ...
    @property
    def profile(self) -> str: ...
    @property
    def file_count(self) -> int: ...
    @property
    def compiled_count(self) -> int: ...
    @property
    def problems(self) -> List[str]: ...
