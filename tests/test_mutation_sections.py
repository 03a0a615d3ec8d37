"""A `modelled` row of the rules table is honest: for one rule of every section, a mutation breaks its code
site and its test fails (issue 32).

For every section (the three-digit part of a number: 101, 509, 703, ...) with a `modelled` row of
model/data/rules_index.yaml, the mutation catalogue (benchmarks/mutations.py) has an entry that
  (a) names, in `rules`, a Ver.1.48 number of that section whose row is `modelled`,
  (b) edits the file of one of that row's `code:` sites, inside that function (or class), and
  (c) lists among its `tests` one of that row's `tests:` (a test node, or the node of the parametrised test
      that runs the row's scenario file).
The default run checks (a)-(c) from the text alone; the slow test applies each section's mutation to a copy
of the repository and runs that one test, which must fail.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from benchmarks.mutations import CATALOGUE, Mutation, apply, copy_repo, run
from dmcheck.model.rules_index import MODELLED, RuleRow, load_index

ROOT = Path(__file__).resolve().parent.parent
# the parametrised test that runs every scenario file of a folder, its id being the file's stem
RUNNERS = {
    "scenarios/attack": "tests/test_attack.py::test_attack_ruling_expectations_hold",
    "scenarios/piles": "tests/test_piles.py::test_the_rulings_on_piles_hold",
    "scenarios/rulings": "tests/test_rulings.py::test_ruling_expectations_hold",
    "scenarios/rulings/answers": "tests/test_right_answers.py::test_answer_scenarios_hold",
    "tests/data/pins": "tests/test_rule_pins.py::test_pin_expectations_hold",
    "scenarios/flow": "tests/test_rule_pins.py::test_pin_expectations_hold",
    "scenarios/changes": "tests/test_rule_pins.py::test_pin_expectations_hold",
}


def node_of(test: str) -> str:
    """The pytest node that fails when a row's test fails: a test node as it is; a scenario file, the node
    of its folder's runner ('' for a folder no runner reads)."""
    path = Path(test.partition("::")[0])
    if path.suffix != ".yaml":
        return test
    runner = RUNNERS.get(path.parent.as_posix())
    return f"{runner}[{path.stem}]" if runner else ""


@cache
def _spans(file: str) -> tuple[tuple[str, int, int], ...]:
    """(qualified name, first line, last line) of every function and class of a Python file."""
    found: list[tuple[str, int, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.append((prefix + child.name, child.lineno, child.end_lineno or child.lineno))
                walk(child, prefix + child.name + ".")
    walk(ast.parse((ROOT / file).read_text(encoding="utf-8")), "")
    return tuple(found)


def sites_of(m: Mutation) -> set[str]:
    """'path:Qualified.name' of every function or class whose lines hold the mutation's snippet (none when the
    snippet does not occur exactly once, or the file is no Python file)."""
    path = ROOT / m.file
    if path.suffix != ".py" or not path.is_file():
        return set()
    text = path.read_text(encoding="utf-8")
    if text.count(m.old) != 1:
        return set()
    first = text[:text.index(m.old)].count("\n") + 1
    last = first + m.old.count("\n")
    return {f"{m.file}:{name}" for name, start, end in _spans(m.file) if start <= first and last <= end}


def proofs(m: Mutation) -> list[tuple[RuleRow, str]]:
    """(row, test node) for every `modelled` row the mutation names whose code site it edits and whose test
    it lists: each is a proof that the row is honest."""
    index, sites, tests = load_index(), sites_of(m), set(m.tests)
    out = []
    for number in m.rules:
        row = index.row(number)
        if row is None or row.status != MODELLED or not sites & set(row.code):
            continue
        out += [(row, node) for node in sorted({node_of(t) for t in row.tests} & tests)]
    return out


def by_section() -> dict[str, list[tuple[Mutation, RuleRow, str]]]:
    """Every section with a `modelled` row, and the proofs the catalogue has for it (in catalogue order)."""
    index = load_index()
    found: dict[str, list[tuple[Mutation, RuleRow, str]]] = {r.section: [] for r in index.rows if r.status == MODELLED}
    for m in CATALOGUE:
        for row, node in proofs(m):
            found[row.section].append((m, row, node))
    return found


def test_the_mutations_name_rules_of_the_edition():
    numbers = load_index().numbers()
    bad = {m.id: [n for n in m.rules if n not in numbers] for m in CATALOGUE}
    assert {k: v for k, v in bad.items() if v} == {}


def test_every_section_with_a_modelled_row_has_a_mutation_of_its_code_and_its_test():
    missing = [section for section, found in by_section().items() if not found]
    assert missing == [], ("sections whose modelled rows no mutation proves honest (a rule of the section in "
                           f"`rules`, an edit inside a row's code site, the row's test in `tests`): {missing}")


def test_a_row_scenario_is_run_by_a_known_test():
    """Every scenario file a `modelled` row names lies in a folder whose runner is known, and the runners exist."""
    index = load_index()
    stray = sorted({t for r in index.rows if r.status == MODELLED for t in r.tests if not node_of(t)})
    assert stray == []
    for runner in set(RUNNERS.values()):
        file, _, name = runner.partition("::")
        assert name in {n for n, _, _ in _spans(file)}, runner


def test_the_check_tells_a_site_and_a_test_apart():
    index = load_index()
    row = index.row("703.4c")
    assert row is not None and row.status == MODELLED
    inside = Mutation("x", "703.4c", "model/power.py", "if self.power(s, c) <= 0:", "if self.power(s, c) < 0:",
                      tests=(node_of("tests/data/pins/R703.4c_power_exactly_zero.yaml"),), rules=("703.4c",))
    assert "model/power.py:PowerRules.zero_power" in sites_of(inside)
    assert proofs(inside) == [(row, "tests/test_rule_pins.py::test_pin_expectations_hold[R703.4c_power_exactly_zero]")]
    # PowerRules.fight is not 703.4c's site
    elsewhere = Mutation("y", "703.4c", "model/power.py", "winners = (a,) if pa > pb else",
                         "winners = (b,) if pa > pb else", tests=inside.tests, rules=("703.4c",))
    untested = Mutation("z", "703.4c", inside.file, inside.old, inside.new, tests=("tests/test_attack.py",),
                        rules=("703.4c",))
    unnamed = Mutation("w", "703.4c", inside.file, inside.old, inside.new, tests=inside.tests)
    assert proofs(elsewhere) == proofs(untested) == proofs(unnamed) == []


# a kill is the test's own verdict (an expectation or assertion that fails, or the loader refusing a file the
# broken rule makes bad), never the model crashing on a state the mutation made impossible
CRASH = re.compile(r"^E +(?:[\w.]+\.)?(\w+(?:Error|Exception))\b", re.M)
HONEST = {"AssertionError", "InputError"}


def chosen() -> list[tuple[str, Mutation, str]]:
    """One (section, mutation, test node) per section: its first proof."""
    return [(section, found[0][0], found[0][2]) for section, found in sorted(by_section().items()) if found]


@pytest.mark.slow
def test_each_section_mutation_is_killed_by_its_rows_test(tmp_path):
    """Each section's mutation, applied alone to one copy of the repository (restored after), fails the
    row's test by an assertion, not a crash; a mutation shared by several sections runs once per test."""
    repo = copy_repo(tmp_path)
    runs: dict[tuple[str, str], list[str]] = {}
    for section, m, node in chosen():
        runs.setdefault((m.id, node), []).append(section)
    by_id = {m.id: m for m in CATALOGUE}
    survivors = []
    for (mid, node), sections in runs.items():
        m = by_id[mid]
        path = repo / m.file
        original = path.read_text(encoding="utf-8")
        assert apply(repo, m) == "", f"{mid} does not apply"
        try:
            status, out = run(repo, ["-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", node], 600)
        finally:
            path.write_text(original, encoding="utf-8")
        crashes = sorted(set(CRASH.findall(out)) - HONEST)
        if status != "fail:1" or crashes:
            survivors.append(f"{mid} ({', '.join(sections)}): {node} -> {status} {crashes}; "
                             + (out.strip().splitlines() or [""])[-1][:120])
    assert survivors == []
