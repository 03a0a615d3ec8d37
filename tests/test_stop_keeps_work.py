"""Work kept when stopped (issue 36, item 5): Ctrl-C during a search keeps what the search found, an
interrupted or timed-out verify reports the rulings it ran and names every phase it did not finish, and
Ctrl-C while the command is still starting ends it with 130 and no traceback.

Each run is a real process sent a real SIGINT. So that the signal lands where the test means it to (a
search under way, the tabulation of verify, the imports), the process is a small driver that sends it to
itself from the place: the progress report of a search (dmcheck/cli/stop.py `searching`, called twice a
second while a search runs), verify's tabulation of one ruling (rulings/operational.py `_row`), or the
moment an import is reported by `python -X importtime`.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT, output

L8 = ROOT / "benchmarks" / "scenarios" / "kakumeijin_L8.yaml"     # about 370,000 states unreduced
Q09 = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"

# Ctrl-C sent by the command's own process to itself at the first progress report of a search (a worker
# sends it to the command's process, as a terminal sends it to every process of the group)
IN_SEARCH = ("import os, signal, sys; import dmcheck.cli.stop as S; MAIN = os.getpid(); real = S.searching\n"
             "def searching(*a):\n"
             "    if not os.path.exists(sys.argv[1]):\n"
             "        open(sys.argv[1], 'w').close(); os.kill(MAIN, signal.SIGINT)\n"
             "    return real(*a)\n"
             "S.searching = searching\n"
             "from dmcheck.main import main; sys.exit(main(sys.argv[2:]))")
# ... and in verify's tabulation, once `argv[1]` rulings have been tabulated
IN_TABULATION = ("import os, signal, sys; import dmcheck.rulings.operational as R; real = R._row; n = [0]\n"
                 "def row(*a, **k):\n"
                 "    n[0] += 1\n"
                 "    if n[0] == int(sys.argv[1]) + 1: os.kill(os.getpid(), signal.SIGINT)\n"
                 "    return real(*a, **k)\n"
                 "R._row = row\n"
                 "from dmcheck.main import main; sys.exit(main(sys.argv[2:]))")


def _driven(driver: str, *argv, timeout: float = 120) -> tuple[int, str, str, float]:
    start = time.monotonic()
    # the child gets SIGINT's default disposition back, as tests/test_interrupt.py does: a process started with
    # SIGINT ignored (a test runner's worker, a shell's background job) ignores the SIGINT the driver sends
    proc = subprocess.run([sys.executable, "-c", driver, *map(str, argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start


def test_ctrl_c_during_explore_keeps_the_outcomes_found_so_far(tmp_path):
    code, out, err, seconds = _driven(IN_SEARCH, tmp_path / "sent", "explore", L8, "--no-reduce", "--json")
    assert code == 130 and "Traceback" not in err, err
    assert out.count('"schema_version"') == 1          # one JSON document, whatever had been printed
    doc = output(out)
    [found] = doc["scenarios"]
    assert found["complete"] is False and found["reason"] == "interrupted" and found["states"] > 0
    assert found["outcomes"] and found["outcomes_all"] is False          # the outcomes of the states explored
    assert doc["complete"] is False and doc["stopped"] == "interrupted"
    assert seconds < 60                                                  # the whole search takes longer


@pytest.mark.slow
def test_ctrl_c_during_explore_text_prints_the_outcomes_found_so_far(tmp_path):
    code, out, err, _ = _driven(IN_SEARCH, tmp_path / "sent", "explore", L8, "--no-reduce")
    assert code == 130 and "search INCOMPLETE: interrupted" in out and "outcomes found so far" in out, out
    assert err.strip() == "dmcheck: interrupted: the results are incomplete", err


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_ctrl_c_with_jobs_keeps_each_search_under_way_and_names_the_files_not_begun(tmp_path):
    code, out, err, _ = _driven(IN_SEARCH, tmp_path / "sent", "explore", L8, L8, Q09, "--no-reduce", "--json",
                                "--jobs", "2")
    assert code == 130 and "Traceback" not in err, err
    doc = output(out)
    assert [s["reason"] for s in doc["scenarios"]] == ["interrupted", "interrupted"]
    assert all(s["outcomes"] for s in doc["scenarios"]) and doc["not_finished"] == [str(Q09)]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check"])
def test_ctrl_c_during_check_reports_the_search_and_the_properties_undecided(tmp_path, command):
    code, out, err, seconds = _driven(IN_SEARCH, tmp_path / "sent", command, L8, "--no-reduce", "--json")
    assert code == 130, err
    [found] = output(out)["scenarios"]
    assert found["reason"] == "interrupted" and found["properties"]
    assert seconds < 60


def test_interrupted_verify_reports_the_rulings_it_ran_and_every_phase_not_finished():
    """Its JSON had an empty `not_finished`, which reads as 'nothing unfinished'."""
    code, out, err, _ = _driven(IN_TABULATION, 3, "verify", "--json", "--jobs", "1")
    assert code == 130 and "Traceback" not in err, err
    doc = output(out)
    ran = [r for r in doc["rulings"] if r["verdict"] is not None]
    assert len(ran) == 3 and all(r["verdict"] in ("holds", "violated", "inconclusive") for r in ran)
    assert doc["complete"] is False and doc["stopped"] == "interrupted"
    phases = ["best readings and operational contradictions (Z3)", "declarative consistency (Z3)", "conformance",
              "rules properties"]
    assert doc["not_finished"][-4:] == phases
    posed = [r for r in doc["rulings"] if r["scenarios"]]
    assert len(doc["not_finished"]) == len(posed) - 3 + 4                 # every ruling not run is named
    assert "not finished: ruling" in err


# verify stuck in its declarative phase (a Python loop the time budget's watchdog interrupts)
STUCK_DECLARATIVE = ("import sys, time; import dmcheck.rulings.consistency as C\n"
                     "def check(*a, **k):\n"
                     "    while True: time.sleep(0.01)\n"
                     "C.check = check\n"
                     "from dmcheck.main import main; sys.exit(main(sys.argv[1:]))")


@pytest.mark.slow
def test_timed_out_verify_reports_what_it_finished():
    """The watchdog stops verify inside a phase: the rulings, the operational contradictions of Z3's
    answer, and the phases not finished are reported."""
    code, out, err, _ = _driven(STUCK_DECLARATIVE, "verify", "--json", "--jobs", "1", "--max-seconds", "40",
                                timeout=300)
    assert code == 3 and "Traceback" not in err, err
    doc = output(out)
    assert doc["complete"] is False and doc["stopped"].startswith("time limit")
    assert "declarative consistency (Z3)" in doc["not_finished"] and "conformance" in doc["not_finished"]
    assert doc["contradictions"] and all(c["kind"] == "operational" for c in doc["contradictions"])
    assert sum(r["verdict"] is not None for r in doc["rulings"]) > 100


# ---- Ctrl-C while the command starts ---------------------------------------------------------------
def _interrupt_at_import(command: list[str], module: str, extra_lines: int = 0) -> tuple[int, str]:
    """Start the command under `python -X importtime` (each finished import is a line on stderr), send
    Ctrl-C once `module` has been imported and `extra_lines` more imports have followed. (Python's own
    start-up, and dmcheck/cli/startup.py until it has set its handler, are Python code before any of
    dmcheck's: a Ctrl-C there is Python's. An import finished after dmcheck.cli.startup's is one the
    command makes once its handler is set.)"""
    proc = subprocess.Popen([sys.executable, "-X", "importtime", *command], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seen, after = False, 0
    assert proc.stderr is not None
    for line in proc.stderr:
        if not seen and line.split("|")[-1].strip() == module:
            seen = True
        elif seen:
            after += 1
        if seen and after >= extra_lines:
            proc.send_signal(signal.SIGINT)
            break
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    assert seen, f"{module} was never imported"
    return proc.returncode, rest


def _imports_of(command: list[str]) -> list[str]:
    """The modules a whole run of the command imports, in the order their imports finish."""
    run = subprocess.run([sys.executable, "-X", "importtime", *command], cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, timeout=120)
    return [line.split("|")[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")]


def _the_startup_imports() -> list[str]:
    return ["dmcheck.cli.startup", "dmcheck.model.yamlio", "dmcheck.explorer.bfs", "dmcheck.cli.options"]


@pytest.mark.parametrize("entry", [["-m", "dmcheck"], [str(ROOT / ".venv" / "bin" / "dmcheck")]],
                         ids=["python -m dmcheck", "dmcheck"])
def test_ctrl_c_while_the_command_starts_exits_130_without_a_traceback(entry):
    if not (entry[0] == "-m" or (ROOT / ".venv" / "bin" / "dmcheck").exists()):
        pytest.skip("no installed dmcheck script")
    for module in _the_startup_imports()[:2]:
        code, rest = _interrupt_at_import([*entry, "verify", "--json"], module, 3)
        assert code == 130, (module, code, rest[-2000:])
        assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest[-2000:]


@pytest.mark.slow
def test_ctrl_c_at_random_moments_of_the_start_exits_130_without_a_traceback():
    command = ["-m", "dmcheck", "explore", str(Q09), "--json"]
    imports = _imports_of(command)
    random.seed(36)
    for _ in range(20):
        module = random.choice(_the_startup_imports())
        later = len(imports) - imports.index(module) - 1   # imports the run makes after this one
        assert later >= 1, (module, imports[-5:])
        code, rest = _interrupt_at_import(command, module, random.randint(1, min(40, later)))
        assert code == 130 and "Traceback" not in rest, (module, code, rest[-2000:])

