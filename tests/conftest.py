"""Shared helpers for the tests: where the ruling scenarios are, and exploring one."""

from __future__ import annotations

import os
import signal
import struct
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULINGS = sorted((ROOT / "scenarios" / "rulings").glob("*.yaml"))
DATA = Path(__file__).resolve().parent / "data"


def output(text: str) -> dict:
    """A command's --json output, parsed and validated against the published JSON Schema."""
    import json

    import jsonschema

    from dmcheck.cli.report import schema

    doc = json.loads(text)
    jsonschema.Draft202012Validator(schema()).validate(doc)
    return doc


def scenario_output(text: str) -> dict:
    """The one scenario of an explore/check --json output (validated), for tests of one file."""
    doc = output(text)
    assert doc["errors"] == [] and len(doc["scenarios"]) == 1, doc["errors"]
    return doc["scenarios"][0]


@pytest.fixture
def ruling():
    """Load and explore a ruling scenario: by its whole file stem, or a prefix only one file has ('Q06')."""
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario

    def run(prefix: str, **overrides):
        import dataclasses
        exact = [p for p in RULINGS if p.stem == prefix]
        found = exact or [p for p in RULINGS if p.name.startswith(prefix)]
        assert len(found) == 1, f"{prefix!r} names {len(found)} ruling scenarios"
        path = found[0]
        scenario = dataclasses.replace(load_scenario(path), **overrides)
        model = BreakModel(scenario)
        return scenario, model, explore(model)

    return run


def expectations_hold(path) -> None:
    """Every expectation of the scenario file holds on its reduced exploration (the search completes)."""
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.properties.expectations import check

    scenario = load_scenario(path)
    graph = explore(BreakModel(scenario), reduce=True)
    assert graph.complete
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (item.raw, verdict.reason)


def verdicts(path, model_class=None) -> list[str]:
    """The verdict of each expectation of the scenario file on its unreduced exploration (the search
    completes); `model_class` is a lenient model a test puts in place of BreakModel."""
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.properties.expectations import check

    scenario = load_scenario(path)
    graph = explore((model_class or BreakModel)(scenario))
    assert graph.complete
    return [check(graph, item).verdict for item in scenario.expect]


def die_sending() -> None:
    """In a worker of a concurrent.futures process pool: die as if killed in the middle of sending a result
    (a length header that promises more than follows on the result pipe, then SIGKILL). The executor's
    own thread then waits for the rest of a message that never comes (rulings/pools.py, `Watch`)."""
    frame = sys._getframe()
    while frame is not None and "result_queue" not in frame.f_locals:    # concurrent.futures' _process_worker
        frame = frame.f_back
    assert frame is not None, "die_sending is called outside a process pool's worker"
    os.write(frame.f_locals["result_queue"]._writer.fileno(), struct.pack("!i", 1 << 20) + b"half a result")
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture
def short_grace(monkeypatch):
    """A dead worker is found unnoticed by its pool after 0.3 s, not rulings/pools.py's 2 s: quicker tests."""
    from dmcheck.rulings import pools
    monkeypatch.setattr(pools, "GRACE", 0.3)
