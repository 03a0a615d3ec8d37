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


# Pointers at files a clone does not have: research notes and digests kept beside the repository, and the
# absolute paths of a development machine. A public source is cited by its name and address instead.
_OUTSIDE = re.compile(r"\bresearch/[\w-]+\.md|\bdomain\.md\b|\.\./shared/|(?<![\w$])/(?:work|home|Users)/\w")
# model/ is reshaped by the general engine (its pointers go then); docs/conform.md's transcript prints
# model/data/cards.yaml's card definitions as the engine receives them
_LATER = ("model/", "docs/conform.md")
_TEXT = (".py", ".md", ".yaml", ".toml")


def test_no_comment_or_doc_points_at_a_file_outside_the_repository():
    import subprocess

    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    found = []
    for name in listed:
        if name.startswith(_LATER) or name == "tests/test_docs.py" or not name.endswith(_TEXT):
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")   # tests/data/bad holds non-UTF-8 files
        for number, line in enumerate(text.splitlines(), 1):
            if _OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert found == [], "\n".join(found)
