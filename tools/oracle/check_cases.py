#!/usr/bin/env python3
r"""Checks the conformance cases in corpora/conformance/*.toml.

For every case it

1. validates the schema (required and unknown fields, types, kebab-case
   names unique across all files, `rule` shape); with `escaped = true`,
   `robots`, `url` and `rule.pattern` are decoded (\r \n \t \\ \xHH);
2. checks that `rule` names a real line of the robots.txt: that line, split
   and trimmed the way Google's parser does it, must be an `allow`/`disallow`
   line with exactly that pattern; and that the verdict agrees with the rule's
   kind (`rule = "none"` means allowed);
3. asks Google's C++ library (through oracle.py, the JSON Lines driver) about
   every `google`-profile case:
   - without `oracle-differs`: the verdict must match, and so must the line
     when `rule` is not "none" (when `rule` is "none", the oracle may only
     report a line holding an empty pattern);
   - with `oracle-differs`: a warning when the oracle agrees completely
     (verdict, and line unless `rule` is "none"): the mark may be wrong.
   `crawl-delay` (robotsmatch's answer; Google ignores crawl-delay) is only
   validated here; the Rust tests check it.

The agent is reduced to its product token first, as robotsmatch does.
Legacy-profile cases are validated but not sent to the oracle.

Usage: check_cases.py [DIR]   (default: corpora/conformance next to tools/)
Exit status: 0 when clean, 1 on any schema error or mismatch.
"""

import collections
import json
import os
import re
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "..", "corpora", "conformance")

REQUIRED = {"name", "agent", "url", "verdict", "rule", "source", "robots"}
OPTIONAL = {"profile", "escaped", "oracle-differs", "crawl-delay"}
CATEGORIES = {"canonicalisation", "robots-txt-always-allowed", "size-limit",
              "product-token", "backslash"}
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# --- agents: the same reduction as robotsmatch::agent::product_token --------

GENERIC_PRODUCTS = {
    "mozilla", "applewebkit", "chrome", "chromium", "safari", "gecko",
    "firefox", "version", "mobile", "edg", "edge", "opr", "khtml", "like",
    "compatible", "linux", "android", "windows", "build", "trident",
}
# A token is the name up to white space, "/", ";", "(", ")" or "*" (issue 15).
TOKEN_RE = re.compile(r"[^ \t\n\r\x0b\x0c/;()*]*")


def _token(s):
    return TOKEN_RE.match(s).group(0)


def product_token(agent):
    """`Googlebot/2.1` -> `Googlebot`; `Mozilla/5.0 (compatible; X/1)` -> `X`."""
    s = agent.strip()
    i = s.lower().find("compatible")
    if i >= 0 and s[i + len("compatible"):][:1] in (";", ")"):
        tok = _token(s[i + len("compatible") + 1:].lstrip())
        if tok and not _is_url(tok):
            return tok
    first = _token(s)
    if first and first.lower() not in GENERIC_PRODUCTS:
        return first
    for word in re.split(r"[\s;(),]", s):
        tok = _token(word)
        if tok and word[len(tok):].startswith("/") \
                and tok.lower() not in GENERIC_PRODUCTS and not _is_url(word):
            return tok
    return first


def _is_url(word):
    return word.startswith("+") or ":" in word


# --- escapes -------------------------------------------------------------------

def decode_escapes(text):
    r"""Decodes \r \n \t \\ \xHH (one raw byte); everything else is UTF-8."""
    out = bytearray()
    raw = text.encode("utf-8")
    i = 0
    while i < len(raw):
        b = raw[i]
        if b != 0x5C:  # backslash
            out.append(b)
            i += 1
            continue
        nxt = raw[i + 1:i + 2]
        if nxt in (b"r", b"n", b"t", b"\\"):
            out += {b"r": b"\r", b"n": b"\n", b"t": b"\t", b"\\": b"\\"}[nxt]
            i += 2
        elif nxt == b"x" and re.fullmatch(rb"[0-9A-Fa-f]{2}", raw[i + 2:i + 4]):
            out.append(int(raw[i + 2:i + 4], 16))
            i += 4
        else:
            raise ValueError(f"bad escape at byte {i}: {raw[i:i + 4]!r}")
    return bytes(out)


# --- Google's line splitting (robots.cc), for the rule consistency check -----

BOM = b"\xef\xbb\xbf"
MAX_LINE = 2083 * 8 - 1  # bytes of a line Google keeps (16663)
WS = b" \t\n\v\f\r"


def google_lines(body):
    """Yields (line_number, content) as Google's RobotsTxtParser numbers them."""
    lines, cur, num, bom_pos, last_cr = [], bytearray(), 0, 0, False
    for ch in body:
        if bom_pos < 3:
            expected = BOM[bom_pos]
            bom_pos += 1
            if ch == expected:
                continue
            bom_pos = 3
        if ch not in (0x0A, 0x0D):
            if len(cur) < MAX_LINE:
                cur.append(ch)
            continue
        if not (not cur and last_cr and ch == 0x0A):
            num += 1
            lines.append((num, bytes(cur)))
        cur = bytearray()
        last_cr = ch == 0x0D
    lines.append((num + 1, bytes(cur)))
    return lines


def key_value(line):
    """Google's GetKeyAndValueFrom: (key, value) or None."""
    line = line.split(b"\0", 1)[0].split(b"#", 1)[0].strip(WS)
    if b":" in line:
        key, value = line.split(b":", 1)
    else:
        # Missing colon: accepted when the line is exactly two words (space/tab).
        sep = re.search(rb"[ \t]", line)
        if sep is None:
            return None
        key, value = line[:sep.start()], line[sep.start():].lstrip(b" \t")
        if re.search(rb"[ \t]", value):
            return None
    key, value = key.strip(WS), value.strip(WS)
    return (key, value) if key else None


def key_kind(key):
    k = key.lower()
    if k.startswith((b"user-agent", b"useragent", b"user agent")):
        return "user-agent"
    if k.startswith(b"allow"):
        return "allow"
    if k.startswith((b"disallow", b"dissallow", b"dissalow", b"disalow",
                     b"diasllow", b"disallaw")):
        return "disallow"
    if k.startswith((b"sitemap", b"site-map")):
        return "sitemap"
    return "unknown"


def rule_at(body, line_no):
    """(kind, pattern bytes) of the line, or None if it is not a key-value line."""
    for num, content in google_lines(body):
        if num == line_no:
            kv = key_value(content)
            return None if kv is None else (key_kind(kv[0]), kv[1])
    return None


# --- oracle ----------------------------------------------------------------------

class Oracle:
    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "oracle.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, body, agent, url):
        req = {"robots_hex": body.hex(), "agent": agent, "url_hex": url.hex()}
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        resp = json.loads(self.proc.stdout.readline())
        if "error" in resp:
            raise RuntimeError("oracle: " + resp["error"])
        return resp

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# --- validation -----------------------------------------------------------------

def validate(case, where, errors):
    """Returns a normalised case dict, or None after appending errors."""
    if not isinstance(case, dict):
        errors.append(f"{where}: a case must be a table")
        return None
    name = case.get("name", "?")
    where = f"{where} ({name})"
    if not isinstance(name, str) or not NAME_RE.match(name):
        errors.append(f"{where}: name is not kebab-case")
    bad = False
    for f in sorted(REQUIRED - case.keys()):
        errors.append(f"{where}: missing field {f!r}")
        bad = True
    for f in sorted(case.keys() - REQUIRED - OPTIONAL):
        errors.append(f"{where}: unknown field {f!r}")
        bad = True
    if bad:
        return None
    for f in ("name", "agent", "url", "verdict", "source", "robots"):
        if not isinstance(case[f], str):
            errors.append(f"{where}: {f!r} must be a string")
            return None
    if case["verdict"] not in ("allowed", "disallowed"):
        errors.append(f"{where}: verdict must be allowed or disallowed")
    profile = case.get("profile", "google")
    if profile not in ("google", "legacy"):
        errors.append(f"{where}: unknown profile {profile!r}")
    escaped = case.get("escaped", False)
    if not isinstance(escaped, bool):
        errors.append(f"{where}: escaped must be a boolean")
    delay = case.get("crawl-delay")
    if delay is not None and delay != "none" and (
            isinstance(delay, bool) or not isinstance(delay, (int, float)) or delay < 0):
        errors.append(f"{where}: crawl-delay must be a number of seconds or \"none\"")
    differs = case.get("oracle-differs")
    if differs is not None:
        category = differs.split(":", 1)[0]
        if not isinstance(differs, str) or ":" not in differs \
                or category not in CATEGORIES:
            errors.append(f"{where}: oracle-differs must start with one of "
                          f"{sorted(CATEGORIES)} and a colon")
        if profile != "google":
            errors.append(f"{where}: oracle-differs only makes sense for google")
    rule = case["rule"]
    if rule != "none":
        if not isinstance(rule, dict) or set(rule) != {"line", "kind", "pattern"}:
            errors.append(f"{where}: rule must be \"none\" or {{line, kind, pattern}}")
            return None
        if not isinstance(rule["line"], int) or rule["line"] < 1 \
                or rule["kind"] not in ("allow", "disallow") \
                or not isinstance(rule["pattern"], str):
            errors.append(f"{where}: bad rule {rule!r}")
            return None
    try:
        if escaped:
            body, url = decode_escapes(case["robots"]), decode_escapes(case["url"])
        else:
            body, url = case["robots"].encode(), case["url"].encode()
    except ValueError as e:
        errors.append(f"{where}: {e}")
        return None
    # The rule must exist as written, and agree with the verdict.
    if rule == "none":
        if case["verdict"] != "allowed":
            errors.append(f"{where}: rule \"none\" needs verdict allowed")
    else:
        want_verdict = "allowed" if rule["kind"] == "allow" else "disallowed"
        if case["verdict"] != want_verdict:
            errors.append(f"{where}: a {rule['kind']} rule gives {want_verdict}")
        try:
            pattern = decode_escapes(rule["pattern"]) if escaped \
                else rule["pattern"].encode()
        except ValueError as e:
            errors.append(f"{where}: rule.pattern: {e}")
            return None
        found = rule_at(body, rule["line"])
        if found != (rule["kind"], pattern):
            errors.append(f"{where}: line {rule['line']} is {found!r}, "
                          f"not {rule['kind']} {pattern!r}")
    return {"name": name, "where": where, "body": body, "url": url,
            "agent": product_token(case["agent"]), "verdict": case["verdict"],
            "rule": rule, "profile": profile, "differs": differs}


def main(argv):
    directory = os.path.abspath(argv[1] if len(argv) > 1 else DEFAULT_DIR)
    files = sorted(f for f in os.listdir(directory) if f.endswith(".toml"))
    errors, warnings, cases = [], [], []
    seen = {}
    per_file = collections.OrderedDict()
    for fname in files:
        with open(os.path.join(directory, fname), "rb") as f:
            try:
                doc = tomllib.load(f)
            except tomllib.TOMLDecodeError as e:
                errors.append(f"{fname}: {e}")
                continue
        if set(doc) - {"case"}:
            errors.append(f"{fname}: unknown top-level keys {sorted(set(doc) - {'case'})}")
        stats = per_file.setdefault(fname, collections.Counter())
        for i, raw in enumerate(doc.get("case", [])):
            c = validate(raw, f"{fname}#{i + 1}", errors)
            if c is None:
                continue
            if c["name"] in seen:
                errors.append(f"{c['where']}: duplicate name (also in {seen[c['name']]})")
            seen[c["name"]] = fname
            cases.append(c)
            stats["cases"] += 1
            stats["legacy"] += c["profile"] == "legacy"
            stats["oracle-differs"] += c["differs"] is not None

    oracle = Oracle()
    mismatches = 0
    for c in cases:
        if c["profile"] != "google":
            continue
        got = oracle.ask(c["body"], c["agent"], c["url"])
        verdict = "allowed" if got["allowed"] else "disallowed"
        rule = c["rule"]
        if rule == "none":
            line_ok = got["line"] == 0 or \
                (rule_at(c["body"], got["line"]) or (None, b"x"))[1] == b""
        else:
            line_ok = got["line"] == rule["line"]
        agrees = verdict == c["verdict"] and line_ok
        if c["differs"] is None and not agrees:
            mismatches += 1
            want_line = "none" if rule == "none" else rule["line"]
            errors.append(f"{c['where']}: expected {c['verdict']} (rule line "
                          f"{want_line}), oracle says {verdict} line {got['line']}")
        elif c["differs"] is not None and verdict == c["verdict"] \
                and (rule == "none" or got["line"] == rule["line"]):
            warnings.append(f"{c['where']}: marked oracle-differs but the oracle "
                            f"agrees ({verdict}, line {got['line']})")
    oracle.close()

    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("error:", e)
    total = sum(s["cases"] for s in per_file.values())
    print(f"\n{total} cases in {len(per_file)} files")
    for fname, s in per_file.items():
        print(f"  {fname:24} {s['cases']:4} cases  {s['oracle-differs']:3} oracle-differs"
              f"  {s['legacy']:3} legacy")
    cats = collections.Counter(c["differs"].split(":", 1)[0]
                               for c in cases if c["differs"])
    print(f"oracle-differs: {sum(cats.values())}"
          + "".join(f"  {k}={v}" for k, v in sorted(cats.items())))
    print(f"legacy: {sum(c['profile'] == 'legacy' for c in cases)}")
    checked = sum(c["profile"] == "google" for c in cases)
    print(f"checked against the oracle: {checked}; mismatches: {mismatches}; "
          f"errors: {len(errors)}; warnings: {len(warnings)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
