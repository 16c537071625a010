#!/usr/bin/env python3
"""Classify a crawl log with Polars and robotsmatch, one process.

    .venv-py/bin/pip install polars
    .venv-py/bin/python tools/python/polars_classify.py                      # corpora/sample
    .venv-py/bin/python tools/python/polars_classify.py --robots ../shared/corpora/robots \\
        ../shared/corpora/urls/reddit-2010-0*.txt.gz

The log (one URL per line, plain or .gz) becomes a Polars frame; Polars extracts the host
(lower case, `_port` when not 80/443, as in the `robotsmatch classify` store), groups the
URLs of hosts that have a robots.txt by host (sorted, one run of rows per host), and each
host's run of the URL column goes to its compiled matcher as a zero-copy Arrow slice
(`decide_many`, GIL released). Hosts without a robots.txt are allowed without a call. Identical robots.txt bodies compile once (keyed by a hash of the body). Prints
the verdict counts, the elapsed time and URLs/s.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import pathlib
import sys
import time
from typing import Dict, Optional, Tuple

import polars as pl
import pyarrow as pa

import robotsmatch

ROOT = pathlib.Path(__file__).resolve().parents[2]
HOST_RE = r"^\s*[A-Za-z][A-Za-z0-9+.\-]*://(?:[^/?#@\s]*@)?(\[[^\]]*\]|[^/?#:\s]*)(?::(\d+))?"


def read_log(path: str) -> pl.DataFrame:
    raw = pathlib.Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    lines = raw.decode("utf-8", errors="replace").splitlines()
    return pl.DataFrame({"url": [line for line in lines if line.strip()]}, schema={"url": pl.String})


class Store:
    """robots.txt bodies by host key, compiled on first use; identical bodies compile once."""

    def __init__(self, directory: pathlib.Path, agent: str, profile: str) -> None:
        self.bodies = {p.name[: -len(".txt")].lower(): p for p in directory.glob("*.txt")}
        self.agent, self.profile = agent, profile
        self.by_body: Dict[bytes, robotsmatch.Matcher] = {}
        self.by_host: Dict[str, Optional[robotsmatch.Matcher]] = {}

    def matcher(self, host: str) -> Optional[robotsmatch.Matcher]:
        if host not in self.by_host:
            path = self.bodies.get(host)
            m = None
            if path is not None:
                body = path.read_bytes()
                digest = hashlib.blake2b(body, digest_size=16).digest()
                m = self.by_body.get(digest)
                if m is None:
                    m = robotsmatch.Robots.parse(body).matcher(self.agent, self.profile)
                    self.by_body[digest] = m
            self.by_host[host] = m
        return self.by_host[host]


def classify(df: pl.DataFrame, store: Store) -> pl.DataFrame:
    """Adds `host`, `allowed` (null for a line without a host), `line` and `robots`."""
    port = pl.col("url").str.extract(HOST_RE, 2)
    host = pl.col("url").str.extract(HOST_RE, 1).str.to_lowercase()
    key = (
        pl.when(port.is_null() | port.is_in(["80", "443"]))
        .then(host)
        .otherwise(pl.concat_str([host, pl.lit("_"), port]))
    )
    df = df.with_columns(pl.when(host == "").then(None).otherwise(key).alias("host"))
    df = df.with_columns(pl.col("host").is_in(list(store.bodies)).fill_null(False).alias("robots"))

    # Hosts without a robots.txt need no matcher: allowed (or invalid without a host).
    without = df.filter(~pl.col("robots")).with_columns(
        pl.col("host").is_not_null().alias("allowed"), pl.lit(None, pl.Int32).alias("line")
    )
    # Hosts with one, grouped by host (sorted, so that each host is one run of rows): one
    # decide_many call per host on a zero-copy Arrow slice of the URL column.
    with_robots = df.filter(pl.col("robots")).sort("host")
    runs = with_robots.select(pl.col("host").rle()).unnest("host")
    urls = with_robots["url"].to_arrow()
    allowed, lines = [], []
    start = 0
    for n, h in runs.iter_rows():
        decided = store.matcher(h).decide_many(urls.slice(start, n))
        allowed.append(decided.field("allowed"))
        lines.append(decided.field("line"))
        start += n
    if allowed:
        with_robots = with_robots.with_columns(
            pl.Series("allowed", pa.chunked_array(allowed, pa.bool_())),
            pl.Series("line", pa.chunked_array(lines, pa.int32())),
        )
    else:
        with_robots = with_robots.with_columns(pl.lit(None, pl.Boolean).alias("allowed"), pl.lit(None, pl.Int32).alias("line"))
    return pl.concat([with_robots, without.select(with_robots.columns)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", default=[str(ROOT / "corpora/sample/urls.txt")])
    ap.add_argument("--robots", default=str(ROOT / "corpora/sample/robots"))
    ap.add_argument("--agent", default="Googlebot")
    ap.add_argument("--profile", default="google")
    args = ap.parse_args()

    t0 = time.perf_counter()
    df = pl.concat([read_log(p) for p in args.logs])
    read = time.perf_counter() - t0
    timings = []
    out = None
    store = Store(pathlib.Path(args.robots), args.agent, args.profile)
    for _ in range(2):  # run 1 compiles the matchers, run 2 finds them cached
        t1 = time.perf_counter()
        out = classify(df, store)
        timings.append(time.perf_counter() - t1)
    assert out is not None
    verdict = (
        pl.when(pl.col("allowed").is_null())
        .then(pl.lit("invalid"))
        .when(pl.col("allowed"))
        .then(pl.lit("allowed"))
        .otherwise(pl.lit("disallowed"))
    )
    counts = out.group_by(verdict.alias("verdict"), "robots").len().sort("len", descending=True)
    total = out.height
    print(f"log: {', '.join(args.logs)} ({total} URLs, read in {read:.2f} s)")
    print(f"store: {len(store.bodies)} robots.txt files, {len(store.by_body)} distinct bodies compiled, "
          f"{out['host'].n_unique()} hosts, agent {args.agent}")
    for row in counts.iter_rows(named=True):
        where = "host has robots.txt" if row["robots"] else "no robots.txt"
        print(f"  {row['verdict']:<11} {row['len']:>9}  ({where})")
    for label, elapsed in zip(("run 1 (compiles the matchers)", "run 2 (matchers cached)"), timings):
        print(f"{label}: classified {total} URLs in {elapsed:.2f} s: {total / elapsed:,.0f} URLs/s "
              "(host extraction, group by host, decide)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
