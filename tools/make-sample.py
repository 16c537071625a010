#!/usr/bin/env python3
"""Builds corpora/sample/ from the shared real corpora (deterministic).

The README's test command must pass on a clone of the project alone, so the differential
test reads a sample copied into the repository: robots.txt files chosen to cover what the
full corpus holds (the hosts most present in the URL logs, every flag of SOURCES.tsv --
HTML, BOMs, CR/CRLF, NUL, non-UTF-8, over 500 KiB --, the largest and the most
wildcard-heavy files, and a seeded random draw), and the real URLs of those hosts.

Usage: python3 tools/make-sample.py [SHARED_CORPORA] (default ../shared/corpora)
"""

import csv
import gzip
import os
import random
import shutil
import sys
import urllib.parse

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpora")
DST = os.path.join(os.path.dirname(__file__), "..", "corpora", "sample")
URLS_PER_HOST = 60
MAX_BYTES_TOTAL = 6_000_000


def main():
    rows = {}
    with open(os.path.join(SRC, "robots", "SOURCES.tsv"), newline="") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            rows[r["host"]] = r
    # Hosts present in the URL logs, with their URLs.
    by_host = {}
    for name in sorted(os.listdir(os.path.join(SRC, "urls"))):
        if not name.endswith(".txt.gz"):
            continue
        with gzip.open(os.path.join(SRC, "urls", name), "rb") as f:
            for raw in f:
                url = raw.strip()
                try:
                    host = urllib.parse.urlsplit(url.decode("utf-8", "replace")).hostname
                except ValueError:
                    continue
                if host in rows:
                    by_host.setdefault(host, []).append(url)
    chosen = []
    def add(h):
        if h in rows and h not in chosen:
            chosen.append(h)
    for h, _ in sorted(by_host.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:60]:
        add(h)
    flags = {}
    for h, r in sorted(rows.items()):
        for fl in filter(None, r["flags"].split(",")):
            flags.setdefault(fl, []).append(h)
    for fl, hs in sorted(flags.items()):
        for h in hs[:4]:
            add(h)
    by_rules = sorted(rows, key=lambda h: -int(rows[h]["rules"] or 0))
    for h in by_rules[:3]:
        if int(rows[h]["bytes"]) < 1_000_000:
            add(h)
    # Wildcard-heavy: most '*' in the body.
    def stars(h):
        with open(os.path.join(SRC, "robots", rows[h]["file"]), "rb") as f:
            return f.read().count(b"*")
    rng = random.Random(9309)
    pool = sorted(rows)
    cand = rng.sample(pool, 3000)
    for h in sorted(cand, key=lambda h: -stars(h))[:8]:
        add(h)
    for h in rng.sample(pool, 120):
        add(h)
    # Copy, within the byte budget.
    if os.path.exists(DST):
        shutil.rmtree(DST)
    os.makedirs(os.path.join(DST, "robots"))
    total = 0
    kept = []
    for h in chosen:
        size = int(rows[h]["bytes"])
        if total + size > MAX_BYTES_TOTAL:
            continue
        shutil.copyfile(os.path.join(SRC, "robots", rows[h]["file"]), os.path.join(DST, "robots", rows[h]["file"]))
        total += size
        kept.append(h)
    with open(os.path.join(DST, "robots", "SOURCES.tsv"), "w") as f:
        f.write("\t".join(header) + "\n")
        for h in kept:
            f.write("\t".join(rows[h][k] for k in header) + "\n")
    n = 0
    with open(os.path.join(DST, "urls.txt"), "wb") as f:
        for h in kept:
            urls = by_host.get(h, [])
            step = max(1, len(urls) // URLS_PER_HOST)
            for u in urls[::step][:URLS_PER_HOST]:
                f.write(u + b"\n")
                n += 1
    with open(os.path.join(DST, "README.md"), "w") as f:
        f.write(f"""# Sample of the real corpora

Made by `tools/make-sample.py` from `../shared/corpora` (see its README for provenance):
{len(kept)} robots.txt files ({total} bytes) in `robots/` with their `SOURCES.tsv` rows
(source repository, commit, capture date), and in `urls.txt` {n} real URLs of those hosts
(at most {URLS_PER_HOST} per host) from the Reddit 2010 link logs (`lsb/webtext`, see
`../shared/corpora/urls/SOURCES.tsv`).

Files were chosen to cover the full corpus: the hosts most present in the URL logs, up to
four files for every flag in SOURCES.tsv (html, empty, BOMs, CR and CRLF endings, NUL,
non-UTF-8, over 500 KiB), the files with the most rules and the most wildcards, and a seeded
random draw.
""")
    print(f"{len(kept)} files, {total} bytes, {n} urls")


if __name__ == "__main__":
    main()
