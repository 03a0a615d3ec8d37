"""The rulings corpus as data: complete, paraphrased, and loaded strictly (FILE:LINE: key: expected)."""

from __future__ import annotations

import datetime as dt
import io
import re

import pytest
from conftest import DATA, ROOT
from ruamel.yaml import YAML

from dmcheck.main import main
from dmcheck.model.readings import CHOICES
from dmcheck.model.rules import timeline, version_on
from dmcheck.rulings.corpus import builtin_corpus, parse_constraint

SEEDS = ROOT.parent / "shared" / "seeds"
BAD = DATA / "bad" / "rulings"

# every rule and ruling of the seeds S000-S004 the project numbered
DIGEST = ["R509.4a", "R509.4b", "R509.3", "R509.4", "R509.4c", "R603.7", "R603.7a", "R603.7b",
          "D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "SC1", "SC2", "SC3", "SC4", "SC5",
          "R112.3a", "R113.6a", "R113.6b", "R113.6c", "R113.6d", "R304.3", "R701.6a", "R701.6b",
          "Q01", "Q02", "Q03", "Q04", "Q05", "Q06", "Q07", "Q08", "Q09", "Q10", "Q12a", "Q13", "Q14"]


@pytest.fixture(scope="module")
def corpus():
    return builtin_corpus()


def test_every_digest_statement_is_there(corpus):
    ids = {s.id for s in corpus.statements}
    assert set(DIGEST) <= ids
    assert {f"Q11{c}" for c in "abcdef"} <= ids
    assert {"RC2023-04-19", "RC2022-04-08"} <= ids   # the two rule changes


def test_statements_of_different_sources_are_separate_entries(corpus):
    refs = {s.ref for s in corpus.statements}
    # the replacement-timing dispute: S002's flow, S001's rulings, the rules text of S000 and v1.42 (S001)
    assert {"D2@S002", "D3@S002", "Q11f@S001", "Q11c@S001", "R509.3@S000", "R509.3@S001",
            "R603.7b@S000", "R603.7b@S001"} <= refs
    assert corpus.get("R509.3@S001").date.isoformat() == "2024-06-19"   # v1.42
    # the seeds, then the public sources of scenarios/corpus.d/, each one declared
    assert corpus.sources()[:5] == ["S000", "S001", "S002", "S003", "S004"]
    assert set(corpus.sources()[5:]) <= {s.id for s in corpus.declared}
    assert all(re.fullmatch(r"S\d{3}", s) for s in corpus.sources())


def test_every_statement_says_how_it_is_checked(corpus):
    for s in corpus.statements:
        assert s.scenarios or s.declarative() or s.unchecked, s.ref
        for path in s.scenarios:
            assert path.is_file(), (s.ref, path)


def test_every_built_in_scenario_belongs_to_a_statement(corpus):
    used = {p for s in corpus.statements for p in s.scenarios}
    # not card files, corpora, sweep templates or starting points
    files = {p.resolve() for p in (ROOT / "scenarios").glob("*/*.yaml")
             if p.parent.name not in ("cards", "corpus.d", "sweeps", "yours")}
    assert files <= used, sorted(str(p) for p in files - used)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def test_texts_are_paraphrases_not_the_seeds_sentences(corpus):
    if not list(SEEDS.glob("*.txt")):
        pytest.skip("the seed documents S000-S004 are kept beside the repository, not in it: nothing to compare")
    seeds = " ".join(w for p in sorted(SEEDS.glob("*.txt")) for w in _words(p.read_text(encoding="utf-8")))
    for s in corpus.statements:
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", s.text), s.ref   # in English, not quoted Japanese
        words = _words(s.text)
        for i in range(len(words) - 6):
            run = " ".join(words[i:i + 7])
            assert run not in seeds, (s.ref, run)


def test_readings_name_statements_of_the_corpus(corpus):
    refs = {s.ref for s in corpus.statements}
    for c in CHOICES:
        for reading, aside in c.sets_aside:
            assert reading in [r for r, _ in c.readings]
            assert set(aside) <= refs, (c.name, reading, set(aside) - refs)
    # the default reading of the replacement timing sets aside S002's D3, the other one S001's Q11
    timing = next(c for c in CHOICES if c.name == "break_replacement_timing")
    assert timing.set_aside("at_break") == ("D3@S002",)
    assert "Q11f@S001" in timing.set_aside("before_triggers")


def test_rules_versions_name_the_statements_of_their_change(corpus):
    data = YAML(typ="safe").load((ROOT / "model" / "data" / "rules_versions.yaml").read_text(encoding="utf-8"))
    refs = {s.ref for s in corpus.statements}
    for v in data["versions"]:
        assert set(v.get("statements", ())) <= refs


def test_the_timeline_runs_forward_and_docs_list_its_eras():
    """Each version starts after the one before, under its own name, and docs/corpus.md's table of eras
    has one row per version, in order, from its date (the rows say what changes: docs, not code)."""
    versions = timeline()
    assert all(a.date < b.date for a, b in zip(versions, versions[1:]))
    assert len({v.name for v in versions}) == len(versions)
    text = (ROOT / "docs" / "corpus.md").read_text(encoding="utf-8")
    table = text.split("## Rules eras", 1)[1].split("\n\n| era (from)", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| (\d{4}-\d{2}-\d{2})\b", table, flags=re.M)
    assert rows == [v.date.isoformat() for v in versions]


def test_a_statement_is_in_force_from_the_version_of_its_date(corpus):
    oldest, old = timeline()[0], version_on(dt.date(2017, 3, 25))   # old: the shields of one attack at once
    change2022, change2023, v142 = (version_on(dt.date(*d)) for d in ((2022, 4, 8), (2023, 4, 19), (2024, 6, 19)))
    assert not corpus.get("Q01@S000").in_force(change2022) and corpus.get("Q01@S000").in_force(change2023)
    assert corpus.get("R509.3@S001").in_force(v142) and not corpus.get("R509.3@S001").in_force(change2023)
    # a statement about the earlier rules speaks of them until the change
    rc = corpus.get("RC2023-04-19@S001")
    assert rc.in_force(oldest) and rc.in_force(old) and rc.in_force(change2022) and not rc.in_force(change2023)
    # an undated statement (S004) speaks of every version; a ruling runs under the version of its date
    assert corpus.get("SC2@S004").in_force(old) and corpus.get("SC2@S004").in_force(oldest)
    assert corpus.get("Q02@S000").run_version().name == change2023.name
    assert corpus.get("Q12a@S003").run_version().name == change2022.name
    assert corpus.get("RC2023-04-19@S001").run_version().date < change2023.date


def test_constraint_syntax():
    c = parse_constraint("last(before_break_resolved) < break")
    assert str(c) == "last(before_break_resolved) < break"
    assert parse_constraint("shields_chosen = before_break_triggered").op == "="
    assert "unknown milestone" in parse_constraint("a < break")
    assert "first or last" in parse_constraint("first(break) = shield_check")


CASES = [
    ("unknown_milestone.yaml", 7, ["statements[0].order[0]", "unknown milestone 'brake'", "before_break_resolved"]),
    ("bad_constraint.yaml", 7, ["statements[0].order[0]", "expected MILESTONE < MILESTONE"]),
    ("unknown_key.yaml", 6, ["statements[0].scenario", "unknown key 'scenario'", "scenarios"]),
    ("missing_scenario.yaml", 7, ["statements[0].scenarios[0]", "scenario file 'nowhere.yaml' not found"]),
    ("duplicate.yaml", 7, ["statements[1].id", "B1@TEST is already stated at line 2"]),
    ("clashes_with_builtin.yaml", 2, ["statements[0].id", "Q09@S000 is already stated at", "corpus.yaml"]),
    ("unknown_reading.yaml", 7, ["order_if[0].when.nested_other_pending", "all, inner_only", "some"]),
    ("not_checked.yaml", 2, ["statements[0]", "expected how it is checked"]),
    ("bad_date.yaml", 4, ["statements[0].date", "YYYY-MM-DD", "last spring"]),
]


@pytest.mark.parametrize("name,line,words", CASES, ids=[c[0] for c in CASES])
def test_bad_rulings_file_names_file_line_and_key(name, line, words):
    out, err = io.StringIO(), io.StringIO()
    code = main(["verify", "--rulings", str(BAD / name)], out, err)
    message = err.getvalue()
    assert code == 2
    assert f"{BAD / name}:{line}:" in message, message
    for word in words:
        assert word in message, (word, message)
    assert "Traceback" not in message and out.getvalue() == ""


def test_a_bad_scenario_named_by_a_rulings_file_is_bad_input(tmp_path):
    scenario = tmp_path / "broken.yaml"
    scenario.write_text("name: x\nturn: A\nplayers:\n  A:\n    hands: [Vanilla]\n"
                        "attack: {attacker: Vanilla, player: B}\n")
    rulings = tmp_path / "r.yaml"
    rulings.write_text("statements:\n  - id: B1\n    source: TEST\n    date: 2024-01-10\n"
                       "    text: A scenario file with a typo in it.\n    scenarios: [broken.yaml]\n")
    err = io.StringIO()
    assert main(["verify", "--rulings", str(rulings)], io.StringIO(), err) == 2
    assert f"{scenario}:5: players.A.hands: unknown key 'hands'" in err.getvalue()
