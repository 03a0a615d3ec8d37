"""The adapter for the public engine of adapters/duel_masters_ai (not needed by CI): run only when
DM_ENGINE_ROOT names the engine checkout's dm_engine folder (docs/conform-case-study.md)."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest
from conftest import ROOT

from dmcheck.main import main

ENGINE = os.environ.get("DM_ENGINE_ROOT")
pytestmark = pytest.mark.skipif(not ENGINE, reason="DM_ENGINE_ROOT (a duel-masters-ai checkout's dm_engine) not set")


def test_the_case_study_findings_are_found_again():
    out = io.StringIO()
    command = f"{sys.executable} {ROOT / 'adapters' / 'duel_masters_ai' / 'adapter.py'} --engine-root {ENGINE}"
    code = main(["conform", "--engine", command, str(ROOT / "adapters" / "duel_masters_ai" / "scenarios"), "--json"],
                out, io.StringIO())
    doc = json.loads(out.getvalue())
    assert code == 1
    kinds = {(s["file"].rpartition("/")[2], f["kind"]) for s in doc["scenarios"] for f in s["findings"]}
    assert ("double_breaker_chooses_any_two.yaml", "missing_choice") in kinds
    assert ("g_strike_shield.yaml", "missing_choice") in kinds
