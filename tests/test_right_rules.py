"""Rules where public rulings disagreed with the model (issue 35), one test or more per rule.

Each scenario below was written from the rule or answer its corpus statement cites
(scenarios/corpus.d/right_answers.yaml); the tests here also check what a scenario's `expect` cannot say
alone: the model's error for a step that never ends and the limits inside a step, other eras and readings,
the labels of the actions, bad input. `benchmarks/mutations.py` breaks each of these rules once; the tests
here are what kills each mutation (its `tests=`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
from pathlib import Path

import pytest
from conftest import ROOT, output
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.errors import EndlessStep
from dmcheck.model.events import ev
from dmcheck.model.instructions import destruction
from dmcheck.model.procedure import BreakModel
from dmcheck.model.readings import Readings
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace
from dmcheck.properties.expectations import check

ATTACK, PILES = ROOT / "scenarios" / "attack", ROOT / "scenarios" / "piles"
SCENARIOS = sorted(
    [ATTACK / f"{n}.yaml" for n in ("PW08_printed_power_zero_destroyed", "PW09_power_zero_between_two_changes",
                                    "IG05_ignored_indestructible_at_power_zero", "IG06_ignored_breaker_breaks_one",
                                    "IG07_ignored_saver_saves_nothing", "IG08_ignored_then_destroyed_stays_silent",
                                    "BL03_two_forced_blockers_both_block", "BL04_three_blockers_last_one_blocks",
                                    "SK01_two_power_attackers_both_apply", "SK02_two_additional_breaks_both_count",
                                    "SK03_two_slayers_destroy_twice", "HZ10_two_copies_of_one_attack_chance",
                                    "LG05_evolution_never_summoning_sick", "CN08_super_bonus_fixed_at_the_declaration",
                                    "A12e_end_of_attack_abilities_before_attack_effects_end",
                                    "NS04_ninja_window_before_own_effects")]
    + [PILES / f"{n}.yaml" for n in ("SM04_one_smax_per_player", "SM05_smax_discards_only_a_copy",
                                     "EV11_evolution_put_by_an_effect_goes_onto_a_creature",
                                     "EV12_evolution_with_no_source_cannot_be_put", "EV13_neo_creature_evolves_or_not",
                                     "RB04_rebuilt_creature_keeps_the_tapped_state")])


def _explore(path: Path, model_class=BreakModel, readings: dict | None = None, **overrides):
    scenario = dataclasses.replace(load_scenario(path), **overrides)
    model = model_class(scenario, Readings.make(readings) if readings else None)
    return scenario, model, explore(model)


def _holds(scenario, graph) -> None:
    assert graph.complete, graph.reason
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (scenario.name, item.raw, verdict.reason,
                                            verdict.trace.lines() if verdict.trace else None)


def test_the_statements_name_every_scenario_here():
    from dmcheck.rulings.corpus import builtin_corpus
    named = {p.resolve() for s in builtin_corpus().statements if s.file.endswith("right_answers.yaml")
             for p in s.scenarios}
    assert {p.resolve() for p in SCENARIOS} <= named


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenarios_hold_reduced_and_unreduced(path):
    scenario, model, graph = _explore(path)
    _holds(scenario, graph)
    reduced = explore(BreakModel(scenario), reduce=True)
    _holds(scenario, reduced)


# ---- item 1: 703.4c for every creature -------------------------------------------------------------------
def test_a_creature_file_without_power_is_checked_only_once_a_change_reaches_it(tmp_path):
    # a card file may leave a creature's power out (it reads 0): it is not destroyed for that alone
    (tmp_path / "c.yaml").write_text("cards:\n  - {id: nopow, name: No Power Probe, type: creature, cost: 1}\n",
                                     encoding="utf-8")
    (tmp_path / "s.yaml").write_text("name: t\nrules: 2025-12-17\ncards: [c.yaml]\nturn: A\nplayers:\n"
                                     "  A: {battle: [Vanilla W-breaker]}\n  B: {battle: [No Power Probe], shields: 1}\n"
                                     "attack: {attacker: Vanilla W-breaker, player: B}\n", encoding="utf-8")
    _, model, graph = _explore(tmp_path / "s.yaml")
    assert not model.printed_zero
    for node in graph.terminals:
        assert [model.label(c) for c in graph.state(node).zone("B").battle] == ["No Power Probe"]


# ---- item 2: one place reads abilities; a step that never ends; limits inside a step ------------------------
def _printed_indestructible(monkeypatch):
    """The model's old mistake, put back: destruction reads the printed "cannot be destroyed" where the
    power-0 check honours the ignoring."""
    original = destruction.attempt

    def attempt(m, s, card, out, *args, **kwargs):
        if card in s.zone(m.owner(card)).battle and m.card(card).has("Indestructible"):
            out.append(ev("destroy", "R701.6a", card=m.label(card), player=m.owner(card)))
            return s
        return original(m, s, card, out, *args, **kwargs)
    monkeypatch.setattr(destruction, "attempt", attempt)


LOOP = ATTACK / "IG05_ignored_indestructible_at_power_zero.yaml"


def test_the_looping_position_ends_within_two_seconds_with_its_answer():
    from dmcheck.main import main
    out, err = io.StringIO(), io.StringIO()
    code = main(["explore", str(LOOP), "--max-seconds", "2", "--json"], out, err)
    doc = output(out.getvalue())
    assert code == 0 and doc["complete"] is not False, err.getvalue()
    (scenario,) = doc["scenarios"]
    assert scenario["complete"] and all(e["holds"] for e in scenario["expectations"])


def test_a_step_that_comes_back_is_a_model_error_with_its_trace(monkeypatch):
    from dmcheck.main import main
    _printed_indestructible(monkeypatch)
    out, err = io.StringIO(), io.StringIO()
    code = main(["explore", str(LOOP), "--max-seconds", "2"], out, err)
    text = err.getvalue()
    assert code == 70, text   # found by the model within the 2 s budget (the budget would have made it 3)
    assert "model error" in text and "replay key 0/0/0" in text and "Traceback" not in text
    assert "this step never ends" in text and "Indestructible Probe (B) has power 0" in text
    out = io.StringIO()
    assert main(["explore", str(LOOP), "--json"], out, io.StringIO()) == 70
    doc = output(out.getvalue())
    assert doc["complete"] is False and "model error" in doc["errors"][0]["message"]


def test_the_model_error_names_one_round_of_the_loop(monkeypatch):
    import pickle
    _printed_indestructible(monkeypatch)
    with pytest.raises(EndlessStep) as caught:
        _explore(LOOP)
    kinds = [e.kind for e in caught.value.events]
    assert kinds[:2] == ["power_zero", "destroy"] and caught.value.search_key == "0/0/0"
    back = pickle.loads(pickle.dumps(caught.value))   # as a worker process sends it back
    assert type(back) is EndlessStep and back.search_key == "0/0/0" and back.events == caught.value.events


class _Counting:
    """A model of no game whose one step takes `rounds` rounds, asking the search's check as it goes."""

    def __init__(self, rounds: int):
        self.rounds, self.check = rounds, None

    def watch(self, check):
        self.check = check

    def initial_state(self):
        return 0

    def actions(self, state):
        return ("go",) if state == 0 else ()

    def step(self, state, action):
        for n in range(1, self.rounds + 1):
            if n % 256 == 0 and self.check is not None:
                self.check(n)
        return 1, ()


def test_the_state_limit_bounds_the_work_inside_a_step():
    model = _Counting(10**9)
    graph = explore(model, Limits(max_states=5000))
    assert not graph.complete and "inside one step" in graph.reason and "5000" in graph.reason
    assert model.check is None   # handed back when the search is over
    assert explore(_Counting(3000), Limits(max_states=5000)).complete


def test_the_time_limit_bounds_the_work_inside_a_step():
    graph = explore(_Counting(10**12), Limits(max_states=10**12, max_seconds=0.3))
    assert not graph.complete and "time limit" in graph.reason and "inside one step" in graph.reason


def test_the_command_time_limit_bounds_a_step_that_never_ends(monkeypatch):
    # with the model's own loop detection out of the way, --max-seconds still ends the command, incomplete
    from dmcheck.main import main
    from dmcheck.model import procedure
    _printed_indestructible(monkeypatch)
    monkeypatch.setattr(procedure, "REMEMBER_AFTER", 10**12)
    out, err = io.StringIO(), io.StringIO()
    code = main(["explore", str(LOOP), "--max-seconds", "1"], out, err)
    assert code == 3 and "inside one step" in out.getvalue(), out.getvalue() + err.getvalue()


# ---- item 4: every forced Blocker; before 2021-09-07 one of them --------------------------------------------
def test_before_several_blockers_one_of_two_forced_blockers_blocks():
    _, model, graph = _explore(ATTACK / "BL03_two_forced_blockers_both_block.yaml", rules=dt.date(2021, 1, 1))
    block = next(graph.state(n) for n in range(graph.count) if graph.state(n).phase == "block")
    acts = model.actions(block)
    assert [len(a.choice) for a in acts] == [1, 1] and all(a.kind == "block" for a in acts)


# ---- the Blocker resolved last blocks, whatever the label says (S154) -----------------------------------
def test_each_block_action_does_what_its_label_says():
    _, model, graph = _explore(ATTACK / "BL04_three_blockers_last_one_blocks.yaml")
    block = next(graph.state(n) for n in range(graph.count) if graph.state(n).phase == "block")
    sizes = set()
    for action in model.actions(block):
        if action.kind != "block":
            continue
        _, events = model.step(block, action)
        blocked = [e.get("card") for e in events if e.kind == "block"]
        tapped = sorted(e.get("card") for e in events if e.kind == "tap")
        last = action.text.split(" with ")[1].split(",")[0]
        assert blocked == [last], action.text
        assert tapped == sorted(model.label(c) for c in action.choice[1:]), action.text
        sizes.add(len(action.choice))
    assert sizes == {1, 2, 3}


# ---- item 6: one S-MAX per player --------------------------------------------------------------------------
def test_a_position_with_two_smax_for_one_player_is_put_right_before_the_declaration(tmp_path):
    """815.1a is a static ability: a position with two S-MAX evolution creatures for one player is not
    refused (issue 34) but put right first, his choice, before the attack is declared."""
    path = tmp_path / "s.yaml"
    path.write_text("name: t\nturn: A\ncards: [" + str(ROOT / "scenarios" / "attack" / "cards" / "right.yaml") +
                    "]\nplayers:\n  A: {battle: [Vanilla W-breaker]}\n"
                    "  B:\n    battle: [Johnny-MAX, MAX Trigger Probe]\n    shields: 1\n"
                    "attack: {attacker: Vanilla W-breaker, player: B}\n", encoding="utf-8")
    model = BreakModel(load_scenario(path))
    first = model.actions(model.initial_state())
    assert {a.player for a in first} == {"B"} and len(first) == 2
    assert all("815.1a" in a.text and "keeps" in a.text for a in first)
    for action in first:
        after, events = model.step(model.initial_state(), action)
        assert after.phase == "declare" and not after.running   # the declaration comes next
        assert [(e.kind, e.get("to")) for e in events] == [("put", "hand")]


# ---- item 7: the window under both readings -----------------------------------------------------------------
@pytest.mark.parametrize("reading", ["after_tp_resolved", "at_trigger"])
def test_the_defenders_own_mana_comes_too_late_under_either_reading(reading):
    scenario, _, graph = _explore(ATTACK / "NS04_ninja_window_before_own_effects.yaml",
                                  readings={"ntp_declaration_time": reading})
    _holds(scenario, graph)


# ---- item 9: an evolution a swap would put cannot be swapped in --------------------------------------------
def test_a_vortex_evolution_put_by_an_effect_goes_onto_two_creatures(tmp_path):
    (tmp_path / "c.yaml").write_text(
        "cards:\n  - {id: vortex_trigger, name: Vortex Trigger Probe, type: creature, cost: 5, power: 9000,\n"
        "     keywords: [Vortex Evolution, S-Trigger]}\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(
        "name: t\nrules: 2025-12-17\ncards: [c.yaml]\nturn: A\nplayers:\n  A: {battle: [Vanilla W-breaker]}\n"
        "  B: {battle: [Vanilla, Vanilla], shields: [Vortex Trigger Probe]}\n"
        "attack: {attacker: Vanilla W-breaker, player: B}\n", encoding="utf-8")
    _, model, graph = _explore(tmp_path / "s.yaml")
    piles = set()
    for node in graph.terminals:
        z = graph.state(node).zone("B")
        piles.add((tuple(model.name(c) for c in z.battle), len(z.attached)))
    assert piles == {(("Vanilla", "Vanilla"), 0), (("Vortex Trigger Probe",), 2)}


# ---- item 11: each copy; Slayer given twice -------------------------------------------------------------------
def test_slayer_printed_and_given_twice_counts_three():
    _, model, graph = _explore(ATTACK / "SK03_two_slayers_destroy_twice.yaml")
    s = graph.state(0)
    velvet = next(c for c in s.zone("B").battle if model.label(c) == "Velvet Flow")
    assert model.keyword_count(s, velvet, "Slayer") == 1
    given = replace(s, granted=((velvet, "Slayer"), (velvet, "Slayer")))
    assert model.keyword_count(given, velvet, "Slayer") == 3
    ignored = replace(given, granted=given.granted + ((velvet, "Ignored"),))
    assert model.keyword_count(ignored, velvet, "Slayer") == 0


# ---- item 13: block sets over classes of identical Blockers -----------------------------------------------------
def _blockers(tmp_path, n: int) -> Path:
    path = tmp_path / f"b{n}.yaml"
    walls = ", ".join(["Wall Probe"] * n)
    path.write_text(f"name: t\nsource: [S153]\nrules: 2024-06-19\ncards: [{ATTACK / 'cards' / 'touch.yaml'}]\n"
                    f"turn: A\nplayers:\n  A: {{battle: [Vanilla W-breaker]}}\n  B: {{battle: [{walls}], shields: 2}}\n"
                    f"attack: {{attacker: Vanilla W-breaker, player: B}}\n", encoding="utf-8")
    return path


def test_identical_blockers_give_one_set_per_number(tmp_path):
    model = BreakModel(load_scenario(_blockers(tmp_path, 12)))
    block, _ = model.declared(model.initial_state())
    assert block.phase == "block"
    acts = model.actions(block)
    assert len(acts) == 13 and [len(a.choice) for a in acts] == list(range(1, 13)) + [0]
    _, _, graph = _explore(_blockers(tmp_path, 40))
    assert (graph.count, graph.transitions, graph.complete) == (44, 43, True)


# ---- `some-declaration` sees every S-Trigger variant ------------------------------------------------------------
@pytest.mark.parametrize("name", ["CN08_super_bonus_fixed_at_the_declaration", "CN04_s_trigger_plus_two_broken"])
def test_some_declaration_applies_to_super_s_triggers_and_s_trigger_plus(name):
    from dmcheck.properties.builtin import BUILTIN
    from dmcheck.properties.checker import check as check_properties
    prop = next(p for p in BUILTIN if p.id == "some-declaration")
    _, model, graph = _explore(ATTACK / f"{name}.yaml")
    assert prop.applies(model) == ""
    (result,) = check_properties(graph, [prop]).verdicts
    assert result.verdict == "holds"


# ---- item 2, in general: no step of a random position with ignoring, "cannot be destroyed" and power
# changes goes on for long -----------------------------------------------------------------------------------
class _Rounds(BreakModel):
    """The model, noting the most rounds one step's automatic procedure took."""

    most = 0

    def _advance(self, s, out):
        after = super()._advance(s, out)
        self.most = max(self.most, self.rounds)
        return after


_ATTACKERS = ["Silence Probe", "Silence Strike Probe", "Ebb and Flow Probe", "Vanilla W-breaker", "Gemm Emperor"]
_DEFENDERS = ["Indestructible Probe", "Staying Probe", "Small Probe", "Bucket Bucket", "Last Word Probe",
              "Must Block Probe", "Hush Probe", "Zero Probe", "Savark MAX Probe"]
_SHIELDS = ["Vanilla", "Zero Probe", "Shield Adder Probe", "Super Trigger Probe", "Silence Probe"]


def _position(attacker: str, defenders: list, powers: list, shields: list, ignored: bool) -> str:
    # B's Hush Probe ignores the attacker's abilities; A's Silence Probes and Gemm Emperor ignore B's
    entries = ", ".join([f"{{card: {d}, power: {p}}}" if p else d for d, p in zip(defenders, powers)]
                        + (["Hush Probe"] if ignored else []))
    return (f"name: random position\nrules: 2025-12-17\ncards: [{ATTACK / 'cards' / 'touch.yaml'}, "
            f"{ATTACK / 'cards' / 'right.yaml'}]\nturn: A\nplayers:\n  A:\n    battle: [{attacker}]\n"
            f"  B:\n    battle: [{entries}]\n    shields: [{', '.join(shields)}]\n"
            f"attack: {{attacker: {attacker}, player: B}}\n")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacker=st.sampled_from(_ATTACKERS),
       defenders=st.lists(st.sampled_from(_DEFENDERS), min_size=1, max_size=3),
       powers=st.lists(st.sampled_from([0, 0, -1000, -3000, -5000, 2000]), min_size=3, max_size=3),
       shields=st.lists(st.sampled_from(_SHIELDS), min_size=0, max_size=2),
       ignored=st.booleans())
def test_no_step_of_a_random_position_takes_long(tmp_path_factory, attacker, defenders, powers, shields, ignored):
    path = tmp_path_factory.mktemp("pos") / "s.yaml"
    path.write_text(_position(attacker, defenders, powers, shields, ignored), encoding="utf-8")
    model = _Rounds(load_scenario(path))
    graph = explore(model, Limits(max_states=20_000))   # an EndlessStep would fail the test here
    assert model.most <= 10_000, (path.read_text(encoding="utf-8"), model.most)
    assert graph.count


@pytest.mark.slow   # verify reads and explores the whole corpus first (about 20 s)
def test_verify_reports_a_model_error_with_its_scenario(monkeypatch, tmp_path):
    # a rulings file of one's own whose scenario loops in the (deliberately wrong) model: exit 70, named
    from dmcheck.main import main
    _printed_indestructible(monkeypatch)
    rulings = tmp_path / "rulings.yaml"
    rulings.write_text(f"statements:\n  - id: LOOP1\n    source: mine\n    date: 2025-12-17\n"
                       f"    text: an ignored creature that cannot be destroyed is destroyed at power 0\n"
                       f"    scenarios: [{LOOP}]\n", encoding="utf-8")
    err = io.StringIO()
    code = main(["verify", "--rulings", str(rulings), "--jobs", "1", "--summary"], io.StringIO(), err)
    assert code == 70 and "model error" in err.getvalue() and LOOP.name in err.getvalue(), err.getvalue()
