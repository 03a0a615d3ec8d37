"""The docs a clone has are enough: every link in README.md and docs/*.md stays inside the
repository and reaches a file that exists."""

from __future__ import annotations

import re

from conftest import ROOT

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_doc_links_stay_inside_the_repository_and_exist():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        assert "../shared/" not in text, f"{doc.name} sends users outside the repository"
        for target in LINK.findall(text):
            if "://" in target:
                continue
            path = (doc.parent / target).resolve()
            assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name}: broken link {target}"


def test_the_scenario_format_page_names_every_event_and_outcome_key():
    from dmcheck.model.scenario_file import EVENT_KEYS, OUTCOME_KEYS

    text = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    events = text.split("## Events", 1)[1].split("\n## ", 1)[0]     # the events table, not the keys of a scenario
    for event, keys in EVENT_KEYS.items():
        row = next((line for line in events.splitlines()
                    if line.startswith("|") and f"`{event}`" in line.split("|")[1] and "what happened" not in line
                    and line.count("|") == 4), None)
        assert row is not None, event
        for key in keys:
            assert f"`{key}`" in row, (event, key)
    for key in OUTCOME_KEYS:
        assert f"`{key}`" in text, key
