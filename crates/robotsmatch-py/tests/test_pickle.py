"""Pickling: matchers and robots rebuild from their body and give identical decisions."""

from __future__ import annotations

import pickle

import pytest

from robotsmatch import Decision, Matcher, Robots

from conftest import urls_for


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_matcher_round_trip_every_protocol(protocol):
    m = Robots.parse(b"User-agent: *\nDisallow: /*.pdf$\n").matcher("Googlebot", profile="legacy")
    m2 = pickle.loads(pickle.dumps(m, protocol=protocol))
    assert isinstance(m2, Matcher)
    assert (m2.agent, m2.profile, m2.rule_count) == ("Googlebot", "legacy", 1)
    for url in ["/x.pdf", "/*.pdf$", "/a"]:
        assert m2.decide(url) == m.decide(url)


def test_round_trip_on_the_sample(sample_files, sample_urls):
    urls = sample_urls[::7]
    for host, body in sample_files[::3]:
        robots = Robots.parse(body)
        robots2 = pickle.loads(pickle.dumps(robots))
        assert robots2.body == body and robots2.sitemaps == robots.sitemaps
        for agent in ("Googlebot", "RobotsmatchTestbot"):
            m = robots.matcher(agent)
            m2 = pickle.loads(pickle.dumps(m))
            m3 = robots2.matcher(agent)
            all_urls = urls_for(host, body, urls)
            expected = [m.decide(u) for u in all_urls]
            assert [m2.decide(u) for u in all_urls] == expected, host
            assert m3.decide_many(all_urls) == [(d.allowed, d.line) for d in expected], host


def test_decision_and_non_utf8_body_round_trip():
    body = b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /\xff\xfe\n"
    m = Matcher(body, "Googlebot")
    m2 = pickle.loads(pickle.dumps(m))
    for url in ["/caf%E9", "/caf%e9/x", "/%FF%FE", "/ok"]:
        assert m2.decide(url) == m.decide(url)
    d = m.decide("/caf%E9")
    assert d.allowed is False
    assert pickle.loads(pickle.dumps(d)) == d
    assert pickle.loads(pickle.dumps(Decision(True))) == Decision(True)
