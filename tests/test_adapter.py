"""The adapters of adapters/: what they share runs everywhere (the words they read); the adapter for the
public engine of adapters/duel_masters_ai runs only when DM_ENGINE_ROOT names the engine checkout's
dm_engine folder (docs/conform-case-study.md), as CI does not have it."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest
from conftest import ROOT

from dmcheck.main import main

ENGINE = os.environ.get("DM_ENGINE_ROOT")
needs_engine = pytest.mark.skipif(not ENGINE, reason="DM_ENGINE_ROOT (a duel-masters-ai checkout's dm_engine) not set")
ADAPTER = ROOT / "adapters" / "duel_masters_ai" / "adapter.py"


def test_the_adapters_know_every_rules_keyword_of_the_model():
    """adapters/words.py reads any word that is no rules keyword as a race: a keyword the model reads but
    the list lacks would be mapped to a race, a guess. Every keyword of model/vocabulary.py must be listed."""
    sys.path.insert(0, str(ROOT / "adapters"))
    try:
        import words
    finally:
        sys.path.pop(0)
    from dmcheck.model.keyword_table import NAMES
    from dmcheck.model.rules import timeline

    assert NAMES and set(NAMES) <= words.RULES
    assert words.SLAYER_SINCE == min(v.date for v in timeline() if v.slayer_any_battle).isoformat()
    assert words.split(["Blocker", "S-Back:Fire", "Fire", "Armored Dragon", "Slayer"]) == (
        [("Blocker", ""), ("S-Back", "Fire"), ("Slayer", "")], ["Fire"], ["Armored Dragon"])


def conform(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    command = f"{sys.executable} {ADAPTER} --engine-root {ENGINE}"
    code = main(["conform", "--engine", command, *argv, "--json"], out, io.StringIO())
    return code, json.loads(out.getvalue())


@needs_engine
def test_the_case_study_findings_are_found_again():
    code, doc = conform(str(ROOT / "adapters" / "duel_masters_ai" / "scenarios"))
    assert code == 1
    kinds = {(s["file"].rpartition("/")[2], f["kind"]) for s in doc["scenarios"] for f in s["findings"]}
    assert ("double_breaker_chooses_any_two.yaml", "missing_choice") in kinds
    assert ("g_strike_shield.yaml", "missing_choice") in kinds


@needs_engine
def test_what_the_engine_has_no_word_for_is_unsupported_never_guessed():
    """Wins All Battles is no keyword of the engine (read as a race, the card would play otherwise) and a
    twinpact's spell side has no counterpart (the card would lose a side): both unsupported. Slayer maps to
    the engine's own Slayer, and two losses at once to both."""
    files = [ROOT / "scenarios" / "attack" / name for name in
             ("PW16_wins_all_battles.yaml", "PW06_slayer_loses_and_takes_the_winner.yaml",
              "LO02_both_decks_out_both_lose.yaml")] + [ROOT / "scenarios" / "piles" / "TW04_either_side_not_both.yaml"]
    _code, doc = conform(*map(str, files))
    status = {s["file"].rpartition("/")[2]: (s["status"], s["reason"]) for s in doc["scenarios"]}
    assert status["PW16_wins_all_battles.yaml"][0] == "unsupported"
    assert "Wins All Battles" in status["PW16_wins_all_battles.yaml"][1]
    assert status["TW04_either_side_not_both.yaml"][0] == "unsupported"
    assert "twinpact" in status["TW04_either_side_not_both.yaml"][1]
    assert status["PW06_slayer_loses_and_takes_the_winner.yaml"][0] == "conforms"
    assert status["LO02_both_decks_out_both_lose.yaml"][0] == "conforms"


@needs_engine
def test_infinite_power_and_a_second_attack_are_unsupported():
    """The engine's power is an int (no infinity, R108.1c), and the adapter plays one attack: CH04 and TN01
    are unsupported, each with its reason."""
    files = [ROOT / "scenarios" / "attack" / "CH04_infinite_power_stays_infinite.yaml",
             ROOT / "scenarios" / "turn" / "TN01_second_attack_by_the_untapped_creature.yaml"]
    _code, doc = conform(*map(str, files))
    status = {s["file"].rpartition("/")[2]: (s["status"], s["reason"]) for s in doc["scenarios"]}
    assert status["CH04_infinite_power_stays_infinite.yaml"][0] == "unsupported"
    assert "no infinite power" in status["CH04_infinite_power_stays_infinite.yaml"][1]
    assert status["TN01_second_attack_by_the_untapped_creature.yaml"][0] == "unsupported"
    assert "end_attack_step" in status["TN01_second_attack_by_the_untapped_creature.yaml"][1]
