"""`verify --jobs N` gives the report of `--jobs 1`, byte for byte apart from the timings.

Each run is a fresh process: Z3's answers that have a choice (the witness orders of consistency.py,
and the unreached pairs derived from them) depend on what the process asked Z3 before, so two
`verify` calls in one process may differ whatever the jobs. A default test runs a small corpus
(scenarios/corpus.d/attack.yaml alone, standing in for the built-in corpus); a slow one the real
command on the whole corpus, text and JSON.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, output

SMALL = ROOT / "scenarios" / "corpus.d" / "attack.yaml"
# the dmcheck command with the built-in corpus replaced by one rulings file (argv[1])
ALONE = ("import sys; from pathlib import Path; import rulings.verify as V; from rulings.corpus import load_corpus; "
         "V.builtin_corpus = lambda: load_corpus(Path(sys.argv[1]), builtin=True); "
         "from dmcheck.main import main; sys.exit(main(sys.argv[2:]))")


def _run(args: list[str], corpus: Path | None = None) -> tuple[int, str]:
    command = ([sys.executable, "-c", ALONE, str(corpus)] if corpus else [sys.executable, "-m", "dmcheck"]) + args
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout


def _untimed_text(text: str) -> str:
    return re.sub(r"solver [0-9.]+s; total [0-9.]+s", "solver Xs; total Xs", text)


def _untimed_json(text: str) -> dict:
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in ("seconds", "solver_seconds")}
        if isinstance(o, list):
            return [strip(x) for x in o]
        return _untimed_text(o) if isinstance(o, str) else o
    return strip(output(text))


def _same(corpus: Path | None) -> None:
    code1, text1 = _run(["verify", "--jobs", "1"], corpus)
    code2, text2 = _run(["verify", "--jobs", "2"], corpus)
    assert code1 == code2 and code1 in (0, 1)
    assert "figures:" in text1 and _untimed_text(text1) == _untimed_text(text2)
    code1, json1 = _run(["verify", "--json", "--jobs", "1"], corpus)
    code2, json2 = _run(["verify", "--json", "--jobs", "2"], corpus)
    assert code1 == code2
    assert _untimed_json(json1) == _untimed_json(json2)


def test_jobs_give_the_report_of_one_job_on_a_small_corpus():
    _same(SMALL)


@pytest.mark.slow
def test_jobs_give_the_report_of_one_job_on_the_whole_corpus():
    _same(None)


def test_the_pool_does_each_runs_conformance_and_properties(monkeypatch):
    """With workers the checks of the runs really go to the pool: every run's conformance, and the
    properties of every run of the default readings, each asked once."""
    import rulings.verify as V
    from dmcheck.options import worker_pool
    from rulings.corpus import load_corpus

    monkeypatch.setattr(V, "builtin_corpus", lambda: load_corpus(SMALL, builtin=True))
    asked: list[tuple[str, int]] = []

    def workers():
        pool = worker_pool(2)
        real = pool.map_async

        def spy(fn, items, chunksize=None):
            items = list(items)
            asked.append((fn.__name__, len(items)))
            return real(fn, items, chunksize=chunksize)

        pool.map_async = spy
        return pool

    report = V.verify(workers=workers)
    assert asked == [("_sound_of", len(report.runner.runs())), ("_search_of", len(report.properties))]
    assert report.properties and all(p.result.verdicts for p in report.properties)
    assert V._WORK is None        # the pool is closed and what it was given let go


def test_jobs_is_an_option_of_verify():
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert "--jobs N" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--jobs", "0"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "at least 1" in proc.stderr
