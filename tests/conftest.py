"""Shared helpers for the tests: where the ruling scenarios are, and exploring one."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULINGS = sorted((ROOT / "scenarios" / "rulings").glob("*.yaml"))
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def ruling():
    """Load and explore a ruling scenario by its file stem prefix (e.g. 'Q06')."""
    from explorer.bfs import explore
    from model.procedure import BreakModel
    from model.scenario_file import load_scenario

    def run(prefix: str, **overrides):
        import dataclasses
        path = next(p for p in RULINGS if p.name.startswith(prefix))
        scenario = dataclasses.replace(load_scenario(path), **overrides)
        model = BreakModel(scenario)
        return scenario, model, explore(model)

    return run
