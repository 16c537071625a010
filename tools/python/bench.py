#!/usr/bin/env python3
"""Batch classification from Python: robotsmatch against Protego (Scrapy's parser) and
urllib.robotparser, same robots.txt file, same URLs, one process.

    .venv-py/bin/pip install -r tools/python/requirements-bench.txt
    .venv-py/bin/python tools/python/bench.py                 # b-shop and d-wildcards
    .venv-py/bin/python tools/python/bench.py --runs 5 a-tiny b-shop c-literal d-wildcards

Workloads are corpora/bench/NAME.txt with its 10,000 URLs NAME.urls (see its README). Each
contender parses and builds once, then decides every URL; the figure is the median of --runs
runs. Every run's answers are checked against the first run's. For each peer, the number of
URLs on which its verdict differs from robotsmatch's (profile google) is printed, and for
urllib.robotparser also the number that differ from robotsmatch's `legacy` profile (the
1994/1996 convention that urllib implements).
"""

from __future__ import annotations

import argparse
import pathlib
import platform
import statistics
import sys
import time
import urllib.robotparser
from typing import Any, Callable, Dict, List, Optional, Tuple

import robotsmatch

try:
    import pyarrow as pa
except ImportError:  # the Arrow row is skipped
    pa = None

try:
    from protego import Protego
except ImportError:
    Protego = None

ROOT = pathlib.Path(__file__).resolve().parents[2]
BENCH = ROOT / "corpora" / "bench"


def load(name: str) -> Tuple[bytes, List[str]]:
    body = (BENCH / f"{name}.txt").read_bytes()
    urls = (BENCH / f"{name}.urls").read_text(encoding="utf-8", errors="replace").splitlines()
    return body, [u for u in urls if u]


def contenders(body: bytes, urls: List[str], agent: str) -> Dict[str, Callable[[], Any]]:
    """name -> a function that decides every URL with a prebuilt matcher (a list of bools,
    or a pyarrow array, converted to a list outside the timing)."""
    text = body.decode("utf-8", errors="replace")
    m = robotsmatch.Robots.parse(body).matcher(agent)
    out: Dict[str, Callable[[], Any]] = {
        "robotsmatch allowed_many(list)": lambda: m.allowed_many(urls),
    }
    if pa is not None:
        arr = pa.array(urls, type=pa.string())
        out["robotsmatch allowed_many(Arrow)"] = lambda: m.allowed_many(arr)
    out["robotsmatch allowed() per URL"] = lambda: [m.allowed(u) for u in urls]
    if Protego is not None:
        rp = Protego.parse(text)
        out["Protego can_fetch"] = lambda: [rp.can_fetch(u, agent) for u in urls]
    ur = urllib.robotparser.RobotFileParser()
    ur.parse(text.splitlines())
    ur.modified()
    out["urllib.robotparser can_fetch"] = lambda: [ur.can_fetch(agent, u) for u in urls]
    return out


def measure(fn: Callable[[], Any], runs: int) -> Tuple[float, List[bool]]:
    first: Optional[List[bool]] = None
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        got = fn()
        times.append(time.perf_counter() - t)
        if hasattr(got, "to_pylist"):
            got = got.to_pylist()
        if first is None:
            first = list(got)
        elif list(got) != first:
            raise SystemExit("answers changed between runs")
    assert first is not None
    return statistics.median(times), first


def rate(n: int, seconds: float) -> str:
    r = n / seconds
    if r >= 1e6:
        return f"{r / 1e6:.2f} M"
    if r >= 1e3:
        return f"{r / 1e3:.0f} k"
    return f"{r:.0f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workloads", nargs="*", default=["b-shop", "d-wildcards"])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--agent", default="Googlebot")
    args = ap.parse_args()
    if Protego is None:
        print("protego is not installed (pip install -r tools/python/requirements-bench.txt): skipped", file=sys.stderr)
    print(
        f"Python {platform.python_version()}, robotsmatch {robotsmatch.__version__}, "
        f"median of {args.runs} runs, agent {args.agent}"
    )
    for name in args.workloads:
        body, urls = load(name)
        n = len(urls)
        legacy = robotsmatch.Robots.parse(body).matcher(args.agent, profile="legacy").allowed_many(urls)
        results = {}
        for label, fn in contenders(body, urls, args.agent).items():
            results[label] = measure(fn, args.runs)
        base_time, base = results["robotsmatch allowed_many(list)"]
        print(f"\n{name}: {n} URLs, {len(body)} bytes, {sum(not a for a in base)} disallowed by robotsmatch")
        print("| contender | median time | URLs/s | time vs batch | verdicts differing from robotsmatch |")
        print("|---|---|---|---|---|")
        for label, (t, got) in results.items():
            differ = sum(a != b for a, b in zip(got, base))
            extra = ""
            if label.startswith("urllib"):
                extra = f" (vs legacy profile: {sum(a != b for a, b in zip(got, legacy))})"
            print(f"| {label} | {t * 1e3:.2f} ms | {rate(n, t)} | ×{t / base_time:.1f} | {differ}{extra} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
