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
             SCENARIOS / "rulings" / "D2_hustle_castle.yaml",
             SCENARIOS / "attack" / "CN01_super_s_trigger_bonus_at_zero_shields.yaml"]
    _code, doc = conform(*map(str, files))
    reasons = {s["file"].rpartition("/")[2]: s["reason"] for s in doc["scenarios"]}
    assert all(s["status"] == "unsupported" for s in doc["scenarios"])
    before_break = reasons["A12b_stopped_attack_still_ends.yaml"]
    assert "before_break" in before_break and "DMSIM has no step" in before_break and "one batch" in before_break
    assert "castle" in reasons["D2_hustle_castle.yaml"] and "DMSIM has no" not in reasons["D2_hustle_castle.yaml"]
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


# ---- the translation of cards, without DMSIM (adapters/dmsim/card_map.py, word_map.py) ---------------------
sys.path.insert(0, str(ROOT / "adapters" / "dmsim"))
import card_map  # noqa: E402
import word_map  # noqa: E402


def _card(**fields) -> dict:
    return {"id": "probe", "name": "Probe", "type": "creature", "cost": 5, "power": 5000, "keywords": [], **fields}


def test_shield_saver_and_escape_become_dmsim_s_own_keyword_replacements():
    """Shield Saver (a creature destroyed instead of an own shield's break, if its owner wants) is DMSIM's
    shield_saver; Escape (one own shield to the hand, its S-Trigger not used, instead of being destroyed) is
    DMSIM's escape. A replacement doing anything else is not given to DMSIM."""
    saver = {"id": "shield_saver", "replaces": "own_shield_break", "optional": True, "effect": [{"destroy_self": {}}]}
    escape = {"id": "escape", "replaces": "self_destroy", "optional": True,
              "effect": [{"shield_to_hand": {"count": 1, "s_trigger": False, "whose": "own"}}]}
    keywords = card_map.definition(_card(abilities=[saver, escape]), "2024-06-19")["abilities"]["keyword"]
    assert {"ability_id": "shield_saver", "optional": True} in keywords and "escape" in keywords
    forced = dict(saver, optional=False)
    with pytest.raises(word_map.Unsupported, match="replaces own_shield_break.*does not translate"):
        card_map.definition(_card(abilities=[forced]), "2024-06-19")


def test_ninja_strike_keeps_its_mana_count():
    ninja = {"id": "ninja", "trigger": "ninja_strike", "effect": [{"ninja_summon": {"mana": 4}}]}
    keywords = card_map.definition(_card(abilities=[ninja]), "2024-06-19")["abilities"]["keyword"]
    assert {"ability_id": "ninja_strike", "mana_count": 4} in keywords


def test_what_dmsim_lacks_is_the_reason_given_before_what_the_adapter_does_not_translate():
    """The Watch's trigger (an opponent casts or summons) is not translated, but its effect (skip the rest
    of the turn) has no DMSIM counterpart at all: that is the reason, and it says so."""
    watch = {"id": "skip_turn", "trigger": "opponent_cast_or_summon", "effect": [{"skip_turn": {"optional": True}}]}
    with pytest.raises(word_map.Lacks, match="DMSIM has no effect that skips the rest of a turn"):
        card_map.definition(_card(abilities=[watch]), "2024-06-19")
    with pytest.raises(word_map.Lacks, match="Extra Break:\\+1: DMSIM has no such keyword"):
        card_map.definition(_card(keywords=["Revolution 0", "Extra Break:+1"]), "2024-06-19")
    with pytest.raises(word_map.Unsupported, match="Revolution 0: the adapter does not translate") as caught:
        card_map.definition(_card(keywords=["Revolution 0"]), "2024-06-19")
    assert not isinstance(caught.value, word_map.Lacks)


def test_a_card_s_civilizations_and_races_keys_are_carried_and_infinite_power_is_refused():
    """A card file may give civilizations and races as keys of their own (R106, R203); DMSIM gets them as it
    gets those written among the keywords. An infinite power (R108.1c), printed or as a change, has no DMSIM
    counterpart: its powers are whole numbers."""
    out = card_map.definition(_card(civilizations=["Fire", "Nature"], races=["Armored Dragon"]), "2024-06-19")
    assert out["civilizations"] == ["fire", "nature"] and out["race_ja"] == "Armored Dragon"
    with pytest.raises(word_map.Lacks, match="DMSIM has no infinite power"):
        card_map.definition(_card(power="infinity"), "2024-06-19")
    drain = _card(type="spell", power=0, effect=[{"power": {"amount": "-infinity", "target": "one",
                                                              "whose": "opponent", "until": "end_turn"}}])
    with pytest.raises(word_map.Lacks, match="DMSIM has no infinite power"):
        card_map.definition(drain, "2024-06-19")


def test_a_condition_is_read_as_a_mapping():
    """`if {cond: {no_shields: own}}` is checked on resolution as DMSIM's v2 `if` on its controller's shield
    count; a condition the adapter does not know (a Super S-Trigger's bonus) is unsupported, with its reason."""
    [built] = word_map.effects("Probe", [{"if": {"cond": {"no_shields": "own"}, "do": [{"draw": {"count": 1}}]}}])
    assert built["type"] == "if" and built["condition"]["player"] == "controller"
    assert built["condition"]["zone"] == "shield" and built["condition"]["value"] == 0
    with pytest.raises(word_map.Unsupported, match="card word `if"):
        word_map.effects("Probe", [{"if": {"cond": {"bonus": True}, "do": [{"draw": {"count": 1}}]}}])


def test_a_run_past_the_attack_step_and_a_race_met_by_part_of_a_word_are_refused():
    """The adapter plays one attack (and the end step) or the whole attack step: a limit on the attacks or the
    next turn are unsupported.
    DMSIM's race filter matches any part of the (English) names, dmcheck whole words (203.2): "Dragon"
    reaches "Armored Dragon" in both, "Dragonoid" in DMSIM only, which is refused."""
    import session

    for position in ({"until": "next_turn_start"}, {"until": "next_turn_draw"},
                     {"until": "end_attack_step", "attacks": 2}):
        with pytest.raises(word_map.Unsupported, match="does not translate"):
            session._one_attack({"position": position})
    session._one_attack({"position": {"until": "end_turn"}})
    session._one_attack({"position": {"until": "end_attack_step"}})

    def request(race: str) -> dict:
        return {"position": {"cards": {"P": "p"}}, "cards": {"p": _card(races=[race])}}
    session._races_told_apart(request("Armored Dragon"), ["Dragon"])
    with pytest.raises(word_map.Unsupported, match="in one of DMSIM and dmcheck only"):
        session._races_told_apart(request("Dragonoid"), ["Dragon"])


@needs_dmsim
def test_the_new_scenarios_conform_or_say_why_not():
    """CH12: Revolution Change reads the races key (an Armored Dragon is a Dragon, 203.2) and conforms; CN06:
    "if you have no shields" conforms; TN01: a second attack only by the untapped creature (505.5, 506.1a)
    conforms; CH04 (infinite power) is unsupported. TN09: DMSIM's G-Strike may choose no creature once used
    (509.5e's example: it chooses one), an extra choice."""
    files = [SCENARIOS / "attack" / "CH12_revolution_change_reads_the_race.yaml",
             SCENARIOS / "attack" / "CN06_if_you_have_no_shields.yaml",
             SCENARIOS / "attack" / "CH04_infinite_power_stays_infinite.yaml",
             SCENARIOS / "turn" / "TN01_second_attack_by_the_untapped_creature.yaml",
             SCENARIOS / "turn" / "TN09_cannot_attack_this_turn_holds_at_the_next_attack.yaml"]
    _code, doc = conform(*map(str, files))
    status = {s["file"].rpartition("/")[2]: (s["status"], s["reason"]) for s in doc["scenarios"]}
    assert status["CH12_revolution_change_reads_the_race.yaml"][0] == "conforms"
    assert status["CN06_if_you_have_no_shields.yaml"][0] == "conforms"
    assert status["CH04_infinite_power_stays_infinite.yaml"][0] == "unsupported"
    assert "DMSIM has no infinite power" in status["CH04_infinite_power_stays_infinite.yaml"][1]
    assert status["TN01_second_attack_by_the_untapped_creature.yaml"][0] == "conforms"
    tn09 = [s for s in doc["scenarios"] if "TN09_cannot_attack" in s["file"]]
    assert [f["kind"] for s in tn09 for f in s["findings"]] == ["extra_choice"]
    assert '"cant_attack"' in tn09[0]["findings"][0]["message"] and '"none"' in tn09[0]["findings"][0]["message"]


# ---- the translated abilities, run in DMSIM ---------------------------------------------------------------
def _by_id(doc: dict) -> dict:
    return {s["id"]: s for s in doc["scenarios"]}


@needs_dmsim
def test_shield_saver_conforms_and_escape_after_a_saver_is_the_deviation_of_rp03a():
    """DS04 (a Saver keeps one of the broken shields) and A21 (no Saver at a direct attack) conform. RP03a:
    Escape Saver destroyed by its own Shield Saver is not saved again by its Escape (a substitution is not
    substituted, RP01@S014, RP03@S017), but DMSIM offers the Escape there."""
    files = [SCENARIOS / "rulings" / "answers" / "DS04_new_saver_one_shield.yaml",
             SCENARIOS / "attack" / "A21_direct_attack_loss.yaml",
             SCENARIOS / "rulings" / "answers" / "RP03a_saver_escape_destroyed.yaml"]
    _code, doc = conform(*map(str, files))
    runs = _by_id(doc)
    assert runs["rulings/answers/DS04_new_saver_one_shield.yaml@2024-06-19"]["status"] == "conforms"
    assert runs["attack/A21_direct_attack_loss.yaml@2024-06-19"]["status"] == "conforms"
    rp03a = runs["rulings/answers/RP03a_saver_escape_destroyed.yaml@2024-06-19"]
    assert any(f["kind"] == "extra_choice" and "Escape Saver/escape" in f["message"] for f in rp03a["findings"])


@needs_dmsim
def test_ninja_strike_is_declared_only_after_the_turn_player_s_effects():
    """A07 (the reading `after_tp_resolved`) conforms; A05 (S116: declared when it triggers, before any
    waiting effect resolves) deviates: DMSIM offers the turn player's attack trigger first. Before
    2022-08-10 (NS03) Ninja Strike's mana was counted at its declaration: DMSIM has no such count."""
    files = [SCENARIOS / "attack" / "A07_ninja_strike_after_tp.yaml",
             SCENARIOS / "attack" / "A05_ninja_strike_at_trigger.yaml",
             SCENARIOS / "attack" / "NS03_ninja_strike_mana_at_declaration.yaml"]
    _code, doc = conform(*map(str, files))
    runs = _by_id(doc)
    assert runs["attack/A07_ninja_strike_after_tp.yaml@2024-06-19"]["status"] == "conforms"
    a05 = runs["attack/A05_ninja_strike_at_trigger.yaml@2024-06-19"]["findings"]
    assert any(f["kind"] == "missing_choice" and "Ninja Strike of Hayabusamaru" in f["message"] for f in a05)
    ns03 = runs["attack/NS03_ninja_strike_mana_at_declaration.yaml@2017-03-25"]
    assert ns03["status"] == "unsupported" and "DMSIM has no such count" in ns03["reason"]


def test_a_condition_on_the_attacking_creature_becomes_a_dmsim_filter():
    """Dogiragon Ken's Revolution Change: a Dragon, Fire or Nature, of cost 5 or more (all must hold)."""
    cond = {"all_of": ["Dragon"], "any_of": ["Fire", "Nature"], "cost_min": 5}
    assert word_map.attack_filter("Dogiragon Ken", cond) == {
        "race_ja": "Dragon", "civilization": ["fire", "nature"], "cost": {"gte": 5}}
    with pytest.raises(word_map.Unsupported, match="both races and civilizations"):
        word_map.attack_filter("Probe", {"any_of": ["Fire", "Dragon"]})


@needs_dmsim
def test_piles_stacks_the_end_step_and_a_conditional_s_trigger():
    """LG05: an evolution creature put this turn attacks (801.3). SP01: a shield of two cards is one shield,
    broken once. PW04: a power change of the turn ends in the end step (R511.2). R113.6c: "with 2 or fewer
    shields" counts the shields in standby out (113.6a), DMSIM counts them: no declaration is offered."""
    files = [SCENARIOS / "attack" / "LG05_evolution_never_summoning_sick.yaml",
             SCENARIOS / "piles" / "SP01_stacked_shield_one_break.yaml",
             SCENARIOS / "attack" / "PW04_turn_power_change_ends_with_the_turn.yaml",
             SCENARIOS / "rulings" / "R113.6c_counted_in_standby.yaml"]
    _code, doc = conform(*map(str, files))
    status = {s["file"].rpartition("/")[2]: s for s in doc["scenarios"]}
    for name in ("LG05_evolution_never_summoning_sick.yaml", "SP01_stacked_shield_one_break.yaml",
                 "PW04_turn_power_change_ends_with_the_turn.yaml"):
        assert status[name]["status"] == "conforms", name
    r113 = status["R113.6c_counted_in_standby.yaml"]["findings"]
    assert any(f["kind"] == "missing_choice" and "S-Trigger of Revolution Two" in f["message"] for f in r113)


@needs_dmsim
def test_a_keyword_given_for_the_turn_and_slayer_twice():
    """TR06: Alarm Probe gives one of its owner's creatures Blocker for the turn, which may then block
    (conforms). SK03: Velvet Flow with Slayer twice destroys Neverlast twice (110.7), so its Escape cannot
    keep it; DMSIM's battle destroys once, and Neverlast stays."""
    files = [SCENARIOS / "attack" / "TR06_granted_blocker.yaml",
             SCENARIOS / "attack" / "SK03_two_slayers_destroy_twice.yaml"]
    _code, doc = conform(*map(str, files))
    status = {s["file"].rpartition("/")[2]: s for s in doc["scenarios"]}
    assert status["TR06_granted_blocker.yaml"]["status"] == "conforms"
    sk03 = status["SK03_two_slayers_destroy_twice.yaml"]["findings"]
    assert any(f["kind"] == "forbidden_outcome" and "Neverlast" in f["message"] for f in sk03)
