"""One matcher shared by many threads gives what it gives sequentially."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa

from robotsmatch import Robots

from conftest import BENCH


def _workload(name: str):
    body = (BENCH / f"{name}.txt").read_bytes()
    urls = (BENCH / f"{name}.urls").read_text(encoding="utf-8", errors="replace").splitlines()
    return body, urls


def test_eight_threads_share_one_matcher():
    # d-wildcards compiles to the split/lazy layouts, whose caches are per thread.
    for name in ("b-shop", "d-wildcards"):
        body, urls = _workload(name)
        m = Robots.parse(body).matcher("Googlebot")
        sequential = [(d.allowed, d.line) for d in map(m.decide, urls)]
        assert any(not a for a, _ in sequential) and any(a for a, _ in sequential)
        barrier = threading.Barrier(8)

        def work(i: int):
            barrier.wait()
            if i % 3 == 0:
                return [(d.allowed, d.line) for d in map(m.decide, urls)]
            if i % 3 == 1:
                return m.decide_many(urls)
            rows = m.decide_many(pa.array(urls)).to_pylist()
            return [(r["allowed"], r["line"]) for r in rows]

        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(work, range(8)))
        for i, r in enumerate(results):
            assert r == sequential, (name, i)


def test_matchers_built_concurrently_from_one_robots():
    body, urls = _workload("b-shop")
    robots = Robots.parse(body)
    expected = robots.matcher("Googlebot").allowed_many(urls)
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda _: robots.matcher("Googlebot").allowed_many(urls), range(8)))
    assert all(g == expected for g in got)
