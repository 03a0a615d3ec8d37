"""Every shipped scenario keeps its outcome set and its verdicts (issue 33: the general engine changes no
answer unless a ruling says the old one was wrong).

The baseline, tests/data/shipped_outcomes.json, holds for each shipped scenario file (dmcheck.cli.shipped
`catalogue`, explored under its own rules and readings, reduced as the command line explores): whether
the search completed, its distinct outcomes (canonical JSON, without counts or replay keys: the order
of choices may change them) and the verdict of each of its expectations; a file the loader refuses is
kept with its message. It was recorded at ddec6ed, after the general engine, the whole turn and the
special cards had landed: it guards what they answer from here on. When a change is meant (a ruling
says an answer was wrong), rewrite it with

    .venv/bin/python tests/test_shipped_outcomes.py write

and say in the commit which files changed and why; the test prints every file whose answers differ.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tests" / "data" / "shipped_outcomes.json"


def answers(path: str) -> dict[str, Any]:
    """What one shipped scenario answers: completeness, outcome set, verdicts (or the loader's refusal)."""
    from dmcheck.cli.shipped import shipped_root
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.errors import InputError
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.properties.expectations import check

    file = shipped_root() / path.removeprefix("scenarios/")
    try:
        scenario = load_scenario(file)
    except InputError as exc:
        return {"refused": exc.expected}
    graph = explore(BreakModel(scenario), reduce=True)
    return {"complete": graph.complete,
            "outcomes": sorted(json.dumps(o, sort_keys=True, separators=(",", ":")) for o, _, _ in graph.outcomes()),
            "verdicts": [check(graph, item).verdict for item in scenario.expect]}


def shipped_scenarios() -> list[str]:
    from dmcheck.cli.shipped import catalogue
    return [entry["path"] for entry in catalogue() if entry["kind"] == "scenario"]


def write() -> None:
    baseline = {path: answers(path) for path in shipped_scenarios()}
    BASELINE.write_text(json.dumps(baseline, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{BASELINE.relative_to(ROOT)}: {len(baseline)} scenarios")


def test_every_shipped_scenario_keeps_its_outcomes_and_verdicts():
    before = json.loads(BASELINE.read_text(encoding="utf-8"))
    now = shipped_scenarios()
    assert sorted(now) == sorted(before), (
        f"scenarios added: {sorted(set(now) - set(before))}; removed: {sorted(set(before) - set(now))} "
        f"(rewrite the baseline: see this module's docstring)")
    changed = []
    for path in now:
        got = answers(path)
        if got != before[path]:
            lost = sorted(set(before[path].get("outcomes", ())) - set(got.get("outcomes", ())))
            gained = sorted(set(got.get("outcomes", ())) - set(before[path].get("outcomes", ())))
            changed.append(f"{path}: outcomes lost {lost}, gained {gained}; verdicts "
                           f"{before[path].get('verdicts')} -> {got.get('verdicts')}; "
                           f"refused {before[path].get('refused')!r} -> {got.get('refused')!r}")
    assert not changed, "\n".join(changed)


def test_the_baseline_covers_every_shipped_scenario_and_says_something_of_each():
    before = json.loads(BASELINE.read_text(encoding="utf-8"))
    assert sorted(before) == sorted(shipped_scenarios())
    for path, got in before.items():
        assert got.get("refused") or (got["outcomes"] and got["complete"] is not None), path


if __name__ == "__main__":
    if sys.argv[1:] != ["write"]:
        raise SystemExit("usage: tests/test_shipped_outcomes.py write")
    write()
