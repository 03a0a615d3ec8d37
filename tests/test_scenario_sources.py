"""Every public source a shipped scenario or pin cites by id (`source: [S112, S340 R110.4b]`) is declared
in the built-in corpus (`sources:` of scenarios/corpus.yaml and scenarios/corpus.d/), as the corpus asks of
its statements (rulings/corpus.py `check_sources`; S000-S004 are the seed documents): a citation must lead
to a page and a date. The corpus checks its own statements' sources when it loads; a scenario's `source:`
is free text for a user's own files, so the shipped ones are checked here."""

from __future__ import annotations

import re
from pathlib import Path

from dmcheck.model.yamlio import load_yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCE_ID = re.compile(r"S\d{3}")


def _declared() -> set[str]:
    files = [ROOT / "scenarios" / "corpus.yaml", *sorted((ROOT / "scenarios" / "corpus.d").glob("*.yaml"))]
    out = set()
    for f in files:
        for src in load_yaml(f).get("sources") or []:
            out.add(src["id"])
    return out


def _cited(path: Path) -> list[str]:
    raw = load_yaml(path)
    if not isinstance(raw, dict) or "source" not in raw or "statements" in raw:
        return []
    items = raw["source"] if isinstance(raw["source"], list) else [raw["source"]]
    return [str(item).split()[0] for item in items if SOURCE_ID.fullmatch(str(item).split()[0])
            and str(item).split()[0] >= "S005"]


def undeclared(paths: list[Path], declared: set[str]) -> list[str]:
    return [f"{p.relative_to(ROOT)}: {s}" for p in paths for s in _cited(p) if s not in declared]


def _shipped() -> list[Path]:
    return sorted([*(ROOT / "scenarios").rglob("*.yaml"), *(ROOT / "tests" / "data" / "pins").rglob("*.yaml")])


def test_every_cited_source_is_declared():
    assert undeclared(_shipped(), _declared()) == []


def test_a_citation_of_an_undeclared_source_is_found(tmp_path, monkeypatch):
    bad = ROOT / "scenarios" / "attack" / "PW09_tie_both_lost.yaml"
    declared = _declared() - {"S113"}   # as if the page PW09 cites were declared nowhere
    assert undeclared([bad], declared) == ["scenarios/attack/PW09_tie_both_lost.yaml: S113"]
