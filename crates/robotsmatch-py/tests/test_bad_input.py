"""Bad input gives a Python exception with a clear message, never a crash."""

from __future__ import annotations

import pyarrow as pa
import pytest

from robotsmatch import Matcher, Robots

M = Matcher(b"User-agent: *\nDisallow: /b\n", "Googlebot")


def test_non_utf8_url_bytes_name_the_index():
    with pytest.raises(ValueError, match=r"urls\[2\] is not valid UTF-8: byte 0xff at offset 3"):
        M.allowed_many(["/a", "/b", b"/x/\xff"])
    with pytest.raises(ValueError, match=r"^url is not valid UTF-8"):
        M.allowed(b"/\xc3")
    with pytest.raises(ValueError, match=r"urls\[0\] is not valid UTF-8"):
        M.decide_many(["/\ud800"])  # a lone surrogate cannot be encoded


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match=r"urls\[1\] must be str or bytes, not NoneType"):
        M.allowed_many(["/a", None])
    with pytest.raises(TypeError, match=r"urls\[0\] must be str or bytes, not int"):
        M.decide_many([1])
    with pytest.raises(TypeError, match=r"urls must be a list of str or bytes.*not int"):
        M.allowed_many(5)
    with pytest.raises(TypeError, match=r"urls must be a list .* not set"):
        M.allowed_many({"/a"})
    with pytest.raises(TypeError, match=r"^url must be str or bytes, not NoneType"):
        M.decide(None)
    with pytest.raises(ValueError, match=r"robots.txt body is a str that is not valid UTF-8"):
        Robots.parse("User-agent: *\nDisallow: /\ud800\n")
    with pytest.raises(TypeError, match=r"robots.txt body must be bytes or str, not int"):
        Robots.parse(5)
    with pytest.raises(TypeError, match=r"robots.txt body must be bytes or str, not NoneType"):
        Matcher(None, "Googlebot")
    with pytest.raises(TypeError):
        Robots.parse(b"").matcher(5)


def test_arrow_arrays_of_other_types_are_type_errors():
    with pytest.raises(TypeError, match=r"Arrow array of strings.*not Int64"):
        M.allowed_many(pa.array([1, 2, 3]))
    with pytest.raises(TypeError, match=r"Arrow array of strings.*not Binary"):
        M.decide_many(pa.chunked_array([pa.array([b"/a"], type=pa.binary())]))
    with pytest.raises(TypeError, match=r"Arrow array of strings.*not Int32"):
        M.allowed_many(pa.chunked_array([], type=pa.int32()))  # no chunk: the type decides
    with pytest.raises(TypeError, match=r"Arrow array of strings.*not Dictionary"):
        M.allowed_many(pa.array(["/a", "/a"]).dictionary_encode())


def test_huge_file_is_cut_at_the_parse_limit():
    head = b"User-agent: *\nDisallow: /early\n"
    filler = b"# " + b"x" * 78 + b"\n"
    body = head + filler * (2 * 1024 * 1024 // len(filler)) + b"Disallow: /late\n"
    assert len(body) > 2_000_000
    robots = Robots.parse(body)
    assert robots.truncated is True and robots.size == len(body)
    assert "truncated" in repr(robots)
    m = robots.matcher("Googlebot")
    assert m.allowed("/early") is False
    assert m.allowed("/late") is True  # past 500 KiB: not parsed, like Google's crawler
    assert any("500" in w or "limit" in w for w in robots.warnings), robots.warnings[:3]


def test_huge_url_and_huge_line():
    m = Matcher(b"User-agent: *\nDisallow: /a*b$\n" + b"Disallow: /" + b"y" * 100_000 + b"\n", "Bot")
    assert m.allowed("/" + "a" * 1_000_000) is True
    assert m.allowed("/" + "a" * 1_000_000 + "b") is False


def test_nul_bytes_and_empty_files():
    m = Matcher(b"User-agent: *\nDisallow: /a\x00b\nDisallow: /c\n", "Googlebot")
    assert m.allowed("/c") is False  # the NUL ends its line, not the file
    assert m.allowed("/a") is False
    assert m.decide("/x\x00y") is not None  # a NUL in the URL is just a byte
    for empty in (b"", "", b"\xef\xbb\xbf", b"\x00\x00"):
        e = Matcher(empty, "Googlebot")
        assert e.allowed("/anything") is True
        assert e.rule_count == 0
    assert Robots.parse(b"").sitemaps == []


def test_html_and_binary_bodies_have_no_rules():
    html = b"<html><body>Disallow: /x</body></html>"
    assert Matcher(html, "Googlebot").allowed("/x") is True
    noise = bytes(range(256)) * 64
    assert Matcher(noise, "Googlebot").allowed_many(["/", "/x"]) == [True, True]


def test_issue16_empty_agent_is_a_value_error_as_on_the_command_line():
    message = (
        r"^agent is empty: name a crawler \(a product token such as Googlebot, "
        r"a full user-agent string, or a catalog name\)$"
    )
    robots = Robots.parse(b"User-agent: *\nDisallow: /b\n")
    for agent in ["", "   "]:
        with pytest.raises(ValueError, match=message):
            robots.matcher(agent)
        with pytest.raises(ValueError, match=message):
            Matcher(b"User-agent: *\n", agent)
        with pytest.raises(ValueError, match=message):
            robots.crawl_delay(agent)
        with pytest.raises(ValueError, match=message):
            robots.request_rate(agent)
