"""Cards made of several cards: the rulings' scenarios hold, piles move whole and are rebuilt
as each era says, the symmetry takes a pile for one object, the Z3 properties catch a model that leaves
a pile's cards behind, and a malformed pile or twinpact is refused with its file, line and what is allowed."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from conftest import DATA, ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.main import main
from dmcheck.model.procedure import BreakModel
from dmcheck.model.readings import Readings
from dmcheck.model.rules import timeline
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.checker import HOLDS, VIOLATED
from dmcheck.properties.checker import check as check_properties
from dmcheck.properties.expectations import check

PILES = sorted((ROOT / "scenarios" / "piles").glob("*.yaml"))
# scenarios whose ruling the default readings set aside: they hold under the reading named here
READINGS = {"CT03r_sources_not_counted": {"pile_count": "top_only"}}
BAD = DATA / "bad" / "corpus"


def _explore(path, rules=None, readings=None, reduce=False, symmetry=None):
    scenario = load_scenario(path)
    if rules is not None:
        scenario = type(scenario)(**{**scenario.__dict__, "rules": rules})
    model = BreakModel(scenario, Readings.make(readings) if readings else None)
    return scenario, model, explore(model, reduce=reduce, symmetry=symmetry)


def _outcomes(graph) -> list:
    return sorted(repr(sorted(o.items())) for o, _, _ in graph.outcomes())


@pytest.mark.parametrize("path", PILES, ids=[p.stem for p in PILES])
def test_the_rulings_on_piles_hold(path):
    scenario, _, graph = _explore(path, readings=READINGS.get(path.stem))
    assert graph.complete and scenario.expect
    for item in scenario.expect:
        verdict = check(graph, item)
        assert verdict.verdict == "holds", (item.raw, verdict.reason)


def test_the_default_reading_counts_the_sources_the_other_does_not():
    path = ROOT / "scenarios" / "piles" / "CT03_sources_counted.yaml"
    for reading, draws in (("cards", 2), ("top_only", 1)):
        _, _, graph = _explore(path, readings={"pile_count": reading})
        hands = {len(o["hand"]["B"]) for o, _, _ in graph.outcomes() if o["hand"]["A"]}
        assert hands == {draws}, reading


@pytest.mark.parametrize("path", PILES, ids=[p.stem for p in PILES])
def test_the_symmetry_keeps_every_outcome_of_a_pile(path):
    """A renaming of identical cards is sound whatever the piles: the same outcomes with it forced on."""
    readings = READINGS.get(path.stem)
    _, _, plain = _explore(path, readings=readings)
    _, _, renamed = _explore(path, readings=readings, reduce=True, symmetry=True)
    assert _outcomes(plain) == _outcomes(renamed)


def test_two_piles_made_alike_are_one_choice_and_two_made_differently_are_two(tmp_path):
    """Jolly's "destroy one": two Ladia Bales on a Vanilla each are interchangeable; on different cards not."""
    text = (ROOT / "scenarios" / "piles" / "EV02_destroy_takes_the_pile.yaml").read_text()
    alike = tmp_path / "alike.yaml"
    alike.write_text(text.replace("battle: [{card: Ladia Bale, under: [Vanilla]}]",
                                  "battle: [{card: Ladia Bale, under: [Vanilla]}, "
                                  "{card: Ladia Bale, under: [Vanilla]}]"))
    unlike = tmp_path / "unlike.yaml"
    unlike.write_text(text.replace("battle: [{card: Ladia Bale, under: [Vanilla]}]",
                                   "battle: [{card: Ladia Bale, under: [Vanilla]}, "
                                   "{card: Ladia Bale, under: [Dark Lupia]}]"))
    for path, choices in ((alike, 1), (unlike, 2)):
        _, model, graph = _explore(path)
        targets = {a.text for node in range(len(graph.parent)) for a in model.actions(graph.state(node))
                   if "destroys Ladia Bale" in a.text}
        assert len(targets) == choices, targets


def test_the_rebuild_depends_on_the_era():
    """801.4 since 2021-03-16 (S205): one creature stays, stacked; before (S206): its owner chooses."""
    path = ROOT / "scenarios" / "piles" / "RB01_rebuild_keeps_the_stack.yaml"
    new = {tuple(o["battle"]["A"]) for o, _, _ in _explore(path)[2].outcomes()}
    old = {tuple(o["battle"]["A"]) for o, _, _ in _explore(path, rules=dt.date(2021, 1, 1))[2].outcomes()}
    assert new == {("Vanilla",), ("Vortex Probe",)}
    assert ("Draw-on-enter creature", "Vanilla") in old and () in old


def test_a_version_repeats_the_switches_it_does_not_name():
    versions = timeline()
    rebuild = next(v for v in versions if v.date == dt.date(2021, 3, 16))
    before = versions[versions.index(rebuild) - 1]
    assert rebuild.simultaneous_break == before.simultaneous_break and rebuild.rebuild_keeps_stack
    assert not before.rebuild_keeps_stack and all(v.rebuild_keeps_stack for v in versions if v.date >= rebuild.date)


def test_pile_properties_catch_a_model_that_leaves_a_pile_behind(monkeypatch):
    """pile-cards-follow (801, 310.8) fails on a model sending the sources to the graveyard wherever
    the creature goes (what this model did before it modelled piles)."""
    from dmcheck.model.instructions import destruction, pile_moves

    def graveyard(m, z, card, to, out):
        return pile_moves.take_pile(m, z, card, "graveyard", out)
    monkeypatch.setattr(destruction, "take_pile", graveyard)
    _, model, graph = _explore(ROOT / "scenarios" / "piles" / "EV03_bounced_evolution_takes_its_source.yaml")
    follow = next(p for p in BUILTIN if p.id == "pile-cards-follow")
    (result,) = check_properties(graph, [follow]).verdicts
    assert result.verdict == VIOLATED


def test_pile_properties_hold_on_every_pile_scenario():
    ids = {"pile-cards-follow", "stack-breaks-whole"}
    props = [p for p in BUILTIN if p.id in ids]
    for path in PILES:
        _, model, graph = _explore(path, readings=READINGS.get(path.stem))
        for result in check_properties(graph, props).verdicts:
            assert result.verdict == HOLDS, (path.stem, result.property.id, result.reason)


def _run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), err.getvalue()


@pytest.mark.parametrize("name,line,words", [
    ("pile_on_a_spell.yaml", 9, ["expected a creature at the base of a pile", "Terror Pit is a spell"]),
    ("pile_base_not_a_creature.yaml", 9, ["under[1]", "expected a creature at the bottom of the pile"]),
    # 303.3: a cross gear crosses creatures only
    ("cross_on_a_spell.yaml", 9, ["expected a creature at the base of a pile", "`cross`", "Terror Pit is a spell"]),
    ("evolution_without_source.yaml", 9, ["nothing to evolve onto", "{card: Ladia Bale, under: [a creature]}",
                                          "S-MAX evolution needs no source"]),
])
def test_a_malformed_pile_is_bad_input(name, line, words):
    path = BAD / "scenario" / name
    code, err = _run("explore", str(path))
    assert code == 2 and f"{path}:{line}:" in err and all(w in err for w in words), err


@pytest.mark.parametrize("name,line,words", [
    ("twinpact_without_spell_side.yaml", 4, ["a twinpact has two sides", "`spell: {name, cost, effect}`",
                                            "is missing"]),
    ("twinpact_without_creature_power.yaml", 4, ["creature side's power (`power:`) is missing"]),
    ("spell_side_on_a_creature.yaml", 7, ["only a twinpact has a spell side"]),
])
def test_a_twinpact_with_a_side_missing_is_bad_input(name, line, words, tmp_path):
    path = BAD / "cards" / name
    wrapper = tmp_path / "wrapper.yaml"
    wrapper.write_text(f"name: w\ncards: [{path}]\nturn: A\nplayers:\n  A:\n    battle: [Kakumeijin]\n"
                       f"attack: {{attacker: Kakumeijin, player: B}}\n")
    code, err = _run("explore", str(wrapper))
    assert code == 2 and f"{path}:{line}:" in err and all(w in err for w in words), err


@pytest.mark.parametrize("path", PILES, ids=[p.stem for p in PILES])
def test_the_reduction_keeps_the_verdicts_of_the_pile_rulings(path):
    """explorer/reduction.py stays sound with the pile card words (their footprints are TOP): the same
    outcomes, verdicts and shortest traces as the full search, properties included."""
    from dmcheck.properties.expectations import observer
    from dmcheck.properties.visibility import observer as property_observer

    scenario = load_scenario(path)
    model = BreakModel(scenario, Readings.make(READINGS.get(path.stem)))
    obs = [o for o in (observer(scenario.expect), property_observer(model, BUILTIN)) if o]
    full = explore(model)
    reduced = explore(model, reduce=True, observe=lambda *t: tuple(o(*t) for o in obs))
    assert _outcomes(full) == _outcomes(reduced)
    for item in scenario.expect:
        a, b = check(full, item), check(reduced, item)
        assert a.verdict == b.verdict and (a.trace is None or len(a.trace.steps) == len(b.trace.steps)), item.raw
    a = {v.property.id: v.verdict for v in check_properties(full, BUILTIN).verdicts}
    b = {v.property.id: v.verdict for v in check_properties(reduced, BUILTIN).verdicts}
    assert a == b
