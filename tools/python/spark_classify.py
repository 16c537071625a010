#!/usr/bin/env python3
"""Classify a crawl log with PySpark (local mode by default) and robotsmatch.

    .venv-py/bin/pip install pyspark            # needs a Java runtime (java -version)
    .venv-py/bin/python tools/python/spark_classify.py                       # corpora/sample
    .venv-py/bin/python tools/python/spark_classify.py --robots ../shared/corpora/robots \\
        ../shared/corpora/urls/reddit-2010-0*.txt.gz

How the work is split:

1. The driver reads the robots store (a directory of `<host>.txt` files, `<host>_<port>.txt`
   for a non-default port, as `robotsmatch classify --robots DIR` reads it) into
   {host: body} and broadcasts it: each executor receives it once.
2. The log is read as text lines (plain or .gz), one URL per line; Spark's JVM extracts the
   host (lower case, `_port` when not 80/443).
3. `repartition(N, "host")` hash-partitions by host, so all URLs of a host land in one
   partition, and `sortWithinPartitions("host")` makes each host's URLs contiguous.
4. `mapInArrow` hands each partition to a Python worker as Arrow record batches. For each
   run of one host in a batch, the worker takes that host's compiled matcher and calls
   `decide_many` once on the zero-copy slice of the URL column.
5. Matchers live in a per-worker cache keyed by the hash of the robots.txt body (identical
   bodies compile once) that survives across tasks while Spark reuses the Python worker
   (`spark.python.worker.reuse`, on by default).

Prints the verdict counts, the elapsed time of the classification job and URLs/s.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
from typing import Dict, Iterator, List

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = "url string, host string, verdict string, line int, robots boolean"


def read_store(directory: pathlib.Path) -> Dict[str, bytes]:
    """{host key: robots.txt body} from `<host>.txt` files."""
    return {p.name[: -len(".txt")].lower(): p.read_bytes() for p in directory.glob("*.txt")}


def make_classifier(store_bc, agent: str, profile: str):
    """The function given to mapInArrow (shipped to executors by cloudpickle)."""

    def classify(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import hashlib
        import types

        import pyarrow as pa
        import pyarrow.compute as pc
        import robotsmatch

        # A cache that lives as long as this Python worker process (this function's own
        # globals are re-created for every task).
        cache = sys.modules.setdefault("_robotsmatch_spark_cache", types.ModuleType("cache"))
        if not hasattr(cache, "by_body"):
            cache.by_body = {}  # (body hash, agent, profile) -> Matcher
            cache.by_host = {}  # (host, agent, profile) -> Matcher or None
        store = store_bc.value

        def matcher_for(host):
            key = (host, agent, profile)
            if key not in cache.by_host:
                body = store.get(host)
                m = None
                if body is not None:
                    digest = (hashlib.blake2b(body, digest_size=16).digest(), agent, profile)
                    m = cache.by_body.get(digest)
                    if m is None:
                        m = robotsmatch.Robots.parse(body).matcher(agent, profile)
                        cache.by_body[digest] = m
                cache.by_host[key] = m
            return cache.by_host[key]

        for batch in batches:
            urls = batch.column("url")
            hosts = batch.column("host")
            if len(batch) == 0:
                continue
            runs = pc.run_end_encode(hosts)  # hosts are sorted: one run per host
            ends = runs.run_ends.to_pylist()
            values = runs.values.to_pylist()
            allowed: List[pa.Array] = []
            lines: List[pa.Array] = []
            robots: List[pa.Array] = []
            start = 0
            for end, host in zip(ends, values):
                n = end - start
                m = matcher_for(host) if host else None
                if m is not None:
                    decided = m.decide_many(urls.slice(start, n))
                    allowed.append(decided.field("allowed"))
                    lines.append(decided.field("line"))
                else:  # no robots.txt: allowed; no host: invalid (null)
                    allowed.append(pa.array([True] * n if host else [None] * n, pa.bool_()))
                    lines.append(pa.nulls(n, pa.int32()))
                robots.append(pa.array([m is not None] * n, pa.bool_()))
                start = end
            allowed_col = pa.concat_arrays(allowed)
            verdict = pc.if_else(allowed_col, "allowed", "disallowed").fill_null("invalid")
            yield pa.RecordBatch.from_arrays(
                [urls, hosts, verdict.cast(pa.string()), pa.concat_arrays(lines), pa.concat_arrays(robots)],
                schema=pa.schema(
                    [
                        ("url", pa.string()),
                        ("host", pa.string()),
                        ("verdict", pa.string()),
                        ("line", pa.int32()),
                        ("robots", pa.bool_()),
                    ]
                ),
            )

    return classify


def passthrough(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
    """The same pipeline without robotsmatch (every URL "allowed"): Spark's own cost."""
    import pyarrow as pa

    for batch in batches:
        n = len(batch)
        yield pa.RecordBatch.from_arrays(
            [batch.column("url"), batch.column("host"), pa.array(["allowed"] * n, pa.string()),
             pa.nulls(n, pa.int32()), pa.array([False] * n, pa.bool_())],
            names=["url", "host", "verdict", "line", "robots"],
        )


def host_column(F, url):
    """The store key of a URL's host, computed by Spark (None when the line has no host)."""
    auth = F.regexp_extract(url, r"^\s*[A-Za-z][A-Za-z0-9+.\-]*://([^/?#\s]*)", 1)
    auth = F.regexp_replace(auth, r"^.*@", "")
    host = F.lower(F.regexp_extract(auth, r"^(\[[^\]]*\]|[^:]*)", 1))
    port = F.regexp_extract(auth, r"^(?:\[[^\]]*\]|[^:]*):(\d+)$", 1)
    key = F.when((port == "") | port.isin("80", "443"), host).otherwise(F.concat(host, F.lit("_"), port))
    return F.when(host == "", F.lit(None)).otherwise(key)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", default=[str(ROOT / "corpora/sample/urls.txt")])
    ap.add_argument("--robots", default=str(ROOT / "corpora/sample/robots"))
    ap.add_argument("--agent", default="Googlebot")
    ap.add_argument("--profile", default="google")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--batch", type=int, default=10000, help="rows per Arrow batch")
    ap.add_argument("--baseline", action="store_true",
                    help="also time the same job with a pass-through instead of robotsmatch")
    args = ap.parse_args()

    # The executors' Python must be this one (with robotsmatch installed).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    t0 = time.perf_counter()
    store = read_store(pathlib.Path(args.robots))
    spark = (
        SparkSession.builder.master(args.master)
        .appName("robotsmatch-classify")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(args.batch))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    store_bc = spark.sparkContext.broadcast(store)
    setup = time.perf_counter() - t0

    df = spark.read.text(args.logs).withColumnRenamed("value", "url")
    df = df.withColumn("host", host_column(F, F.col("url")))
    df = df.repartition(args.partitions, "host").sortWithinPartitions("host")
    classified = df.mapInArrow(make_classifier(store_bc, args.agent, args.profile), SCHEMA)

    baseline = None
    if args.baseline:
        plain = df.mapInArrow(passthrough, SCHEMA)
        plain.groupBy("verdict", "robots").count().collect()  # warm the workers
        t1 = time.perf_counter()
        plain.groupBy("verdict", "robots").count().collect()
        baseline = time.perf_counter() - t1

    # Run 1 compiles every matcher (and, without --baseline before it, also starts the Python
    # workers and warms the JVM); run 2 finds the workers' matcher caches filled.
    timings = []
    for _ in range(2):
        t1 = time.perf_counter()
        rows = classified.groupBy("verdict", "robots").count().collect()
        timings.append(time.perf_counter() - t1)

    counts = {(r["verdict"], r["robots"]): r["count"] for r in rows}
    total = sum(counts.values())
    print(f"store: {len(store)} robots.txt files ({sum(map(len, store.values()))} bytes), "
          f"read and broadcast in {setup:.1f} s (Spark start included)")
    print(f"log: {', '.join(args.logs)}")
    print(f"partitions: {args.partitions} by host, master {args.master}, agent {args.agent}")
    for (verdict, robots), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        where = "host has robots.txt" if robots else "no robots.txt"
        print(f"  {verdict:<11} {n:>9}  ({where})")
    for label, elapsed in zip(("run 1 (compiles the matchers)", "run 2 (matchers cached)"), timings):
        print(f"{label}: classified {total} URLs in {elapsed:.2f} s: {total / elapsed:,.0f} URLs/s "
              "(the whole Spark job: read, host extraction, shuffle by host, sort, Arrow, decide)")
    if baseline is not None:
        print(f"baseline: the same job without robotsmatch took {baseline:.2f} s "
              f"({total / baseline:,.0f} URLs/s)")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
