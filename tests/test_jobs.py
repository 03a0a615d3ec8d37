"""--jobs N: scenarios run in worker processes and their reports come back in the files' order, so the
output is the one --jobs 1 gives (timings aside), bad files included."""

from __future__ import annotations

import io
import re
import sys

from conftest import ROOT, output

from dmcheck.main import main

sys.path.insert(0, str(ROOT / "benchmarks"))
from snapshot_outputs import strip  # noqa: E402

FILES = [str(ROOT / "scenarios/rulings" / name) for name in
         ("Q09_the_watch.yaml", "Q01_bolshack_rider.yaml", "SC2_s_back.yaml", "Q03_kobo.yaml")]
MISSING = str(ROOT / "scenarios/rulings/no_such_file.yaml")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _untimed(text: str) -> str:
    # times, and how many projections each process answered anew (the others it knew from an earlier
    # check of the same cards: properties/checker.py _Shared) are figures of the process, not the result
    return re.sub(r"\b\d+\.\d+s\b|\d+\.\d+s vs|x\d+\.\d+|\d+ answered now", "T", text)


def test_explore_json_is_the_same_with_two_jobs():
    files = FILES[:2] + [MISSING] + FILES[2:]
    one = _run("explore", *files, "--json", "--jobs", "1")
    two = _run("explore", *files, "--json", "--jobs", "2")
    assert one[0] == two[0] == 2          # the missing file is bad input
    assert one[2] == two[2] and "no_such_file" in one[2]
    a, b = output(one[1]), output(two[1])      # the one JSON shape, valid against the schema
    assert a["errors"] == b["errors"] and [e["file"] for e in a["errors"]] == [MISSING]
    a, b = strip(a["scenarios"]), strip(b["scenarios"])
    assert [r["scenario"] for r in a] == [r["scenario"] for r in b] and len(a) == len(FILES)
    assert a == b


def test_check_text_is_the_same_with_two_jobs():
    one = _run("check", *FILES, "--jobs", "1")
    two = _run("check", *FILES, "--jobs", "2")
    assert one[0] == two[0]
    assert _untimed(one[1]) == _untimed(two[1])
    assert one[1].index("Q09") < one[1].index("Q01")   # the files' order, not the finishing order


def test_an_input_error_in_a_worker_is_reported_like_one_at_home():
    # --compact is refused for a scenario with order expectations (Q01's), after a scenario without
    # them was reported; the files after it are not reported
    files = [str(ROOT / "tests/data/wrong_expectation.yaml"), FILES[1], FILES[3]]
    one = _run("explore", *files, "--compact", "--jobs", "1")
    two = _run("explore", *files, "--compact", "--jobs", "2")
    assert one[0] == two[0] == 2
    assert "--compact" in one[2] and one[2] == two[2]
    assert _untimed(one[1]) == _untimed(two[1]) and "wrong_expectation" in one[1] and "Kobo" not in one[1]


def test_jobs_must_be_positive(capsys):
    try:
        main(["explore", FILES[0], "--jobs", "0"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "at least 1" in capsys.readouterr().err



def test_a_check_after_an_interrupt_in_the_same_process_gets_fresh_solvers():
    # A deadline or Ctrl-C interrupts every Z3 context (dmcheck/cli/stop.py); an interrupted context
    # refuses every later query ("push canceled"), so the next check of the process (the Python API, a
    # test run) must not get the kept one (properties/checker.py forget_shared)
    import z3

    from dmcheck.cli import stop
    from dmcheck.properties import checker
    kept = checker._shared(("card a", "card b"), 2)
    z3.Solver(ctx=kept.vocab().ctx).push()
    stop._interrupt_z3()
    fresh = checker._shared(("card a", "card b"), 2)
    assert fresh is not kept
    z3.Solver(ctx=fresh.vocab().ctx).push()   # raises Z3Exception on an interrupted context
