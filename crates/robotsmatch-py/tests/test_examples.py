"""The Python side of tools/python/spark_classify.py (its mapInArrow function), without Spark:
record batches of URLs and their hosts, as the job makes them, give what decide gives URL by
URL."""

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
    # Batches as the job makes them: partitioned by host (here: one partition), not sorted.
    hosts = [host_key(u) or None for u in urls]
    batches = [
        pa.RecordBatch.from_arrays(
            [pa.array(urls[i : i + 500]), pa.array(hosts[i : i + 500], pa.string())],
            names=["url", "host"],
        )
        for i in range(0, len(urls), 500)
    ]
    sys.modules.pop("_robotsmatch_spark_cache", None)
    classify = example.make_classifier(FakeBroadcast(store), "Googlebot", "google")
    out = pa.Table.from_batches(list(classify(iter(batches)))).to_pylist()
    assert [r["url"] for r in out] == urls
    assert list(out[0]) == ["url", "host", "verdict", "line", "robots"]
    matchers = {}
    seen_disallowed = 0
    for r, host in zip(out, hosts):
        if host is None:
            assert (r["verdict"], r["line"], r["robots"]) == ("invalid", None, False), r
            continue
        assert r["host"] == host, r
        if host not in store:
            assert (r["verdict"], r["line"], r["robots"]) == ("allowed", None, False), r
            continue
        m = matchers.setdefault(host, Matcher(store[host], "Googlebot"))
        d = m.decide(r["url"])
        verdict = "allowed" if d.allowed else "disallowed"
        assert (r["verdict"], r["line"], r["robots"]) == (verdict, d.line, True), r
        seen_disallowed += not d.allowed
    assert seen_disallowed > 50
    # One store per worker, kept for its next task; one compiled body per distinct body seen.
    cache = sys.modules["_robotsmatch_spark_cache"]
    (kept,) = cache.stores.values()
    assert kept.compiled_count == len({store[h] for h in matchers})
    again = pa.Table.from_batches(list(classify(iter(batches)))).to_pylist()
    assert again == out
    assert len(cache.stores) == 1
