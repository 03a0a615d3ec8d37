"""The adapter for DMSIM (adapters/dmsim/), run only when DMSIM_ROOT names a DMSIM checkout and DMSIM_PYTHON
a Python it runs on (3.12 or newer): CI has neither and skips it (docs/conform-case-study.md,
adapters/dmsim/README.md). Without them, what the adapter says to a Python too old is still checked."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest
from conftest import ROOT

from dmcheck.main import main

DMSIM, PYTHON = os.environ.get("DMSIM_ROOT"), os.environ.get("DMSIM_PYTHON")
ADAPTER = ROOT / "adapters" / "dmsim" / "adapter.py"
needs_dmsim = pytest.mark.skipif(not (DMSIM and PYTHON),
                                 reason="DMSIM_ROOT (a DMSIM checkout) and DMSIM_PYTHON (Python 3.12+) not set")
SCENARIOS = ROOT / "scenarios"


def conform(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    code = main(["conform", "--engine", f"{PYTHON} {ADAPTER} --dmsim-root {DMSIM}", *argv, "--json"], out,
                io.StringIO())
    return code, json.loads(out.getvalue())


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="needs a Python older than DMSIM's 3.12")
def test_under_a_python_too_old_the_engine_does_not_start_saying_why():
    err = io.StringIO()
    code = main(["conform", "--engine", f"{sys.executable} {ADAPTER} --dmsim-root /nowhere",
                 str(SCENARIOS / "attack" / "A01_declaration_then_end.yaml")], io.StringIO(), err)
    assert code == 2 and "DMSIM needs Python 3.12 or newer" in err.getvalue()


@needs_dmsim
def test_the_case_study_deviations_are_found_again():
    """The per-shield S-Trigger declaration (SC2: DMSIM declares after each shield, never two together) and
    both 'wins all battles' creatures destroyed (PW16b, R700.5a); plain attacks and LO01 conform."""
    files = [SCENARIOS / "rulings" / "SC2_declare_then_use_in_any_order.yaml",
             SCENARIOS / "attack" / "PW16b_both_win_all_battles.yaml",
             SCENARIOS / "attack" / "A09_block_dai_league.yaml",
             SCENARIOS / "attack" / "LO01_deck_out_loses_at_once.yaml"]
    code, doc = conform(*map(str, files))
    status = {s["file"].rpartition("/")[2]: s for s in doc["scenarios"]}
    assert code == 1
    sc2 = status["SC2_declare_then_use_in_any_order.yaml"]["findings"]
    assert any(f["kind"] == "missing_choice" and "S-Trigger of Terror Pit, S-Trigger of Aqua Surfer" in f["message"]
               for f in sc2)
    pw16b = status["PW16b_both_win_all_battles.yaml"]["findings"]
    assert [f["kind"] for f in pw16b] == ["forbidden_outcome", "unreached_outcome"]
    assert status["A09_block_dai_league.yaml"]["status"] == "conforms"
    assert status["LO01_deck_out_loses_at_once.yaml"]["status"] == "conforms"


@needs_dmsim
def test_what_dmsim_cannot_be_given_is_unsupported_with_the_reason():
    files = [SCENARIOS / "attack" / "A12b_stopped_attack_still_ends.yaml",
             SCENARIOS / "piles" / "TW04_either_side_not_both.yaml",
             SCENARIOS / "attack" / "CN01_super_s_trigger_bonus_at_zero_shields.yaml"]
    _code, doc = conform(*map(str, files))
    reasons = {s["file"].rpartition("/")[2]: s["reason"] for s in doc["scenarios"]}
    assert all(s["status"] == "unsupported" for s in doc["scenarios"])
    before_break = reasons["A12b_stopped_attack_still_ends.yaml"]
    assert "before_break" in before_break and "one batch" in before_break
    assert "twinpact" in reasons["TW04_either_side_not_both.yaml"]
    assert "Super S-Trigger: DMSIM has no such keyword" in reasons["CN01_super_s_trigger_bonus_at_zero_shields.yaml"]


@pytest.mark.slow
@needs_dmsim
def test_the_whole_corpus_gives_the_kept_result(tmp_path):
    """The case study's result (adapters/dmsim/result.json) is what DMSIM gives on today's corpus bundle: the
    same status for every run. When the corpus changed, run adapters/case_study.py again."""
    kept = json.loads((ROOT / "adapters" / "dmsim" / "result.json").read_text(encoding="utf-8"))
    bundle = tmp_path / "corpus.json"
    assert main(["export", "--corpus", "--out", str(bundle)], io.StringIO(), io.StringIO()) == 0
    _code, doc = conform("--bundle", str(bundle), "--timeout", "30")
    now = {s["id"]: s["status"] for s in doc["scenarios"]}
    assert now == {r["id"]: r["status"] for r in kept["runs"]}, \
        "DMSIM's run differs from adapters/dmsim/result.json: run adapters/case_study.py run ... and render"
