#!/usr/bin/env python3
"""Prints the README's benchmark tables from criterion's results (target/criterion).

Run after `cargo bench -p robotsmatch-benches --bench peers`. For each workload: URLs/s per
core in prebuilt mode (median), the ratio robotsmatch / peer, and the oneshot median time;
then the scaling curves.
"""

import json
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "target", "criterion")
ENGINES = ["robotsmatch", "texting_robots", "fast-robots", "robotparser", "cylon", "robotstxt"]
WORKLOADS = ["a-tiny", "b-shop", "c-literal", "d-wildcards", "e-largest"]


def load(group, bench):
    d = os.path.join(ROOT, group.replace("/", "_"), bench, "new")
    try:
        est = json.load(open(os.path.join(d, "estimates.json")))
        meta = json.load(open(os.path.join(d, "benchmark.json")))
    except FileNotFoundError:
        return None
    median_ns = est["median"]["point_estimate"]
    elements = (meta.get("throughput") or {}).get("Elements", 1)
    return median_ns, elements


def rate(x):
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.0f} k"
    # Below a thousand a `k` would round to 0 (texting_robots on 10,000 wildcard rules).
    return f"{x:.0f}"


def dur(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.0f} ns"


def main():
    print("Prebuilt (build once, decide every URL): URLs/s per core, median; ratio = robotsmatch / peer\n")
    print("| workload | " + " | ".join(ENGINES) + " |")
    print("|---|" + "---|" * len(ENGINES))
    for w in WORKLOADS:
        cells = []
        ours = load(f"{w}/prebuilt", "robotsmatch")
        ours_rate = ours[1] / ours[0] * 1e9 if ours else None
        for e in ENGINES:
            r = load(f"{w}/prebuilt", e.replace("/", "_"))
            if r is None:
                cells.append("n/a")
                continue
            x = r[1] / r[0] * 1e9
            if e == "robotsmatch" or ours_rate is None:
                cells.append(rate(x))
            else:
                cells.append(f"{rate(x)} (×{ours_rate / x:.1f})")
        print(f"| {w} | " + " | ".join(cells) + " |")
    # Oneshot: `robotsmatch` is `Matcher::decide_once`; `robotsmatch-matcher` is
    # `Matcher::from_bytes` then `decide` (what a crawler asking a few URLs would keep).
    oneshot = ["robotsmatch", "robotsmatch-matcher"] + ENGINES[1:]
    print("\nOneshot (parse + build + decide one URL): median time; ratio = peer / robotsmatch (decide_once)\n")
    print("| workload | robotsmatch (decide_once) | robotsmatch (Matcher) | " + " | ".join(ENGINES[1:]) + " |")
    print("|---|" + "---|" * len(oneshot))
    for w in WORKLOADS:
        cells = []
        ours = load(f"{w}/oneshot", "robotsmatch")
        for e in oneshot:
            r = load(f"{w}/oneshot", e)
            if r is None:
                cells.append("n/a")
            elif e == "robotsmatch" or ours is None:
                cells.append(dur(r[0]))
            else:
                cells.append(f"{dur(r[0])} (×{r[0] / ours[0]:.1f})")
        print(f"| {w} | " + " | ".join(cells) + " |")
    print("\nScaling: decide (URLs/s per core, 80-byte URLs) and build time against the number of rules\n")
    print("| rules | kind | robotsmatch decide | texting_robots decide | robotsmatch build | texting_robots build |")
    print("|---|---|---|---|---|---|")
    for kind in ["literal", "wildcard"]:
        for n in [10, 100, 1000, 10000]:
            d = f"scaling/decide-{kind}-rules-{n}"
            b = f"scaling/build-{kind}-rules-{n}"
            cells = []
            for e in ["robotsmatch", "texting_robots"]:
                r = load(d, e)
                cells.append(rate(r[1] / r[0] * 1e9) if r else "n/a")
            for e in ["robotsmatch", "texting_robots"]:
                r = load(b, e)
                cells.append(dur(r[0]) if r else "n/a")
            print(f"| {n} | {kind} | " + " | ".join(cells) + " |")
    print("\nScaling: decide against URL length (b-shop rules), URLs/s per core\n")
    print("| URL bytes | robotsmatch | texting_robots |")
    print("|---|---|---|")
    for n in [32, 128, 512, 2048]:
        cells = []
        for e in ["robotsmatch", "texting_robots"]:
            r = load(f"scaling/url-length-{n}", e)
            cells.append(rate(r[1] / r[0] * 1e9) if r else "n/a")
        print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
