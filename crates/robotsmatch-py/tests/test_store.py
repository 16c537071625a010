"""robotsmatch.Store: the bulk pipeline from Python (robotsmatch-bulk), checked against the
command line's `classify` on the real sample and against the matcher of each host, URL by URL.

The comparisons with the command line need ROBOTSMATCH_BIN (tools/test-python sets it)."""

from __future__ import annotations

import gzip
import os
import pathlib
import subprocess
import threading
import time
import zlib
from typing import Dict, List, Optional

import pyarrow as pa
import pytest

from robotsmatch import Matcher, Store

from conftest import ROOT, SAMPLE
from test_cli import host_key

BIN = os.environ.get("ROBOTSMATCH_BIN")
needs_cli = pytest.mark.skipif(not BIN, reason="ROBOTSMATCH_BIN is not set (tools/test-python sets it)")
WARC = ROOT / "corpora" / "warc" / "sample.warc.gz"
COLUMNS = ["url", "host", "verdict", "line", "rule", "robots"]


def cli(*args: str) -> List[str]:
    binary = pathlib.Path(BIN if BIN else "")
    assert binary.is_file(), f"ROBOTSMATCH_BIN={BIN} is not a file"
    out = subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, check=True).stdout
    return out.decode("utf-8", errors="replace").splitlines()


@pytest.fixture(scope="module")
def store() -> Store:
    return Store.open(SAMPLE / "robots", "Googlebot")


@pytest.fixture(scope="module")
def urls() -> List[str]:
    return [u.decode("utf-8", errors="replace") for u in (SAMPLE / "urls.txt").read_bytes().splitlines()]


def tsv_rows(table) -> List[str]:
    """The table as the command line's tsv lines."""
    return [
        "\t".join([
            r["verdict"],
            "-" if r["line"] is None else str(r["line"]),
            r["rule"] or "-",
            r["url"],
        ])
        for r in table.to_pylist()
    ]


@needs_cli
def test_classify_log_equals_cli_tsv_and_jsonl(store):
    table = store.classify_log(str(SAMPLE / "urls.txt"))
    assert table.column_names == COLUMNS
    expected = cli("classify", "--robots", str(SAMPLE / "robots"), "--agent", "Googlebot",
                   "--format", "tsv", str(SAMPLE / "urls.txt"))
    assert len(expected) == table.num_rows > 3000
    assert tsv_rows(table) == expected
    import json
    jsonl = [json.loads(line) for line in cli(
        "classify", "--robots", str(SAMPLE / "robots"), "--agent", "Googlebot",
        "--format", "jsonl", str(SAMPLE / "urls.txt"))]
    rows = table.to_pylist()
    assert [(r["host"], r["robots"]) for r in rows] == [(j.get("host"), j.get("robots", False)) for j in jsonl]
    # Two logs, one gzip: the rows of both, in order.
    both = store.classify_log([SAMPLE / "urls.txt", SAMPLE / "urls.txt"])
    assert tsv_rows(both) == expected + expected


@needs_cli
def test_count_log_equals_cli_summary(store):
    counts = store.count_log(SAMPLE / "urls.txt")
    summary = cli("classify", "--robots", str(SAMPLE / "robots"), "--agent", "Googlebot",
                  "--format", "summary", str(SAMPLE / "urls.txt"))

    def number(label: str) -> int:
        line = next(line for line in summary if line.startswith(label))
        return int(line[len(label):].split()[0])

    assert counts["lines"] == number("lines")
    assert counts["allowed"] == number("allowed")
    assert counts["disallowed"] == number("disallowed")
    assert counts["no_robots"] == number("  no robots")
    assert counts["invalid"] == number("invalid")
    assert counts["hosts"] == number("hosts")
    top = summary[summary.index("top deciding rules   urls  host:line  rule") + 1]
    count, where, rule = top.split(None, 2)
    host, line = where.rsplit(":", 1)
    assert counts["top_rules"][0] == (int(count), host, int(line), rule)
    assert counts["log_errors"] == []


def test_classify_equals_each_hosts_matcher(store, urls):
    table = store.classify(pa.array(urls))
    rows = table.to_pylist()
    assert [r["url"] for r in rows] == urls
    matchers: Dict[str, Optional[Matcher]] = {}
    decided = disallowed = 0
    for r in rows:
        key = host_key(r["url"])
        if r["verdict"] == "invalid":
            assert key in (None, "") and r["host"] is None, r
            continue
        assert r["host"] == key, r
        path = SAMPLE / "robots" / f"{key}.txt"
        if key not in matchers:
            matchers[key] = Matcher(path.read_bytes(), "Googlebot") if path.is_file() else None
        m = matchers[key]
        if m is None:
            assert (r["verdict"], r["line"], r["robots"]) == ("allowed", None, False), r
            continue
        d = m.decide(r["url"])
        assert (r["verdict"], r["line"], r["robots"]) == (
            "allowed" if d.allowed else "disallowed", d.line, True), r
        if d.line is not None:
            assert r["rule"] == f"{d.kind.capitalize()}: {d.pattern}", r
        decided += 1
        disallowed += not d.allowed
    assert decided > 1000 and disallowed > 50


def test_arrays_chunks_lists_and_hosts_give_the_same_rows(store, urls):
    given = urls[:2000] + [None, "not a url", "https://shop.example/x"]
    base = store.classify(pa.array(given)).to_pylist()
    assert base[2000] == {c: None for c in COLUMNS}, "a null URL gives a null row"
    assert base[2001]["verdict"] == "invalid"
    variants = {
        "chunked": pa.chunked_array([given[:700], given[700:701], given[701:]], pa.string()),
        "large_string": pa.array(given, pa.large_string()),
        "string_view": pa.array(given, pa.string_view()),
    }
    for name, arr in variants.items():
        rows = store.classify(arr).to_pylist()
        assert rows == base, name
    assert store.classify(pa.array(given), threads=1).to_pylist() == base
    not_null = [u for u in given if u is not None]
    listed = store.classify(not_null).to_pylist()
    assert listed == [r for r, u in zip(base, given) if u is not None]
    # Hosts given by the caller (as Spark computes them) give the same rows.
    hosts = pa.array([host_key(u) if u and "://" in u else None for u in given])
    assert store.classify(pa.array(given), hosts=hosts).to_pylist() == base
    counts = store.count(pa.array(given))
    table = pa.Table.from_pylist(base)
    verdicts = table.column("verdict").to_pylist()
    assert counts["allowed"] == verdicts.count("allowed")
    assert counts["disallowed"] == verdicts.count("disallowed") > 0
    assert counts["malformed"] == verdicts.count("invalid") == 1
    # A count after classify calls on the same store counts hosts and rules too (its warm
    # workers take the counting settings of each call); a fresh store counts the same.
    fresh = Store.open(str(SAMPLE / "robots"), "Googlebot").count(pa.array(given))
    assert counts["hosts"] > 0 and counts["top_rules"]
    assert counts == fresh


def test_from_bodies_equals_the_directory(store, urls):
    bodies = {p.name[: -len(".txt")]: p.read_bytes() for p in (SAMPLE / "robots").glob("*.txt")}
    in_memory = Store.from_bodies(bodies, "Googlebot")
    assert in_memory.file_count == len(bodies) == store.file_count
    assert in_memory.classify(pa.array(urls)).to_pylist() == store.classify(pa.array(urls)).to_pylist()
    # A host key given with the URL lets the URL be a bare path.
    shop = Store.from_bodies({"Shop.example": "User-agent: *\nDisallow: /cart\n"}, "Googlebot")
    rows = shop.classify(pa.array(["/cart/1", "/", "/cart"]), hosts=pa.array(["shop.example", "shop.example", None]))
    assert rows.column("verdict").to_pylist() == ["disallowed", "allowed", "invalid"]


@needs_cli
def test_from_warc_equals_cli():
    warc = Store.from_warc(str(WARC), "Googlebot")
    assert len(warc.problems) == 2, warc.problems
    assert any("bad gzip member" in p for p in warc.problems)
    table = warc.classify_log(SAMPLE / "urls.txt")
    expected = cli("classify", "--robots-warc", str(WARC), "--agent", "Googlebot", "--format", "tsv",
                   str(SAMPLE / "urls.txt"))
    assert tsv_rows(table) == expected
    counts = warc.count_log(SAMPLE / "urls.txt")
    assert counts["unreachable"] > 0 and counts["unavailable"] > 0


def test_amp_is_matched_as_written_unless_decode_amp():
    s = Store.from_bodies({"www.meetup.com": "User-agent: *\nDisallow: /*?offset=*\nDisallow: /*&offset=*\n"},
                          "Googlebot")
    url = "http://www.meetup.com/find/events/?from=list&amp;offset=0"
    row = s.classify([url]).to_pylist()[0]
    assert (row["verdict"], row["line"]) == ("allowed", None)
    row = s.classify([url], decode_amp=True).to_pylist()[0]
    assert (row["verdict"], row["line"], row["url"]) == ("disallowed", 3, url)


def test_columns_gzip_and_truncated_logs(store, urls, tmp_path):
    csv = tmp_path / "log.csv"
    csv.write_text("id,url\n" + "".join(f'{i},"{u}"\n' for i, u in enumerate(urls[:500])), encoding="utf-8")
    table = store.classify_log(csv, column=2, delimiter=",")
    assert table.num_rows == 501
    assert table.column("verdict")[0].as_py() == "invalid"
    plain = store.classify(pa.array(urls[:500])).to_pylist()
    assert table.slice(1).to_pylist() == plain
    gz = tmp_path / "log.csv.gz"
    gz.write_bytes(gzip.compress(csv.read_bytes()))
    assert store.classify_log(gz, column=2, delimiter=",").to_pylist() == table.to_pylist()
    counts = store.count_log(csv, column=2, delimiter=",")
    assert counts["malformed_lines"] == [(1, "no scheme://host URL", "id,url")]
    # A truncated gzip: a warning naming the file, and every complete line before the cut
    # (issue 16.2: up to 1 MiB of them used to be dropped).
    big = "".join(u + "\n" for u in urls * 20).encode()
    cut = tmp_path / "cut.gz"
    whole = gzip.compress(big)
    cut.write_bytes(whole[: len(whole) // 2])
    decoded = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(whole[: len(whole) // 2])
    complete = decoded.count(b"\n")
    assert complete > 1000
    with pytest.warns(RuntimeWarning, match="cut.gz: truncated gzip stream"):
        rows = store.classify_log(cut).num_rows
    assert rows == complete
    with pytest.warns(RuntimeWarning):
        message = store.count_log(cut)["log_errors"][0]
    assert "every complete line before it was read" in message, message
    assert message.endswith(f"({complete} lines of it classified)"), message


def test_bad_input_is_a_clear_exception(store, tmp_path):
    with pytest.raises(FileNotFoundError, match=r"cannot read robots path 'no/such/dir'"):
        Store.open("no/such/dir", "Googlebot")
    with pytest.raises(FileNotFoundError, match=r"missing\.log"):
        store.classify_log(tmp_path / "missing.log")
    with pytest.raises(FileNotFoundError, match=r"cannot read WARC file"):
        Store.from_warc([tmp_path / "none.warc.gz"], "Googlebot")
    with pytest.raises(TypeError, match=r"urls must be an Arrow array of strings .* not Int64"):
        store.classify(pa.array([1, 2]))
    with pytest.raises(ValueError, match=r"hosts has 2 elements, urls 1"):
        store.classify(pa.array(["https://a.example/"]), hosts=pa.array(["a.example", "b"]))
    with pytest.raises(ValueError, match=r"delimiter must be one ASCII character"):
        store.count_log(SAMPLE / "urls.txt", delimiter=";;")
    with pytest.raises(ValueError, match=r"column is 1-based"):
        store.count_log(SAMPLE / "urls.txt", column=0)
    with pytest.raises(ValueError, match=r"threads must be at least 1"):
        store.count(["https://a.example/"], threads=0)
    with pytest.raises(TypeError, match=r"bodies must be a mapping"):
        Store.from_bodies(["a.example"], "Googlebot")
    with pytest.raises(ValueError, match=r"unknown profile"):
        Store.open(SAMPLE / "robots", "Googlebot", profile="nope")
    with pytest.raises(TypeError, match=r"logs must be a path or a list of paths"):
        store.count_log(5)


def test_the_gil_is_released_while_classifying(store, urls, tmp_path):
    log = tmp_path / "big.txt"
    log.write_text("".join(u + "\n" for u in urls) * 300, encoding="utf-8", errors="replace")
    span: List[float] = []

    def work():
        t0 = time.perf_counter()
        store.count_log(log, threads=1)
        span.extend([t0, time.perf_counter()])

    t = threading.Thread(target=work)
    stamps: List[float] = []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    t0, t1 = span
    assert t1 - t0 > 0.05, "the call is long enough to tell"
    inside = [s for s in stamps if t0 + 0.01 < s < t1 - 0.01]
    assert len(inside) > 3, "this thread ran while the other was classifying"
