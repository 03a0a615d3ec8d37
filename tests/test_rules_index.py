"""The rules table (model/data/rules_index.yaml) is whole and honest, and every rule citation is real.

- every section of the text's table of contents (chapters 0 to 8) has its rows;
- a `modelled` row names a code site and a test or scenario that exist;
- every rule number cited in the code, the corpus, the scenarios and the docs is a number of Ver.1.48,
  or the citation names the older edition whose number it is (rulings/citations.py);
- the checks themselves fail where they should (a made-up number, a missing code site).
"""

from __future__ import annotations

import ast
import shutil
from functools import cache
from pathlib import Path

import pytest

from dmcheck.model.errors import InputError
from dmcheck.model.rules_index import MODELLED, NOT_MODELLED, RuleRow, load_index, read_index
from dmcheck.rulings.citations import cited, files_under, unknown

ROOT = Path(__file__).resolve().parent.parent
# where citations are read: the code, the corpus and scenarios, the docs, the tests and benchmarks
CITING = ("model", "explorer", "properties", "rulings", "dmcheck", "scenarios", "docs", "README.md", "tests",
          "benchmarks", "adapters")
# the sections of Ver.1.48's table of contents, by chapter (the text's own もくじ)
SECTIONS = {0: ["000"], 1: [str(n) for n in range(100, 119)], 2: [str(n) for n in range(200, 209)],
            3: [str(n) for n in range(300, 317)], 4: [str(n) for n in range(400, 411)],
            5: [str(n) for n in range(500, 513)], 6: [str(n) for n in range(600, 610)],
            7: [str(n) for n in range(700, 704)], 8: [str(n) for n in range(800, 820)]}


def test_every_section_of_the_text_has_its_rows():
    index = load_index()
    have = {r.section for r in index.rows}
    for chapter, sections in SECTIONS.items():
        missing = [s for s in sections if s not in have]
        assert not missing, f"chapter {chapter}: no rows for sections {missing}"
    # a heading row for each section (chapter 0 is one row)
    headings = {r.rule for r in index.rows if "." not in r.rule}
    assert [s for secs in list(SECTIONS.values())[1:] for s in secs if s not in headings] == []


def test_not_modelled_rows_name_a_known_feature():
    index = load_index()
    for row in index.rows:
        if row.status == NOT_MODELLED:
            assert row.needs in index.features, row


@cache
def _definitions(path: Path) -> frozenset[str]:
    """The qualified names a Python file defines: functions, classes, methods, module-level names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(prefix + child.name)
                walk(child, prefix + child.name + ".")
            elif isinstance(child, (ast.Assign, ast.AnnAssign)) and not prefix:
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                found.update(t.id for t in targets if isinstance(t, ast.Name))
    walk(tree, "")
    return frozenset(found)


def missing_sites(row: RuleRow, root: Path = ROOT) -> list[str]:
    """The code sites and tests a `modelled` row names that do not exist under `root`."""
    missing = []
    for site in row.code:
        path, _, name = site.partition(":")
        file = root / path
        if not file.is_file() or not name or name not in _definitions(file):
            missing.append(site)
    for test in row.tests:
        path, _, name = test.partition("::")
        file = root / path
        if not file.is_file():
            missing.append(test)
        elif name and name.split("[")[0].replace("::", ".") not in _definitions(file):
            missing.append(test)
    return missing


def test_modelled_rows_name_code_and_tests_that_exist():
    bad = {r.rule: missing_sites(r) for r in load_index().rows if r.status == MODELLED}
    assert {k: v for k, v in bad.items() if v} == {}


def test_a_missing_code_site_is_found():
    row = RuleRow("509.4", "t", MODELLED, code=("model/procedure.py:BreakModel._no_such_method",),
                  tests=("tests/test_rule_pins.py::test_no_such_test", "scenarios/attack/NOPE.yaml"))
    assert missing_sites(row) == list(row.code + row.tests)
    real = RuleRow("509.4", "t", MODELLED, code=("model/procedure.py:BreakModel._eligible",),
                   tests=("tests/test_rule_pins.py::test_pin_expectations_hold",))
    assert missing_sites(real) == []


def test_every_citation_names_a_rule_of_the_edition():
    numbers = load_index().numbers()
    bad = unknown(files_under(ROOT, CITING), numbers, ROOT)
    assert [str(c) for c in bad] == []


MADE_UP = "509" + ".97"   # written in two parts so that this file itself cites nothing made up


def test_a_made_up_rule_number_in_a_docstring_is_caught(tmp_path):
    copy = tmp_path / "model"
    shutil.copytree(ROOT / "model", copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    numbers = load_index().numbers()
    before = {(c.file, c.line, c.number) for c in unknown(files_under(tmp_path, ["model"]), numbers, tmp_path)}
    target = copy / "procedure.py"
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace('"""', '"""R' + MADE_UP + ': a rule that does not exist. ', 1), encoding="utf-8")
    found = [c for c in unknown(files_under(tmp_path, ["model"]), numbers, tmp_path)
             if (c.file, c.line, c.number) not in before]
    assert [(c.file, c.number) for c in found] == [("model/procedure.py", MADE_UP)]


@pytest.mark.parametrize("text, numbers", [
    ("R509.4c and rule 701.14d, rules 509.3", ["509.4c", "701.14d", "509.3"]),
    ("(703.4c, dmwiki)", ["703.4c"]),
    ("R104", ["104"]),
    ("id: R507.1a.v138", ["507.1a"]),
    ("the 1.48 edition of 2025-12-17; 862 MB; 146.5 s; 600.0; v1.42; D4 SC3 Q02 RC2023-04-19", []),
])
def test_what_counts_as_a_citation(text, numbers):
    assert [c.number for c in cited(text)] == numbers


@pytest.mark.parametrize("text", ["811.1a of v1.28 (2022-04-08)", "R112.3c of 2018-08-09", "R507.1a.v138",
                                  "rules v1.22 reworded 701.26a", "316.3 of the 2023-04-10 edition"])
def test_a_citation_may_name_its_older_edition(text):
    assert [c.other_edition for c in cited(text)] == [True]


def test_a_table_with_mistakes_names_each(tmp_path):
    bad = tmp_path / "rules_index.yaml"
    bad.write_text(
        "edition: '1.48'\ndate: '2025-12-17'\nsource: x\n"
        "features:\n  turns: {title: the whole turn}\n  unused: {title: nothing needs it}\n"
        "rules:\n"
        "  - {rule: '509.4', title: a, status: modelled, code: [model/procedure.py:BreakModel._eligible]}\n"
        "  - {rule: '509.3', title: b, status: not_modelled, needs: nosuch, reason: r}\n"
        "  - {rule: '509.3', title: c, status: frobbed}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_index(bad)
    lines = [str(e) for e in caught.value.all()]
    assert any(":8:" in line and "tests" in line for line in lines), lines
    assert any(":10:" in line and "status" in line for line in lines), lines
    with pytest.raises(InputError):
        bad.write_text(bad.read_text().replace("frobbed", "modelled, code: [a:b], tests: [c]"), encoding="utf-8")
        read_index(bad)


# ---- `dmcheck rules` -----------------------------------------------------------------------------------
def _run(*argv: str) -> tuple[int, str, str]:
    import io

    from dmcheck.main import main
    out, err = io.StringIO(), io.StringIO()
    code = main(["rules", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_counts_every_row_by_chapter_and_feature():
    from conftest import output
    code, text, _ = _run("--json")
    doc = output(text)
    index = load_index()
    assert code == 0 and len(doc["rules"]) == len(index.rows)
    assert sum(c["counts"]["modelled"] for c in doc["chapters"]) == doc["counts"]["modelled"] == \
        sum(r.status == MODELLED for r in index.rows)
    needing = sum(len(f["rules"]) for f in doc["features"])
    assert needing == doc["counts"]["not_modelled"] == sum(r.status == NOT_MODELLED for r in index.rows)
    code, text, _ = _run("509.4")
    assert code == 0 and [line.split()[0] for line in text.splitlines()[:-1] if not line.startswith(" ")] == \
        ["509.4", "509.4a", "509.4b", "509.4c"]


def test_the_command_refuses_an_unknown_number_or_feature():
    assert _run("999.9")[0] == 2
    code, _, err = _run("--feature", "nosuch")
    assert code == 2 and "unknown feature 'nosuch'" in err and "Traceback" not in err


def test_the_readme_section_is_the_table():
    from dmcheck.commands.rules import markdown
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = "<!-- rules-table:start -->\n", "<!-- rules-table:end -->"
    section = text[text.index(start) + len(start):text.index(end)]
    assert section == markdown(load_index()), \
        "README.md's rules section is stale: put the output of `dmcheck rules --markdown` between its markers"


def test_a_card_of_a_feature_not_modelled_is_refused_naming_its_rules(tmp_path):
    from dmcheck.model.cards import CardPool
    file = tmp_path / "cards.yaml"
    file.write_text("cards:\n"
                    "  - {id: a, name: A, type: psychic, cost: 3, power: 1000}\n"
                    "  - {id: b, name: B, type: creature, cost: 3, power: 1000, keywords: [Dragon, God Link]}\n",
                    encoding="utf-8")
    with pytest.raises(InputError) as caught:
        CardPool().add_file(file)
    lines = [str(e) for e in caught.value.all()]
    assert len(lines) == 2
    assert ":2:" in lines[0] and "806" in lines[0] and "--feature psychic_creatures" in lines[0]
    assert ":3:" in lines[1] and "'God Link'" in lines[1] and "804" in lines[1]


def test_the_quick_word_list_is_every_feature_word_of_the_table():
    """needed_for looks a word up in the features' words read alone (rules_index `_feature_words`) before it
    loads and checks the whole table: the two must hold the same words, or a word would go unrefused."""
    from dmcheck.model.rules_index import _feature_words
    words = {w.casefold() for f in load_index().features.values() for w in f.words}
    assert words and _feature_words() == frozenset(words)
