"""Every public source id (S + three digits, from S005; S000-S004 are the seed documents) that a shipped file
cites is declared in a `sources:` list of the built-in corpus (scenarios/corpus.yaml, scenarios/corpus.d/), so
that each citation leads to a page and a date.

The corpus checks the `source` of its own statements when it loads (rulings/corpus.py `check_sources`), and
tests/test_issue_items.py asks of the scenarios it counts only that one source be dated: neither looks at a
scenario's `source:` (free text, for users' own files), at a statement's `cites:` or notes, at a card file or at
the comments that say what a file rests on. So S303, S306, S332 and S333 were cited by shipped scenarios and a
pin, next to a declared source, and declared nowhere. Here every id written anywhere in the shipped text is
looked up: scenarios, card files and corpus files (every YAML file under scenarios/), the regression pins, the
model's data and code, the properties, the docs and the README. A range (`S300-S339`, `S005..S099`,
`S005–S042`, `` `S005`..`S099` ``) names the ids a file may use, not a source, and is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

from dmcheck.rulings.corpus import builtin_corpus

_ID = re.compile(r"(?<!\w)S\d{3}(?!\w)")
_RANGE = re.compile(r"(?<!\w)S\d{3}`?\s*(?:-|–|\.\.)\s*`?S\d{3}(?!\w)")
# folders whose text is shipped, and the file kinds read in them
_SHIPPED = {"scenarios": (".yaml",), "tests/data/pins": (".yaml",), "model": (".yaml", ".py"),
            "properties": (".py",), "rulings": (".py",), "dmcheck": (".py",), "docs": (".md", ".yaml")}


def shipped() -> list[Path]:
    files = [p for folder, kinds in _SHIPPED.items() for p in (ROOT / folder).rglob("*")
             if p.suffix in kinds and p.is_file() and "__pycache__" not in p.parts]
    return sorted([*files, ROOT / "README.md"])


def declared() -> set[str]:
    return {s.id for s in builtin_corpus().declared}


def cited(text: str) -> list[tuple[int, str]]:
    """(line, id) for every public source id the text cites, ranges of ids left out."""
    return [(n, m.group()) for n, line in enumerate(text.splitlines(), 1)
            for m in _ID.finditer(_RANGE.sub(" ", line)) if m.group() >= "S005"]


def undeclared(paths: list[Path], known: set[str], root: Path = ROOT) -> list[str]:
    return [f"{p.relative_to(root)}:{n}: {s}" for p in paths
            for n, s in cited(p.read_text(encoding="utf-8")) if s not in known]


def test_every_cited_source_is_declared():
    assert undeclared(shipped(), declared()) == []


def test_the_shipped_text_takes_in_scenarios_cards_corpus_files_and_pins():
    names = {p.relative_to(ROOT).as_posix() for p in shipped()}
    assert {"scenarios/attack/PW18_tie_both_lost.yaml", "scenarios/attack/cards/touch.yaml",
            "scenarios/rulings/cards/public.yaml", "scenarios/corpus.d/touch.yaml", "scenarios/corpus.yaml",
            "tests/data/pins/R400.8_texas_storm_creature_kept_in_place.yaml", "model/data/cards.yaml",
            "docs/corpus.md", "README.md"} <= names


def test_a_citation_of_an_undeclared_source_is_found_wherever_it_is(tmp_path):
    (tmp_path / "cards").mkdir()
    scenario = tmp_path / "X01.yaml"
    scenario.write_text("# dmwiki \"バトル\" (S901): ...\nname: X01\nsource: [S108 R104.2, S902 R110.4b]\n",
                        encoding="utf-8")
    cards = tmp_path / "cards" / "x.yaml"
    cards.write_text("cards:\n  - name: X\n    modelled: 'a probe (dmwiki \"キング\", S903)'\n", encoding="utf-8")
    corpus = tmp_path / "corpus.yaml"
    corpus.write_text("# Source ids S900-S999; S005..S099, `S005`..`S099` and S300–S339 are ranges\n"
                      "statements:\n  - id: X1\n    source: S904\n    cites: [R703.4c@S905, S112]\n"
                      "    note: as S000 and S004 say\n", encoding="utf-8")
    found = undeclared([scenario, cards, corpus], {"S108", "S112"}, tmp_path)
    assert found == ["X01.yaml:1: S901", "X01.yaml:3: S902", "cards/x.yaml:3: S903", "corpus.yaml:4: S904",
                     "corpus.yaml:5: S905"]


def test_a_shipped_scenario_citing_a_source_nobody_declares_fails():
    pw09 = ROOT / "scenarios" / "attack" / "PW18_tie_both_lost.yaml"
    known = declared() - {"S113"}   # as if the page PW18 cites (dmwiki 相打ち) were declared nowhere
    assert undeclared([pw09], known) == ["scenarios/attack/PW18_tie_both_lost.yaml:1: S113",
                                         "scenarios/attack/PW18_tie_both_lost.yaml:5: S113"]
