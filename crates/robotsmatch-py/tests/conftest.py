"""Shared data for the Python tests: the real sample of the repository (corpora/sample)."""

from __future__ import annotations

import pathlib
from typing import List, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "corpora" / "sample"
BENCH = ROOT / "corpora" / "bench"
EXAMPLES = ROOT / "corpora" / "examples"

# A crawler named in many files, and one named in none (it gets the `*` groups).
AGENTS = ["Googlebot", "RobotsmatchTestbot"]


def derived_paths(robots_body: bytes, limit: int = 150) -> List[bytes]:
    """Paths made from a file's rules (as the Rust corpus test does): each pattern plain,
    with `*` filled, extended and cut short, so that rules match, almost match and miss."""
    out = [b"/", b"/index.html", b"/search?q=robots", b"/a/b/c.pdf", b"/robots.txt"]
    for raw in robots_body.splitlines():
        line = raw.split(b"#", 1)[0].strip()
        key, sep, value = line.partition(b":")
        if not sep or key.strip().lower() not in (b"allow", b"disallow"):
            continue
        p = value.strip()
        if not p:
            continue
        plain = p.replace(b"*", b"").replace(b"$", b"")
        filled = p.replace(b"*", b"x/y").replace(b"$", b"")
        for path in (plain, filled, plain + b"x", plain + b"/a.html", plain + b"?q=1", plain[:-1]):
            if not path.startswith(b"/"):
                path = b"/" + path
            out.append(path)
        if len(out) >= limit:
            break
    return out


@pytest.fixture(scope="session")
def sample_files() -> List[Tuple[str, bytes]]:
    """(host, body) for every robots.txt file of the sample."""
    files = sorted(p for p in (SAMPLE / "robots").glob("*.txt"))
    assert len(files) > 200, f"the sample in {SAMPLE} looks incomplete"
    return [(p.name[: -len(".txt")], p.read_bytes()) for p in files]


@pytest.fixture(scope="session")
def sample_urls() -> List[str]:
    """The sample's real URLs (a few have non-UTF-8 bytes: those are replaced)."""
    raw = (SAMPLE / "urls.txt").read_bytes().splitlines()
    urls = [u.decode("utf-8", errors="replace") for u in raw if u.strip()]
    assert len(urls) > 3000
    return urls


def urls_for(host: str, body: bytes, sample_urls: List[str]) -> List[str]:
    """Every sample URL, plus paths derived from this file's rules under its host."""
    derived = [
        f"https://{host}" + p.decode("utf-8", errors="replace") for p in derived_paths(body)
    ]
    return derived + sample_urls
