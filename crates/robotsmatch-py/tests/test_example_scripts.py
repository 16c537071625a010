"""The Polars and Spark examples of tools/python, run as a user runs them (issue 17.2: both
crashed for want of pyarrow, and nothing ran them). Each runs on the sample and must print the
verdict counts of `robotsmatch classify` on the same log and store.

tools/test-python installs their dependencies (tools/python/requirements-examples.txt). The
Polars test always runs. The Spark test runs Spark in local mode when a Java runtime is found
and is skipped otherwise, with the reason in pytest's summary (tools/test-python passes -rs):
a skip is reported as a skip, never as a pass.
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLE

BIN = os.environ.get("ROBOTSMATCH_BIN")
EXAMPLES = ROOT / "tools" / "python"
LOG = SAMPLE / "urls.txt"
STORE = SAMPLE / "robots"

# "  allowed          2028  (no robots.txt)", as both examples print their counts.
COUNT = re.compile(r"^\s+(allowed|disallowed|invalid)\s+(\d+)\s+\((host has robots\.txt|no robots\.txt)\)$")


def cli_counts() -> dict:
    """(verdict, robots) -> URLs, from `robotsmatch classify --format jsonl`."""
    assert BIN, "ROBOTSMATCH_BIN is not set (tools/test-python sets it)"
    out = subprocess.run(
        [BIN, "classify", "--robots", str(STORE), "--agent", "Googlebot", "--format", "jsonl", str(LOG)],
        check=True,
        capture_output=True,
    ).stdout
    counts = collections.Counter()
    for line in out.splitlines():
        row = json.loads(line)
        counts[(row["verdict"], bool(row.get("robots", False)))] += 1
    return dict(counts)


def printed_counts(stdout: str) -> dict:
    counts = {}
    for line in stdout.splitlines():
        m = COUNT.match(line)
        if m:
            counts[(m.group(1), m.group(3) == "host has robots.txt")] = int(m.group(2))
    return counts


def run_example(script: str, *args: str, timeout: int) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args, "--robots", str(STORE), str(LOG)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
    assert done.returncode == 0, f"{script} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_polars_example_prints_the_cli_counts():
    out = run_example("polars_classify.py", timeout=300)
    got = printed_counts(out)
    assert got, out
    assert got == cli_counts(), out
    assert "URLs/s" in out


def _java() -> str | None:
    java = shutil.which("java")
    if java is None and os.environ.get("JAVA_HOME"):
        candidate = pathlib.Path(os.environ["JAVA_HOME"]) / "bin" / "java"
        java = str(candidate) if candidate.is_file() else None
    return java


@pytest.mark.skipif(_java() is None, reason="Spark example not run: no Java runtime found (PySpark needs Java 17; install openjdk-17-jre-headless)")
def test_spark_example_in_local_mode_prints_the_cli_counts():
    out = run_example("spark_classify.py", "--master", "local[2]", "--partitions", "4", timeout=600)
    got = printed_counts(out)
    assert got, out
    assert got == cli_counts(), out
    assert "run 2 (bodies compiled)" in out
