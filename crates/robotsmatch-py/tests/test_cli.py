"""The Python batch call agrees with the command line's `classify` on the real sample.

tools/test-python builds the CLI and sets ROBOTSMATCH_BIN; run alone, set it yourself
(`ROBOTSMATCH_BIN=target/debug/robotsmatch`).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
from typing import Dict, Optional

import pyarrow as pa
import pytest

from robotsmatch import Matcher

from conftest import ROOT, SAMPLE

BIN = os.environ.get("ROBOTSMATCH_BIN")


def host_key(url: str) -> Optional[str]:
    """The store key of a URL's host (the CLI's `<host>.txt` / `<host>_<port>.txt`)."""
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme:
        return None
    auth = rest
    for c in "/?#":
        auth = auth.split(c, 1)[0]
    auth = auth.rsplit("@", 1)[-1]
    host, colon, port = auth.rpartition(":")
    if not colon or not port.isdigit():
        host, port = auth, ""
    host = host.lower()
    return f"{host}_{port}" if port and port not in ("80", "443") else host


@pytest.mark.skipif(not BIN, reason="ROBOTSMATCH_BIN is not set (tools/test-python sets it)")
@pytest.mark.parametrize("agent", ["Googlebot", "GPTBot"])
def test_decide_many_equals_cli_classify(agent):
    binary = pathlib.Path(BIN if BIN else "")
    assert binary.is_file(), f"ROBOTSMATCH_BIN={BIN} is not a file"
    log = SAMPLE / "urls.txt"
    out = subprocess.run(
        [str(binary), "classify", "--robots", str(SAMPLE / "robots"), "--agent", agent,
         "--format", "tsv", "--threads", "1", str(log)],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode("utf-8", errors="replace").splitlines()
    urls = [u.decode("utf-8", errors="replace") for u in log.read_bytes().splitlines()]
    assert len(out) == len(urls)
    matchers: Dict[str, Optional[Matcher]] = {}
    by_host: Dict[Optional[str], list] = {}
    for i, url in enumerate(urls):
        by_host.setdefault(host_key(url), []).append(i)
    compared = disallowed = 0
    for host, idx in by_host.items():
        path = SAMPLE / "robots" / f"{host}.txt"
        if host is None or not path.is_file():
            continue
        m = matchers.setdefault(host, Matcher(path.read_bytes(), agent))
        got = m.decide_many(pa.array([urls[i] for i in idx])).to_pylist()
        for i, d in zip(idx, got):
            verdict, line = out[i].split("\t")[:2]
            expected = ("allowed" if d["allowed"] else "disallowed", "-" if d["line"] is None else str(d["line"]))
            assert (verdict, line) == expected, urls[i]
            compared += 1
            disallowed += not d["allowed"]
    assert compared > 3000 and disallowed > 50
