"""Japanese output (issue 38, item 5): `--lang ja` / `DMCHECK_LANG=ja` narrate every shipped scenario's
traces in the rules' own terms, with no English rules term left.

Every scenario dmcheck ships (scenarios/, the corpus's and the examples') is explored and each outcome's
shortest trace and each expectation's trace is narrated in both languages. In the Japanese one, after the
card names (in 《》, each checked to be a card's name as its file gives it) and the rule citations in
brackets are set aside, no English word of the rules may be left. The English narration is the one
dmcheck always printed.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.main import main
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

# the rules' words a Japanese narration must not leave in English (word forms included)
ENGLISH_TERMS = re.compile(
    r"\b(break|breaks|broken|shield|shields|trigger|triggers|S-Trigger|pending|resolve|resolves|standby|"
    r"attack|attacks|block|blocks|battle|battles|winner|zone|hand|mana|graveyard|deck|cast|casts|destroy|"
    r"destroyed|declare|declares|declarations|frame|step|turn|ability|abilities|effect|replaced|replaces|"
    r"chooses|choose|draws|discards|tapped|untapped|wins|loses|game|power|creature|spell|player|nothing|"
    r"before-break|end|ends|skips|goes|puts|returns|uses|none|Blocker|Slayer|Ninja|Strike|Revolution|Change|"
    r"Invasion|Evolution|Charger)\b", re.IGNORECASE)
CARD = re.compile(r"《([^》]*)》")
RULE = re.compile(r"\[[^\]]*\]|（D0）|\(D0\)")


def shipped() -> list[Path]:
    """Every scenario file dmcheck ships (not the card files, the corpus, sweep templates or rulings files)."""
    out = []
    for p in sorted((ROOT / "scenarios").rglob("*.yaml")):
        if "cards" in p.parts or p.parent.name in ("corpus.d", "sweeps") or p.name == "corpus.yaml":
            continue
        if p.parent.name == "yours" and p.name in ("rulings.yaml", "properties.yaml"):
            continue
        out.append(p)
    return out


def traces(path: Path) -> tuple[list, set[str]]:
    """A scenario's traces (each outcome's shortest, each expectation's) and the names its cards may be given."""
    scenario = load_scenario(path)
    model = BreakModel(scenario)
    graph = explore(model)
    found = [graph.trace(node) for _, _, node in graph.outcomes()]
    found += [v.trace for v in (check(graph, item) for item in scenario.expect) if v.trace is not None]
    names = set()
    for pid in scenario.pool.ids():
        card = scenario.pool[pid]
        for side in (card, card.spell_side):
            if side is not None:
                names.update({side.name, side.ja or side.name})
    return found, names


def told(trace) -> list[str]:
    """A trace's lines (headers and events) as the current language narrates them."""
    return [line for header, lines in trace.narrated() for line in (header, *lines)]


def _left(line: str, names: set[str]) -> str:
    """What is left of a Japanese line once its card names (checked) and citations are set aside."""
    for name in CARD.findall(line):
        assert name in names, f"《{name}》 is no card's name: {line}"
    return RULE.sub(" ", CARD.sub(" ", line))


@pytest.mark.parametrize("folder", ["rulings", "attack", "piles", "changes", "flow", "turn"])
def test_japanese_narration_leaves_no_english_rules_term(folder, monkeypatch):
    files = [p for p in shipped() if p.relative_to(ROOT / "scenarios").parts[0] == folder]
    assert files
    count = 0
    for path in files:
        try:
            found, names = traces(path)
        except InputError:
            continue        # a scenario the docs show being refused
        for trace in found:
            monkeypatch.setenv("DMCHECK_LANG", "en")
            english = told(trace)
            monkeypatch.setenv("DMCHECK_LANG", "ja")
            japanese = told(trace)
            assert len(english) == len(japanese)
            for line_en, line_ja in zip(english, japanese):
                left = _left(line_ja, names)
                found_terms = ENGLISH_TERMS.findall(left)
                assert not found_terms, f"{path.name}: {found_terms} left in {line_ja!r} (English: {line_en!r})"
                assert line_ja != line_en or not ENGLISH_TERMS.search(line_en), line_en
                count += 1
    assert count


def test_every_shipped_scenario_is_in_a_folder_the_test_reads():
    folders = {p.relative_to(ROOT / "scenarios").parts[0] for p in shipped()}
    assert folders <= {"rulings", "attack", "piles", "changes", "flow", "turn"}, folders


def test_lang_flag_and_environment(monkeypatch):
    q09 = str(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.delenv("DMCHECK_LANG", raising=False)
    assert main(["--lang", "ja", "explore", q09, "--rules", "2023-01-01"], out, err) == 1
    text = out.getvalue()
    assert "ブレイク" in text and "最短のトレース" in text and "《芸魔王将 カクメイジン》" in text
    monkeypatch.setenv("DMCHECK_LANG", "en")
    out = io.StringIO()
    main(["explore", q09, "--rules", "2023-01-01"], out, io.StringIO())
    assert "shortest trace" in out.getvalue() and "ブレイク" not in out.getvalue()
    err = io.StringIO()
    assert main(["--lang", "fr", "explore", q09], io.StringIO(), err) == 2
    assert "expected one of en, ja" in err.getvalue()
