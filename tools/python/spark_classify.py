#!/usr/bin/env python3
"""Classify a crawl log with PySpark (local mode by default) and robotsmatch.

    .venv-py/bin/pip install -r tools/python/requirements-examples.txt   # needs Java 17 (java -version)
    .venv-py/bin/python tools/python/spark_classify.py                       # corpora/sample
    .venv-py/bin/python tools/python/spark_classify.py --robots ../shared/corpora/robots \\
        ../shared/corpora/urls/reddit-2010-0*.txt.gz

How the work is split:

1. The driver reads the robots store (a directory of `<host>.txt` files, `<host>_<port>.txt`
   for a non-default port, as `robotsmatch classify --robots DIR` reads it) into
   {host: body} and broadcasts it: each executor receives it once.
2. The log is read as text lines (plain or .gz), one URL per line; Spark's JVM extracts the
   host key (lower case, `_port` when not 80/443).
3. `repartition(N, "host")` hash-partitions by host, so all URLs of a host land in one
   partition and each Python worker compiles only the bodies of its own hosts.
4. `mapInArrow` hands each partition to a Python worker as Arrow record batches; the worker
   gives each batch's `url` and `host` columns to `robotsmatch.Store.classify` (zero-copy,
   GIL released), which finds every URL's robots.txt by its host and decides it.
5. The `Store` (made with `Store.from_bodies` from the broadcast) lives in the Python worker
   and survives across tasks while Spark reuses the worker (`spark.python.worker.reuse`, on
   by default): each distinct body is compiled once per worker, when its host is first seen.

Prints the verdict counts, the elapsed time of the classification job and URLs/s.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
from typing import Dict, Iterator

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = "url string, host string, verdict string, line int, robots boolean"


def read_store(directory: pathlib.Path) -> Dict[str, bytes]:
    """{host key: robots.txt body} from `<host>.txt` files."""
    return {p.name[: -len(".txt")].lower(): p.read_bytes() for p in directory.glob("*.txt")}


def make_classifier(store_bc, agent: str, profile: str):
    """The function given to mapInArrow (shipped to executors by cloudpickle)."""

    def classify(batches: Iterator["pa.RecordBatch"]) -> Iterator["pa.RecordBatch"]:
        import types

        import robotsmatch

        # A store that lives as long as this Python worker process (this function's own
        # globals are re-created for every task).
        cache = sys.modules.setdefault("_robotsmatch_spark_cache", types.ModuleType("cache"))
        if not hasattr(cache, "stores"):
            cache.stores = {}
        key = (getattr(store_bc, "id", None), agent, profile)
        store = cache.stores.get(key)
        if store is None:
            store = robotsmatch.Store.from_bodies(store_bc.value, agent, profile)
            cache.stores[key] = store

        for batch in batches:
            if len(batch) == 0:
                continue
            # Spark runs one Python worker per core already: one thread each.
            table = store.classify(batch.column("url"), hosts=batch.column("host"), threads=1)
            yield from table.select(["url", "host", "verdict", "line", "robots"]).to_batches()

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
    df = df.repartition(args.partitions, "host")
    classified = df.mapInArrow(make_classifier(store_bc, args.agent, args.profile), SCHEMA)

    baseline = None
    if args.baseline:
        plain = df.mapInArrow(passthrough, SCHEMA)
        plain.groupBy("verdict", "robots").count().collect()  # warm the workers
        t1 = time.perf_counter()
        plain.groupBy("verdict", "robots").count().collect()
        baseline = time.perf_counter() - t1

    # Run 1 compiles every body (and, without --baseline before it, also starts the Python
    # workers and warms the JVM); run 2 finds the workers' stores filled.
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
    for label, elapsed in zip(("run 1 (compiles the bodies)", "run 2 (bodies compiled)"), timings):
        print(f"{label}: classified {total} URLs in {elapsed:.2f} s: {total / elapsed:,.0f} URLs/s "
              "(the whole Spark job: read, host extraction, shuffle by host, Arrow, decide)")
    if baseline is not None:
        print(f"baseline: the same job without robotsmatch took {baseline:.2f} s "
              f"({total / baseline:,.0f} URLs/s)")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
