"""Fuzzing every kind of file dmcheck reads (issue 36): scenario, card file, rulings file, properties file,
sweep template, bundle and baseline, each mutated by Hypothesis (the text cut, YAML punctuation or odd
bytes inserted, lines swapped or repeated; a node of the parsed document replaced by a value of another
type: tests/test_fuzz.py's mutations, and the same on JSON) and run through the command that reads it.

Each case runs in its own forked process (tests/fuzz_server.py) with a memory limit (what the process
holds at the fork plus MEMORY) and a time limit (SECONDS, then SIGKILL), and must end with no traceback,
no signal, no hang and an exit code of 0-3 or 130 (70 too, when dmcheck/cli/exits.py defines it for a
model error). CASES lists how many of each kind: at least 5,000 in all. A slow test (CI's `-m slow`);
tests/test_fuzz.py keeps a quick in-process sample in the default run.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import (
    CARDS,
    PROPERTIES,
    RULINGS,
    SCENARIO,
    TEMPLATE,
    WRAPPER,
    _edit_text,
    _odd_value,
    _text_edit,
    mutated,
)

from dmcheck.cli.exits import Exit

pytestmark = pytest.mark.slow

SECONDS = 60                 # a case still running after this is a hang
MEMORY = 1536 * 1024**2      # bytes a case may add to what its process holds when forked
ALLOWED = {0, 1, 2, 3, 130} | ({70} if any(int(e) == 70 for e in Exit) else set())
CASES = {"scenario": 1000, "cards": 800, "properties": 700, "rulings": 500, "sweep": 500, "bundle": 800,
         "baseline": 700}
LIMITS = ["--max-states", "300", "--max-seconds", "10", "--max-memory", "700M"]
Q09 = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"
BASELINE = json.dumps({"dmcheck_baseline": 1, "findings": [
    {"id": "ruling:A1@TEST", "kind": "ruling", "message": "A1@TEST does not hold"},
    {"id": "declarative:X@S9+Y@S9", "kind": "declarative", "message": "X and Y cannot hold together"}]}, indent=2)


class Server:
    """tests/fuzz_server.py, one per test process."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).parent / "fuzz_server.py")], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert json.loads(self._line()) == {"ready": True}
        self.cases = 0
        self.slowest = 0.0
        self.seconds = 0.0
        self.codes: Counter = Counter()

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the fuzz server died"
        return line

    def run(self, argv: list, empty_corpus: bool = False) -> None:
        assert self.proc.stdin is not None
        request = {"argv": [str(a) for a in argv], "seconds": SECONDS, "memory": MEMORY, "empty_corpus": empty_corpus}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self._line())
        self.cases += 1
        self.slowest = max(self.slowest, answer["seconds"])
        self.seconds += answer["seconds"]
        self.codes[answer["code"]] += 1
        assert not answer["hang"], f"still running after {SECONDS} s: {argv}"
        assert answer["signal"] is None, f"killed by signal {answer['signal']}: {argv}"
        assert not answer["traceback"], answer["traceback"]
        assert answer["code"] in ALLOWED, (answer["code"], answer.get("stderr"))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.close()


def _json_nodes(node):
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield node, key
        yield from _json_nodes(value)


def _edit_json(text: str, picks: list) -> str:
    root = json.loads(text)
    for index, value in picks:
        spots = list(_json_nodes(root))
        if not spots:
            break
        container, key = spots[index % len(spots)]
        container[key] = copy.deepcopy(value) if not isinstance(value, dict) else {str(k): v for k, v in value.items()}
    return json.dumps(root, allow_nan=True)


@st.composite
def mutated_json(draw, text: str) -> str:
    """A JSON file mutated as text (as `mutated` does) or as a document (a node replaced)."""
    if draw(st.booleans()):
        return _edit_text(text, draw(st.lists(_text_edit, min_size=1, max_size=4)))
    return _edit_json(text, draw(st.lists(st.tuples(st.integers(0, 100_000), _odd_value), min_size=1, max_size=3)))


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


def _bundle_text(tmp: Path) -> str:
    path = tmp / "base.json"
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "export", str(Q09), "--out", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return path.read_text()


def _case(kind: str, folder: Path, text: str, server: Server) -> None:
    junit = ["--junit", str(folder / "j.xml")]
    if kind == "scenario":
        server.run(["explore", _write(folder, "scenario.yaml", text), "--jobs", "1", *LIMITS, *junit])
    elif kind == "cards":
        _write(folder, "cards.yaml", text)
        server.run(["explore", _write(folder, "wrapper.yaml", WRAPPER), "--jobs", "1", *LIMITS, *junit])
    elif kind == "properties":
        server.run(["check", Q09, "--properties", _write(folder, "props.yaml", text), "--jobs", "1", *LIMITS, *junit])
    elif kind == "rulings":
        path = _write(folder, "rulings.yaml", text.replace("../../../", str(ROOT) + "/"))
        server.run(["verify", "--rulings", path, "--rules", "2024-06-19", "--jobs", "1", "--max-seconds", "3",
                    "--max-memory", "700M", *junit], empty_corpus=True)
    elif kind == "sweep":
        server.run(["sweep", _write(folder, "template.yaml", text), "--db", folder / "t.sqlite", "--jobs", "1",
                    "--max-seconds", "5", "--max-states", "300", "--json"])
    elif kind == "bundle":
        path = _write(folder, "bundle.json", text)
        server.run(["conform", "--engine", f"{sys.executable} {ROOT / 'tests' / 'engines' / 'correct.py'} {path}",
                    "--bundle", path, "--timeout", "5", *junit])
    else:
        server.run(["verify", "--baseline", _write(folder, "known.json", text), "--rules", "2024-06-19", "--jobs", "1",
                    "--max-seconds", "3"], empty_corpus=True)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_fuzz_every_file_kind_in_isolated_processes(kind, server, tmp_path_factory):
    base = {"scenario": SCENARIO, "cards": CARDS, "properties": PROPERTIES, "rulings": RULINGS,
            "sweep": TEMPLATE, "baseline": BASELINE}.get(kind) or _bundle_text(tmp_path_factory.mktemp("bundle"))
    strategy = mutated_json(base) if kind in ("bundle", "baseline") else mutated(base)
    before, server.slowest, server.seconds, server.codes = server.cases, 0.0, 0.0, Counter()

    @settings(max_examples=CASES[kind], deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(mutant: str) -> None:
        _case(kind, tmp_path_factory.mktemp(kind), mutant, server)
    one()
    assert server.cases - before >= CASES[kind]
    print(f"\nfuzz {kind}: {server.cases - before} cases, {server.seconds:.1f} s in them, slowest "
          f"{server.slowest:.1f} s; exit codes {dict(sorted(server.codes.items()))}")


def test_the_cases_are_at_least_five_thousand():
    assert sum(CASES.values()) >= 5000
