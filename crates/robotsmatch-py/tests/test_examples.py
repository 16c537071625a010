"""The Python side of tools/python/spark_classify.py (its mapInArrow function), without Spark:
record batches sorted by host, as the job makes them, give what decide gives URL by URL."""

from __future__ import annotations

import importlib.util
import sys

import pyarrow as pa

from robotsmatch import Matcher

from conftest import ROOT, SAMPLE
from test_cli import host_key


def _spark_example():
    path = ROOT / "tools" / "python" / "spark_classify.py"
    spec = importlib.util.spec_from_file_location("spark_classify", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # imports pyspark only when main() runs
    return module


class FakeBroadcast:
    def __init__(self, value):
        self.value = value


def test_spark_map_in_arrow_function_equals_decide():
    example = _spark_example()
    store = example.read_store(SAMPLE / "robots")
    raw = (SAMPLE / "urls.txt").read_bytes().splitlines()
    urls = [u.decode("utf-8", errors="replace") for u in raw]
    urls += ["https://no-robots.example/x", "not a url", "https://no-robots.example/y"]
    rows = sorted(((host_key(u), u) for u in urls), key=lambda r: (r[0] is None, r[0] or ""))
    hosts = [h if h else None for h, _ in rows]
    ordered = [u for _, u in rows]
    batches = [
        pa.RecordBatch.from_arrays(
            [pa.array(ordered[i : i + 500]), pa.array(hosts[i : i + 500], pa.string())],
            names=["url", "host"],
        )
        for i in range(0, len(ordered), 500)  # a host's run may span two batches
    ]
    sys.modules.pop("_robotsmatch_spark_cache", None)
    classify = example.make_classifier(FakeBroadcast(store), "Googlebot", "google")
    out = pa.Table.from_batches(list(classify(iter(batches)))).to_pylist()
    assert [r["url"] for r in out] == ordered
    matchers = {}
    seen_disallowed = 0
    for r in out:
        host = r["host"]
        if host is None:
            assert (r["verdict"], r["line"], r["robots"]) == ("invalid", None, False), r
            continue
        if host not in store:
            assert (r["verdict"], r["line"], r["robots"]) == ("allowed", None, False), r
            continue
        m = matchers.setdefault(host, Matcher(store[host], "Googlebot"))
        d = m.decide(r["url"])
        verdict = "allowed" if d.allowed else "disallowed"
        assert (r["verdict"], r["line"], r["robots"]) == (verdict, d.line, True), r
        seen_disallowed += not d.allowed
    assert seen_disallowed > 50
    # One compiled matcher per distinct body, kept for the worker's next task.
    cache = sys.modules["_robotsmatch_spark_cache"]
    assert len(cache.by_body) == len({store[h] for h in matchers})
