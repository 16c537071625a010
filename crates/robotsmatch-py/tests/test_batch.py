"""The batch calls (lists and Arrow) against the one-URL call, on the real sample."""

from __future__ import annotations

import pyarrow as pa
import pytest

from robotsmatch import Matcher, Robots

from conftest import AGENTS, urls_for


@pytest.mark.parametrize("agent", AGENTS)
def test_batch_equals_decide_on_every_sample_pair(sample_files, sample_urls, agent):
    """Every sample file against every sample URL and the paths derived from its rules:
    decide_many (list and Arrow) and allowed_many give exactly what decide gives."""
    allowed_total = disallowed_total = decided_by_rule = 0
    for host, body in sample_files:
        m = Robots.parse(body).matcher(agent)
        urls = urls_for(host, body, sample_urls)
        one = [m.decide(u) for u in urls]
        expected = [(d.allowed, d.line) for d in one]
        assert m.decide_many(urls) == expected, host
        assert m.allowed_many(urls) == [a for a, _ in expected], host
        arrow = m.decide_many(pa.array(urls)).to_pylist()
        assert [(r["allowed"], r["line"]) for r in arrow] == expected, host
        disallowed = sum(1 for a, _ in expected if not a)
        disallowed_total += disallowed
        allowed_total += len(expected) - disallowed
        decided_by_rule += sum(1 for _, line in expected if line is not None)
    # The comparison means something only if the sample exercises both verdicts and rules.
    assert disallowed_total > 1000 and allowed_total > 1000
    assert decided_by_rule > 1000


def test_arrow_string_types_chunks_and_nulls():
    m = Matcher(b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\n", "Googlebot")
    urls = ["https://a.example/cart", None, "https://a.example/cart/help", "/x", ""]
    expected_allowed = [False, None, True, True, True]
    expected_line = [2, None, 3, None, None]
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        arr = pa.array(urls, type=typ)
        assert m.allowed_many(arr).to_pylist() == expected_allowed, typ
        out = m.decide_many(arr)
        assert isinstance(out, pa.StructArray)
        assert out.type == pa.struct([("allowed", pa.bool_()), ("line", pa.int32())])
        assert out.field("allowed").to_pylist() == expected_allowed
        assert out.field("line").to_pylist() == expected_line
        assert out.is_null().to_pylist() == [u is None for u in urls]
    chunked = pa.chunked_array([urls[:2], urls[2:], []])
    out = m.allowed_many(chunked)
    assert isinstance(out, pa.ChunkedArray)
    assert out.num_chunks == 3
    assert out.to_pylist() == expected_allowed
    out = m.decide_many(chunked)
    assert isinstance(out, pa.ChunkedArray)
    assert out.combine_chunks().field("line").to_pylist() == expected_line


def test_arrow_slices_are_respected():
    m = Matcher(b"User-agent: *\nDisallow: /b\n", "Googlebot")
    arr = pa.array(["/a", "/b", "/c", "/b/x", "/d"]).slice(1, 3)
    assert m.allowed_many(arr).to_pylist() == [False, True, False]


def test_tuples_bytes_and_empty_inputs():
    m = Matcher(b"User-agent: *\nDisallow: /b\n", "Googlebot")
    assert m.allowed_many(("/a", b"/b", "https://x.example/b?q")) == [True, False, False]
    assert m.decide_many([]) == []
    assert m.allowed_many(pa.array([], type=pa.string())).to_pylist() == []


def test_record_batch_column_from_a_table():
    m = Matcher(b"User-agent: *\nDisallow: /private\n", "Googlebot")
    table = pa.table({"url": ["/private/a", "/public"] * 3})
    assert m.allowed_many(table.column("url")).to_pylist() == [False, True] * 3
