#!/usr/bin/env python3
"""Builds the multi-host benchmark log for `classify` (deterministic, seeded).

The real Reddit 2010 URLs of ../shared/corpora/urls, plus one URL for every host of the real
robots store (so that the whole store gets compiled), shuffled, and repeated (reshuffled each
time) until the log is at least --size bytes.

Usage: python3 tools/make-bench-log.py [--corpora ../shared/corpora] [--size 1G] OUT
       python3 tools/make-bench-log.py [--corpora ../shared/corpora] --one-per-host OUT
       python3 tools/make-bench-log.py --grouped N --from LOG OUT

With --one-per-host, the log is one URL for every host of the robots store, shuffled, once: the
job where every robots.txt is met once (a crawler's first visit to each host).

With --grouped N, OUT is LOG with each run of N lines reordered host by host (hosts in the
order they first appear in the run, each host's lines in their order): the same URLs, the
same work, but each host's state (its table entry, matcher and caches) used for all of its
URLs of the run in a row. Timing `classify` on both tells how much of the job is waiting for
that state to come back into the cache (README, "where the time goes").
"""

import argparse
import gzip
import itertools
import os
import random


def parse_size(s):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(s[:-1]) * units[s[-1].upper()]) if s[-1].upper() in units else int(s)


def host_of(line):
    """The authority of an absolute URL line (b"" for anything else)."""
    parts = line.split(b"/", 3)
    return parts[2] if len(parts) > 2 else b""


def grouped(source, n, out_path):
    """Writes source with each run of n lines grouped by host (see the module doc), reading
    one run at a time."""
    total = 0
    with open(source, "rb") as f, open(out_path, "wb") as out:
        while True:
            run = [line.rstrip(b"\n") for line in itertools.islice(f, n)]
            if not run:
                break
            total += len(run)
            groups = {}
            for line in run:
                groups.setdefault(host_of(line), []).append(line)
            out.write(b"".join(line + b"\n" for g in groups.values() for line in g))
    print(f"{out_path}: {total} lines, runs of {n} grouped by host")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpora"))
    ap.add_argument("--size", default="1G")
    ap.add_argument("--one-per-host", action="store_true")
    ap.add_argument("--grouped", type=int, metavar="N")
    ap.add_argument("--from", dest="source", metavar="LOG")
    ap.add_argument("out")
    a = ap.parse_args()
    if a.grouped is not None:
        if a.grouped < 1 or not a.source:
            ap.error("--grouped needs a run length of at least 1 and --from LOG")
        grouped(a.source, a.grouped, a.out)
        return
    if a.one_per_host:
        hosts = sorted(n[:-4] for n in os.listdir(os.path.join(a.corpora, "robots")) if n.endswith(".txt"))
        random.Random(9309).shuffle(hosts)
        with open(a.out, "wb") as out:
            for h in hosts:
                out.write(b"https://" + h.replace("_", ":").encode() + b"/index.html?from=robotsmatch-bench\n")
        print(f"{a.out}: {len(hosts)} URLs, one per host")
        return
    urls = []
    for name in sorted(os.listdir(os.path.join(a.corpora, "urls"))):
        if name.startswith("reddit-") and name.endswith(".txt.gz"):
            with gzip.open(os.path.join(a.corpora, "urls", name), "rb") as f:
                urls.extend(line.rstrip(b"\r\n") for line in f if line.strip())
    for name in sorted(os.listdir(os.path.join(a.corpora, "robots"))):
        if name.endswith(".txt"):
            host = name[:-4].replace("_", ":")
            urls.append(b"https://" + host.encode() + b"/index.html?from=robotsmatch-bench")
    rng = random.Random(9309)
    target = parse_size(a.size)
    written = 0
    with open(a.out, "wb") as out:
        while written < target:
            rng.shuffle(urls)
            block = b"\n".join(urls) + b"\n"
            out.write(block)
            written += len(block)
    print(f"{a.out}: {written} bytes, {len(urls)} URLs per repetition")


if __name__ == "__main__":
    main()
