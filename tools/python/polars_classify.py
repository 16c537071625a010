#!/usr/bin/env python3
"""Classify a crawl log with Polars and robotsmatch, one process.

    .venv-py/bin/pip install -r tools/python/requirements-examples.txt   # polars, pyarrow
    .venv-py/bin/python tools/python/polars_classify.py                      # corpora/sample
    .venv-py/bin/python tools/python/polars_classify.py --robots ../shared/corpora/robots \\
        ../shared/corpora/urls/reddit-2010-0*.txt.gz

The robots store (a directory of `<host>.txt` files, as `robotsmatch classify --robots DIR`
reads it) becomes a `robotsmatch.Store`. Two ways in, both on all cores with the GIL released,
both answered with an Arrow table that Polars takes without a copy:

- `Store.classify_log(paths)`: robotsmatch reads the log itself (plain or gzip, memory-mapped
  when plain) and gives one row per line;
- `Store.classify(series)`: URLs already in a Polars frame (here: the log read by Polars), one
  row per URL, the frame's own column passed as Arrow.

Each host's robots.txt is compiled when the host is first seen (identical bodies once) and
kept in the store, so the second run finds everything compiled. Prints the verdict counts, the
elapsed times and URLs/s.
"""

from __future__ import annotations

import argparse
import gzip
import pathlib
import sys
import time

import polars as pl

import robotsmatch

ROOT = pathlib.Path(__file__).resolve().parents[2]


def read_log(paths) -> pl.DataFrame:
    """The log's lines as a one-column frame (what a crawler's own frame of URLs would be)."""
    lines = []
    for path in paths:
        raw = pathlib.Path(path).read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        lines.extend(raw.decode("utf-8", errors="replace").splitlines())
    return pl.DataFrame({"url": lines}, schema={"url": pl.String})


def verdict_counts(df: pl.DataFrame) -> pl.DataFrame:
    return df.group_by("verdict", "robots").len().sort("len", descending=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", default=[str(ROOT / "corpora/sample/urls.txt")])
    ap.add_argument("--robots", default=str(ROOT / "corpora/sample/robots"))
    ap.add_argument("--agent", default="Googlebot")
    ap.add_argument("--profile", default="google")
    args = ap.parse_args()

    store = robotsmatch.Store.open(args.robots, args.agent, args.profile)
    timings = []
    out = None
    for _ in range(2):  # run 1 compiles the bodies, run 2 finds them in the store
        t0 = time.perf_counter()
        out = pl.from_arrow(store.classify_log(args.logs))
        timings.append(("classify_log", time.perf_counter() - t0))
    assert isinstance(out, pl.DataFrame)
    frame = read_log(args.logs)
    t0 = time.perf_counter()
    from_frame = pl.from_arrow(store.classify(frame["url"].to_arrow()))
    timings.append(("classify (a Polars column)", time.perf_counter() - t0))
    assert isinstance(from_frame, pl.DataFrame)
    assert verdict_counts(from_frame).equals(verdict_counts(out)), "both ways give the same verdicts"

    total = out.height
    print(f"log: {', '.join(args.logs)} ({total} lines)")
    print(f"store: {store.file_count} robots.txt files, {store.compiled_count} distinct bodies compiled, "
          f"{out['host'].n_unique()} hosts, agent {args.agent}")
    for row in verdict_counts(out).iter_rows(named=True):
        where = "host has robots.txt" if row["robots"] else "no robots.txt"
        print(f"  {row['verdict']:<11} {row['len']:>9}  ({where})")
    labels = ["run 1 (compiles the bodies)", "run 2 (bodies compiled)", "run 3"]
    for label, (how, elapsed) in zip(labels, timings):
        print(f"{label}, {how}: {total} URLs in {elapsed:.2f} s: {total / elapsed:,.0f} URLs/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
