"""Memory is bounded (issue 36, item 8): `--max-memory` stops a search, which reports what it found, exit 3,
as the time limit does; outside a search the command is stopped at 1.25 times the limit and reports what
it finished. The default (explorer/limits.py DEFAULT_MAX_MEMORY) is documented in docs/limits.md."""

from __future__ import annotations

import io
import subprocess
import sys
import time

import pytest
from conftest import ROOT, output

from dmcheck.explorer.limits import DEFAULT_MAX_MEMORY, Limits, over
from dmcheck.main import main

L8 = ROOT / "benchmarks" / "scenarios" / "kakumeijin_L8.yaml"


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_a_search_stops_at_the_memory_limit_with_what_it_found():
    """Kakumeijin L8 unreduced: about 370,000 states, 1.4 KB each (500 MB beside the 60 MB of the process
    before it searches); stopped at 100 MB."""
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "explore", str(L8), "--no-reduce", "--max-memory", "100M",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3 and "Traceback" not in proc.stderr, proc.stderr
    [found] = output(proc.stdout)["scenarios"]
    assert found["complete"] is False and found["reason"].startswith("memory limit 100 MB reached"), found["reason"]
    assert 1_000 < found["states"] < 370_000 and found["outcomes"] and found["outcomes_all"] is False


def test_over_names_the_limit_and_a_stop_request(monkeypatch):
    import dmcheck.explorer.limits as L
    monkeypatch.setattr(L, "memory_used", lambda: 3 * 1024**3)
    assert over(Limits(max_memory=2 * 1024**3)) == "memory limit 2 GB reached (3 GB used)"
    assert over(Limits(max_memory=4 * 1024**3)) == ""
    assert over(Limits(stop=lambda: True)) == "interrupted"


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_outside_a_search_the_command_is_stopped_and_reports_what_it_finished(monkeypatch):
    """The process's memory passes 1.25 times the limit while verify works (its searches are small): the
    watchdog stops it, and the report names the rulings run and what was not finished."""
    import dmcheck.explorer.limits as L
    start = time.monotonic()
    monkeypatch.setattr(L, "memory_used", lambda: 3 * 1024**3 if time.monotonic() > start + 2 else 0)
    out, err = io.StringIO(), io.StringIO()
    code = main(["verify", "--json", "--jobs", "1", "--max-memory", "2G"], out, err)
    doc = output(out.getvalue())
    assert code == 3 and doc["complete"] is False, err.getvalue()
    assert doc["stopped"] == "memory limit 2G of the process passed (--max-memory, docs/limits.md)"
    assert doc["not_finished"][-1] == "rules properties" and len(doc["not_finished"]) >= 2
    assert any(r["verdict"] for r in doc["rulings"]) and time.monotonic() - start < 60


def test_stopped_before_the_corpus_is_read_names_everything_not_finished(monkeypatch):
    import dmcheck.explorer.limits as L
    import dmcheck.rulings.verify as V
    monkeypatch.setattr(L, "memory_used", lambda: 3 * 1024**3)

    def slow_load(extra):
        for _ in range(500):      # the watchdog lands here, 0.25 s in
            time.sleep(0.01)
        raise AssertionError("not stopped while reading the corpus")
    monkeypatch.setattr(V, "load", slow_load)
    out, err = io.StringIO(), io.StringIO()
    code = main(["verify", "--json", "--jobs", "1", "--max-memory", "2G"], out, err)
    doc = output(out.getvalue())
    assert code == 3 and doc["not_finished"][0] == "reading the corpus" and len(doc["not_finished"]) == 6


def test_a_memory_limit_that_is_no_size_is_bad_input():
    for value in ("0", "12K", "lots", "-1G", "nanG"):
        with pytest.raises(SystemExit) as exited:
            main(["explore", str(L8), f"--max-memory={value}"], io.StringIO(), io.StringIO())
        assert exited.value.code == 2, value


def test_the_default_is_documented():
    text = (ROOT / "docs" / "limits.md").read_text()
    assert f"{DEFAULT_MAX_MEMORY // 1024**3} GB" in text and "--max-memory" in text
