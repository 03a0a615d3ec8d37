"""The shield-check, replacement and destruction properties: they hold on every ruling under
both readings of `break_replacement_timing` and every rules version, their examples exist where the
scenario can show them, and each deliberately wrong model of `wrong_models.py` is caught by its
property with a shortest trace whose last step shows the fault.

The faults are written here from the rules' text, over the events and states of one transition,
without Z3 and without the property's facts; `assert_caught_with_a_shortest_trace` (test_properties)
replays the counterexample and checks by its own breadth-first search that no shorter trace has the
fault.
"""

from __future__ import annotations

import datetime as dt

import pytest
import wrong_models
from conftest import RULINGS
from test_properties import BY_ID, PROPS, assert_caught_with_a_shortest_trace, graph_of, ruling

from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.builtin import BUILTIN, SHIELD_NEEDS, ShieldProperty, shield_features
from dmcheck.properties.checker import HOLDS, NO_EXAMPLE, VIOLATED, check
from dmcheck.properties.expectations import check as check_expectation

SHIELD_IDS = ("no-resolve-during-check", "standby-not-counted", "discard-pays-once", "castle-after-s-trigger",
              "replaced-break-not-broken", "destroyed-follows-destroy", "no-hidden-destroyed-trigger",
              "some-declaration", "some-replacement")
SHIELD = [BY_ID[i] for i in SHIELD_IDS]
BEFORE_TRIGGERS = {"break_replacement_timing": "before_triggers"}
DESTRUCTION = ("Q11", "Q12", "Q13", "Q14", "RC2022")


def test_the_issue_properties_are_built_in_with_citations_and_rules_versions():
    for p in SHIELD:
        assert p.citations and p.text.endswith(".")
        # no rules-version switch (model/data/rules_versions.yaml) changes the shield check, the
        # replacements or what a "when destroyed" ability sees: each applies to every version
        assert p.since is None and p.until is None and p.rules_text() == "every rules version"
    assert {p.id for p in SHIELD if p.kind == "sometimes"} == {"some-declaration", "some-replacement"}
    assert BY_ID["no-resolve-during-check"].citations[:2] == ("R509.5e", "R101.4")
    assert "R113.6a" in BY_ID["standby-not-counted"].citations
    assert "R304.3" in BY_ID["castle-after-s-trigger"].citations
    assert "R701.6a-b" in BY_ID["destroyed-follows-destroy"].citations
    assert "Q12" in BY_ID["no-hidden-destroyed-trigger"].citations


# ---- they hold on every ruling, under both readings and both rules versions --------------------------
def _graph(path, reading: dict, rules: dt.date | None = None):
    """The graph under a reading of the replacement timing (the scenario's other readings kept) and,
    when given, an older rules version (a scenario written for older rules keeps its own)."""
    scenario = load_scenario(path)
    overrides: dict = {}
    if reading:
        overrides["readings"] = dict(scenario.readings or {}, **reading)
    if rules and (scenario.rules is None or scenario.rules > rules):
        overrides["rules"] = rules
    return graph_of(path, **overrides)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [None, dt.date(2023, 1, 1)], ids=["current rules", "rules before 2023-04-19"])
@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_every_builtin_property_holds_under_before_triggers(path, rules):
    # the default reading (at_break) is checked by test_properties for every built-in property; here
    # the other reading of the replacement timing (S002 D2-D3), in both rules versions
    graph = _graph(path, BEFORE_TRIGGERS, rules)
    assert graph.complete
    for v in check(graph, BUILTIN).verdicts:
        assert v.verdict in (HOLDS, NO_EXAMPLE), \
            (v.property.id, v.reason, v.trace.lines() if v.trace else None, v.witness)


@pytest.mark.slow
@pytest.mark.parametrize("prefix", DESTRUCTION)
def test_destruction_properties_hold_before_2022(prefix):
    # before 2022-04-08 only creatures are destroyed (S003): a seal or an aura just goes to the graveyard
    props = [BY_ID["destroyed-follows-destroy"], BY_ID["no-hidden-destroyed-trigger"]]
    for path in RULINGS:
        if not path.name.startswith(prefix):
            continue
        for reading in ({}, BEFORE_TRIGGERS):
            graph = _graph(path, reading, dt.date(2022, 1, 1))
            for v in check(graph, props).verdicts:
                assert v.verdict in (HOLDS, NO_EXAMPLE), (path.name, reading, v.property.id, v.reason)


@pytest.mark.parametrize("name", ["saved_only_shield", "unbreakable_only_shield"])
def test_a_replaced_break_is_not_a_shield_that_left(name):
    # D2, Q10: the attack chose one shield and a replacement took its break (a Shield Saver decided at
    # the break or at the choice; "cannot be broken", applied in the very step of the choice): nothing
    # broke, yet no chosen shield left the zone, so the attack is not stopped; and the replaced break
    # is not one that must still happen (R509.4c)
    for reading in ({}, BEFORE_TRIGGERS):
        graph = _graph(PROPS / f"{name}.yaml", reading)
        assert all(check_expectation(graph, e).holds for e in graph.model.scenario.expect)
        for v in check(graph, BUILTIN).verdicts:
            assert v.verdict in (HOLDS, NO_EXAMPLE), \
                (reading, v.property.id, v.reason, v.trace.lines() if v.trace else None)


# ---- the sometimes properties apply where a scenario can show them ------------------------------------
# (where they apply, test_properties finds their examples under the default reading, and the test above
# under the other one: a `sometimes` property holds only with an example)
@pytest.mark.slow
def test_the_sometimes_properties_apply_where_a_scenario_can_show_them():
    applies: dict[str, set[str]] = {"some-declaration": set(), "some-replacement": set()}
    for path in RULINGS:
        model = BreakModel(load_scenario(path))
        for pid, found in applies.items():
            if not BY_ID[pid].applies(model):
                found.add(path.stem)
    # an S-Trigger or G-Strike among the shields (SC2), an S-Back with a Nature shield, a Sabaki Z with a
    # Judgement Crest (SC3)
    assert {"SC2_declare_then_use_in_any_order", "SC2_no_s_trigger", "SC2_s_back", "SC3_sabaki_z_revolution_0",
            "SC4_fizzle", "R304.3_castle_after_s_trigger", "Q13_viola_ex_life",
            "Q14_escape_chain"} <= applies["some-declaration"]
    # `needs` reads card text only: no card that can be declared at all (plain shields, an
    # S-Trigger-less hand) leaves the property out; a card that could be declared but cannot be here
    # (a locked type, an S-Back that only arrives with the check) lets it apply, and the search then
    # reports "no example in this scenario" rather than a violation
    assert not applies["some-declaration"] & {"Q01_bolshack_rider", "Q07_kankuro_blaster"}
    # a castle, a destroy replacement, a Shield Saver, a shield that cannot be broken: by card text
    assert {"D2_hustle_castle", "Q11a_jolly_skull_moon", "Q11d_savark_saver", "Q11e_cannot_be_broken",
            "Q13_viola_ex_life", "Q14_escape_chain", "Q11c_saver_destroyed_cannot_protect",
            "R304.3_castle_after_s_trigger"} <= applies["some-replacement"]
    assert not applies["some-replacement"] & {"Q01_bolshack_rider", "Q07_kankuro_blaster"}


def test_shield_needs_are_validated_and_explained():
    with pytest.raises(ValueError, match="unknown needs"):
        ShieldProperty("p", "P.", ("SC2",), "sometimes", "transitions", lambda t: t.true(), needs=("castles",))
    model = BreakModel(load_scenario(ruling("Q01")))
    assert shield_features(model) == set()
    why = BY_ID["some-declaration"].applies(model)
    assert why.startswith("the scenario lacks what it needs") and SHIELD_NEEDS["declaration"] in why


# ---- the wrong models are caught ----------------------------------------------------------------------
def _ids(model):
    return {i.label: i.id for i in model.instances}


def _resolves_in_check(model):
    # R509.5e: a pending ability resolved while a shield check was in progress
    return lambda pre, events, post: bool(pre.checks) and any(e.kind == "resolve" for e in events)


def _broken_still_counted(model):
    # R113.6a: a shield broken by this transition is still among the counted shields after it
    ids = _ids(model)
    return lambda pre, events, post: any(
        e.kind == "break" and ids[e.get("shield")] in post.zone(e.get("player")).shields for e in events)


def _discard_shared(model):
    # SC2/SC3: a discarded card is also the card of a declaration, in this transition or before
    def fault(pre, events, post):
        declared = {e.get("card") for e in events if e.kind == "declare"}
        declared |= {model.label(d.card) for c in pre.checks for d in c.declared}
        return any(e.kind == "declare" and e.get("cost") in declared for e in events)
    return fault


def _castle_gone_from_standby_shield(model):
    # R304.3: a castle went to the graveyard while its shield is still in standby (before SC3)
    def fault(pre, events, post):
        return any(k in post.zone(p).graveyard and h in post.zone(p).standby
                   for p in ("A", "B") for k, h, kind in pre.zone(p).links if kind == "castle")
    return fault


def _replaced_and_broken(model):
    # D4: the same shield's break was replaced and happened
    def fault(pre, events, post):
        replaced = {e.get("shield") for e in events if e.kind == "replace" and e.get("replaced") == "break"}
        return bool(replaced & {e.get("shield") for e in events if e.kind == "break"})
    return fault


def _destroyed_without_attempt(model):
    # R701.6a-b: a creature destroyed with no destroy attempt on it in this transition, none waiting for
    # a replacement choice before it, and lying on no card
    ids = _ids(model)

    def fault(pre, events, post):
        waiting = {t.program[t.pc].get("card") for t in pre.running
                   if t.pc < len(t.program) and t.program[t.pc].op == "_leave"}
        attempted = set()
        for e in events:
            if e.kind == "destroy":
                attempted.add(e.get("card"))
            if e.kind == "destroyed" and e.get("card") not in attempted and ids[e.get("card")] not in waiting \
                    and not any(c == ids[e.get("card")] for z in pre.zones for c, _, _ in z.links):
                return True
        return False
    return fault


def _dragon_trigger_without_dragon(model):
    # Q12: "when a Dragon is destroyed" triggered in a transition that destroyed no Dragon face up with
    # its characteristics
    ids = _ids(model)

    def fault(pre, events, post):
        seen = [e for e in events if e.kind == "destroyed" and not e.get("face_down")
                and e.get("characteristics") is not False and model.card(ids[e.get("card")]).has("Dragon")]
        return not seen and any(e.kind == "trigger" and e.get("ability").endswith("/dragon_destroyed")
                                for e in events)
    return fault


WRONG = [
    # (model, scenario, the property that catches it, an independent test of the faulty transition)
    (wrong_models.ResolvesDuringCheck, ruling("SC2_declare"), "no-resolve-during-check", _resolves_in_check),
    (wrong_models.StandbyCounted, ruling("R113.6c"), "standby-not-counted", _broken_still_counted),
    (wrong_models.SabakiZSharesCrest, ruling("SC3"), "discard-pays-once", _discard_shared),
    (wrong_models.SBackSharesDiscard, PROPS / "s_back_trigger.yaml", "discard-pays-once", _discard_shared),
    (wrong_models.CastleLeavesAtBreak, ruling("R304.3"), "castle-after-s-trigger", _castle_gone_from_standby_shield),
    (wrong_models.ReplacedBreakStillBreaks, ruling("D2_"), "replaced-break-not-broken", _replaced_and_broken),
    (wrong_models.ReplacedBreakStillBreaks, ruling("Q11e"), "replaced-break-not-broken", _replaced_and_broken),
    (wrong_models.SaverWithoutAttempt, ruling("Q11d"), "destroyed-follows-destroy", _destroyed_without_attempt),
    (wrong_models.HiddenCardTriggers, ruling("Q12b"), "no-hidden-destroyed-trigger", _dragon_trigger_without_dragon),
    (wrong_models.HiddenCardTriggers, ruling("Q12c"), "no-hidden-destroyed-trigger", _dragon_trigger_without_dragon),
]


@pytest.mark.parametrize("model_class,path,pid,fault_of", WRONG,
                         ids=[f"{w[0].__name__}-{w[1].stem}" for w in WRONG])
def test_each_wrong_model_is_caught_with_a_shortest_trace(model_class, path, pid, fault_of):
    fault = fault_of(graph_of(path, model_class).model)
    assert_caught_with_a_shortest_trace(model_class, path, pid, fault)
    # the correct model keeps the property on the same scenario
    (v,) = check(graph_of(path), [BY_ID[pid]]).verdicts
    assert v.verdict == HOLDS, (path.name, pid, v.reason)


def test_the_wrong_models_are_what_the_rulings_forbid():
    # each wrong model also breaks its ruling's own expectation: the properties catch real faults
    broken = {
        wrong_models.StandbyCounted: "R113.6c",       # Revolution Two sees the checked shields: no S-Trigger
        wrong_models.SabakiZSharesCrest: "SC3",       # the crest pays for Sabaki Z after its S-Trigger
        wrong_models.CastleLeavesAtBreak: "R304.3",   # the castle leaves before Terror Pit's S-Trigger
        wrong_models.HiddenCardTriggers: "Q12b",      # Dark Lupia sees the face-down seal
    }
    for model_class, prefix in broken.items():
        path = ruling(prefix)
        graph = graph_of(path, model_class)
        verdicts = [check_expectation(graph, e).verdict for e in graph.model.scenario.expect]
        assert VIOLATED in verdicts, (model_class.__name__, verdicts)
        right = graph_of(path)
        assert all(check_expectation(right, e).holds for e in right.model.scenario.expect)


def test_the_s_back_variant_scenario_holds_on_the_correct_model():
    graph = graph_of(PROPS / "s_back_trigger.yaml")
    assert all(check_expectation(graph, e).holds for e in graph.model.scenario.expect)
    result = check(graph, BUILTIN)
    assert all(v.verdict == HOLDS for v in result.verdicts), [(v.property.id, v.reason) for v in result.verdicts]
    assert "some-declaration" in {v.property.id for v in result.verdicts}


# ---- a case the property reads differently from the model ----------------------------------------------
def test_no_resolve_during_check_when_an_s_trigger_breaks():
    # B uses Aqua Surfer, then Counter Break, whose break is made inside B's shield check: Aqua
    # Surfer's cip waits until the check is over (R509.5e wins over R603.7a's "other pending effects")
    graph = graph_of(PROPS / "s_trigger_breaks_in_check.yaml")
    (v,) = check(graph, [BY_ID["no-resolve-during-check"]]).verdicts
    assert v.verdict == HOLDS, v.trace.lines()
