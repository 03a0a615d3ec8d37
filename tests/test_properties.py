"""The rules properties: they hold on every ruling scenario, their examples exist, and each
deliberately wrong model is caught by its property with a shortest trace whose last step shows the fault.

A checker that never fails proves nothing: `wrong_models.py` gets one rule wrong per model, and each
test here replays the counterexample and checks, independently of Z3, that the fault is in its last
step and that no shorter trace shows it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import os
import re
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest
import wrong_models
import z3
from conftest import DATA, ROOT, RULINGS, scenario_output

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.limits import Limits
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.checker import HOLDS, INCONCLUSIVE, NO_EXAMPLE, VIOLATED, check
from dmcheck.properties.facts import STATE_FACTS, TRANSITION_FACTS
from dmcheck.properties.property import Property
from dmcheck.properties.property_file import load_properties
from dmcheck.properties.symbols import FormulaError, Vocabulary, parse

OLD_RULES = dt.date(2023, 1, 1)
PROPS = DATA / "properties"
BY_ID = {p.id: p for p in BUILTIN}
_GRAPHS: dict = {}


def graph_of(path: Path, model_class=BreakModel, **overrides):
    """The explored graph of a scenario file under a model class (cached: exploring is pure)."""
    key = (str(path), model_class, repr(sorted(overrides.items())))
    if key not in _GRAPHS:
        scenario = dataclasses.replace(load_scenario(path), **overrides)
        _GRAPHS[key] = explore(model_class(scenario))
    return _GRAPHS[key]


def ruling(prefix: str) -> Path:
    return next(p for p in RULINGS if p.name.startswith(prefix))


# ---- every built-in property holds on every ruling scenario ---------------------------------------
@pytest.mark.parametrize("rules", [None, pytest.param(OLD_RULES, marks=pytest.mark.slow)],
                         ids=["current rules", "rules before 2023-04-19"])
@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_every_builtin_property_holds_on_every_ruling(path, rules):
    graph = graph_of(path, **({"rules": rules} if rules else {}))
    result = check(graph, BUILTIN)
    assert graph.complete
    assert result.verdicts, "some property must apply"
    for v in result.verdicts:
        assert v.verdict in (HOLDS, NO_EXAMPLE), \
            (v.property.id, v.reason, v.trace.lines() if v.trace else None, v.witness)
    # exactly one of the two versions of R509.4 applies (S001)
    checked = {v.property.id for v in result.verdicts}
    assert ("before-break-first" in checked) != ("before-break-uninterrupted" in checked)
    assert ("before-break-uninterrupted" in checked) == (rules is not None)
    # the solver figures add up: at most one query per distinct projection met (none for one answered
    # in an earlier check of the same cards: properties/checker.py _Shared), every other item a cache hit
    for v in result.verdicts:
        c = v.counts
        assert c.queries <= c.projections <= c.items and c.projections >= 1
        assert c.items == c.queries + c.cache_hits


@pytest.mark.slow
def test_every_builtin_property_holds_under_the_other_reading():
    for path in RULINGS:
        graph = graph_of(path, readings={"nested_other_pending": "inner_only"})
        for v in check(graph, BUILTIN).verdicts:
            assert v.verdict in (HOLDS, NO_EXAMPLE), (path.name, v.property.id, v.reason)


def test_the_builtin_properties_are_those_of_the_issue_with_citations():
    ids = [p.id for p in BUILTIN]
    assert len(ids) == len(set(ids)) >= 14
    for p in BUILTIN:
        assert p.citations and all(re.fullmatch(r"(R\d+(\.\d+[a-z]?)?(-[a-z])?|Q\d\d|S\d{3}|D\d|SC\d)", c)
                                   for c in p.citations), p.id
        assert p.text.endswith(".")
    kinds = {(p.kind, p.over) for p in BUILTIN}
    assert kinds == {("always", "states"), ("always", "transitions"), ("always", "outcomes"),
                     ("sometimes", "transitions")}
    assert BY_ID["before-break-first"].since == BY_ID["before-break-uninterrupted"].until == dt.date(2023, 4, 19)


# ---- every sometimes property finds its example ---------------------------------------------------
SOMETIMES_SHOWS = {
    # property: what the last step of its example must contain
    "some-shield-breaks": lambda step: any(e.kind == "break" for e in step.events),
    "some-before-break-resolves": lambda step: step.action.kind == "resolve" and "before-break" in step.action.text,
    "some-nested-frame": lambda step: any(e.kind == "choose_shields" and e.get("frame") == 2 for e in step.events),
    "some-declaration": lambda step: any(e.kind == "declare" for e in step.events),
    "some-replacement": lambda step: any(e.kind == "replace" for e in step.events),
    "some-pile-leaves": lambda step: any(e.kind == "leave_together" for e in step.events),
}


@pytest.mark.parametrize("pid", sorted(SOMETIMES_SHOWS))
def test_every_sometimes_property_finds_its_example(pid):
    prop = BY_ID[pid]
    applied = 0
    piles = sorted((ROOT / "scenarios" / "piles").glob("*.yaml")) if pid == "some-pile-leaves" else []
    for path in RULINGS + piles:   # few rulings of scenarios/rulings/ have piles
        graph = graph_of(path)
        result = check(graph, [prop])
        if not result.verdicts:
            continue
        (v,) = result.verdicts
        if v.verdict == NO_EXAMPLE:
            continue   # `needs` reads card text: the thing may be impossible here
        applied += 1
        assert v.verdict == HOLDS and v.trace is not None, (path.name, v.reason)
        assert SOMETIMES_SHOWS[pid](v.trace.steps[-1]), (path.name, v.trace.lines())
    assert applied >= 3, f"{pid} applies to too few ruling scenarios"


@pytest.mark.slow
def test_some_nested_frame_applies_where_a_card_can_break():
    applies = {p.name[:3] for p in RULINGS if not BY_ID["some-nested-frame"].applies(BreakModel(load_scenario(p)))}
    assert applies == {"Q04", "Q05", "Q10"}   # Texas Storm and Gushat Shield


def test_a_break_during_the_shield_check_is_not_a_nested_frame():
    # the defender's S-Trigger breaks while the attack's broken frame waits for its shield check: the
    # new frame sits above a broken one (stack position 2, number 1 among the open), so no property may
    # see it as nested
    graph = graph_of(PROPS / "counter_break.yaml")
    result = check(graph, BUILTIN)
    assert all(v.verdict == HOLDS for v in result.verdicts), [(v.property.id, v.reason) for v in result.verdicts]
    assert "some-nested-frame" in {p.id for p, _ in result.not_applicable}
    # events number frames among the open ones: the counter break is frame 1, like its choose_shields
    events = [e for n in graph.terminals for e in graph.trace(n).events()]
    counter = [e.get("frame") for e in events
               if e.kind in ("choose_shields", "break") and e.get("by") == "Counter Break"]
    assert counter and set(counter) == {1}


def test_a_sometimes_property_without_example_is_violated():
    # a user's own `sometimes` property without an example is a finding; a built-in sanity one is not
    never = Property("no-such-thing", "Nobody wins.", ("D0",), "sometimes", "outcomes",
                     lambda s: s.winner != s.player("nobody"), origin="mine.yaml:1")
    (v,) = check(graph_of(ruling("Q06")), [never]).verdicts
    assert v.verdict == VIOLATED and v.trace is None and "none of the 2 outcomes" in v.reason
    sanity = Property("no-such-thing", "Nobody wins.", ("D0",), "sometimes", "outcomes",
                      lambda s: s.winner != s.player("nobody"))
    (v,) = check(graph_of(ruling("Q06")), [sanity]).verdicts
    assert v.verdict == NO_EXAMPLE and "no example in this scenario" in v.reason


# ---- the wrong models are caught -----------------------------------------------------------------
def _attack_closes_without_breaking(pre, events, post):
    attack = [f for f in pre.frames if f.is_attack and not f.broken]
    still = [c for f in attack for c in f.chosen if c in pre.zone(pre.defender).shields]
    closed = attack and not any(f == attack[0] for f in post.frames if not f.broken)
    return bool(closed and post.attacker_left and still and not any(e.kind == "break" for e in events))


def _other_effect_before_before_break(model):
    def fault(pre, events, post):
        depth = pre.depth()
        waiting = [p for p in pre.pending if p.kind == "before_break" and p.frame == depth]
        resolved = [e for e in events if e.kind == "resolve"]
        return bool(depth and waiting and resolved and
                    not resolved[0].get("ability").endswith("before_break"))
    return fault


def _more_breaks_than_chosen(pre, events, post):
    chosen = {c for f in pre.frames for c in f.chosen}
    return len([e for e in events if e.kind == "break"]) > len(chosen) > 0


def _non_turn_player_first(pre, events, post):
    resolved = [e for e in events if e.kind == "resolve"]
    if not resolved or resolved[0].get("controller") == pre.turn:
        return False
    frame = resolved[0].get("frame")
    return any(p.controller == pre.turn and p.frame == frame and p.kind == "triggered" for p in pre.pending)


def _break_after_skip(pre, events, post):
    kinds = [e.kind for e in events]
    return "skip_turn" in kinds and "break" in kinds[kinds.index("skip_turn"):]


def _tapped_outside_play(pre, events, post):
    return any(c not in post.zone(p).battle and c not in post.zone(p).mana for p in "AB" for c in post.zone(p).tapped)


def _outer_breaks_first(pre, events, post):
    open_frames = [f for f in pre.frames if not f.broken]
    return len(open_frames) >= 2 and any(e.kind == "break" and e.get("frame") == 1 for e in events)


WRONG = [
    # (model, scenario, the property that catches it, an independent test of the faulty transition)
    (wrong_models.LeavingCancelsBreak, ruling("Q06"), "chosen-shields-still-break", _attack_closes_without_breaking),
    (wrong_models.OthersBeforeBeforeBreak, ruling("Q03"), "before-break-first", None),
    (wrong_models.BreakerCountAtBreak, ruling("Q07"), "break-count-fixed", _more_breaks_than_chosen),
    (wrong_models.NonTurnPlayerFirst, PROPS / "tp_ntp_together.yaml", "turn-player-first", _non_turn_player_first),
    (wrong_models.SkipStillBreaks, ruling("Q09"), "skip-cancels-break", _break_after_skip),
    (wrong_models.OuterFrameFirst, ruling("Q04"), "frames-lifo", _outer_breaks_first),
    (wrong_models.DestroyedStaysTapped, ROOT / "scenarios" / "attack" / "A10a_battle_tapped_creature.yaml",
     "position-reachable", _tapped_outside_play),
]


def _shortest_fault(graph, fault) -> int | None:
    """The length of the shortest trace whose last transition is faulty, by a plain BFS (no Z3)."""
    depth = {0: 0}
    queue = deque([0])
    while queue:
        node = queue.popleft()
        for _, succ, events in graph.successors(node):
            if fault(graph.state(node), events, graph.state(succ)):
                return depth[node] + 1
            if succ not in depth:
                depth[succ] = depth[node] + 1
                queue.append(succ)
    return None


def assert_caught_with_a_shortest_trace(model_class, path, pid, fault):
    """The wrong model breaks property `pid` on the scenario, and the shortest counterexample's last step
    is faulty by `fault(pre, events, post)`, an independent test of the transition (no Z3)."""
    graph = graph_of(path, model_class)
    result = check(graph, BUILTIN)
    verdict = next(v for v in result.verdicts if v.property.id == pid)
    assert verdict.verdict == VIOLATED, verdict.reason
    trace = verdict.trace
    # the last step is the faulty one ...
    steps = trace.steps
    pre = post = graph.model.initial_state()
    for step in steps:
        pre = post
        post, events = graph.model.step(pre, step.action)
        assert events == step.events
    assert fault(pre, steps[-1].events, post), trace.lines()
    # ... no shorter trace has the fault (an independent breadth-first search) ...
    assert _shortest_fault(graph, fault) == len(steps)
    # ... the correct model, given the same choices, does not have it: either it does not offer the
    # last choice at all, or taking it is not faulty
    right = BreakModel(graph.model.scenario)
    state = right.initial_state()
    for step in steps:
        same = [a for a in right.actions(state) if a.text == step.action.text]
        if step is steps[-1] and not same:
            break
        assert len(same) == 1, step.action.text
        before = state
        state, events = right.step(state, same[0])
    else:
        assert not fault(before, events, state)
    # ... and the Z3 model names the facts the property read
    assert verdict.witness and {name for name, _ in verdict.witness} == set(verdict.symbols)
    # the same model is correct on the other properties of its rule's scenario family
    assert graph.complete
    return verdict


@pytest.mark.parametrize("model_class,path,pid,fault", WRONG, ids=[w[0].__name__ for w in WRONG])
def test_each_wrong_model_is_caught_with_a_shortest_trace(model_class, path, pid, fault):
    fault = fault or _other_effect_before_before_break(graph_of(path, model_class).model)
    assert_caught_with_a_shortest_trace(model_class, path, pid, fault)


def test_wrong_models_leave_the_correct_model_unaffected():
    # the correct model passes the very properties the wrong ones fail, on the same scenarios
    for _, path, pid, _ in WRONG:
        (v,) = check(graph_of(path), [BY_ID[pid]]).verdicts
        assert v.verdict == HOLDS, (path.name, pid, v.reason)


def test_skip_fault_shows_in_the_witness():
    result = check(graph_of(ruling("Q09"), wrong_models.SkipStillBreaks), [BY_ID["skip-cancels-break"]])
    (v,) = result.verdicts
    # derived from Q09's scenario: Kakumeijin is a W-breaker and B has 2 shields, so both are chosen
    # (D1) and the wrong model breaks both after the skip
    q09 = load_scenario(ruling("Q09"))
    chosen = min(q09.pool[q09.attacker].breaker, len(q09.players["B"].shields))
    assert dict(v.witness)["breaks_after_skip"] == str(chosen)
    # the skip, the faulty breaks (D4), then the shield check moving each broken shield to the hand (SC3)
    # (the wrong model goes on to the end-of-attack step, R510, in the same step)
    assert [e.kind for e in v.trace.steps[-1].events] == \
        ["skip_turn"] + ["break"] * chosen + ["move"] * chosen + ["end_attack"]


def test_old_rules_counterpart_catches_an_interrupted_before_break():
    # before 2023-04-19 (S001) nothing interrupts the before-break effects: the wrong model that lets
    # Kobo's trigger resolve first is caught by the old-rules property ...
    graph = graph_of(ruling("Q03"), wrong_models.OthersBeforeBeforeBreak, rules=OLD_RULES)
    verdict = next(v for v in check(graph, BUILTIN).verdicts if v.property.id == "before-break-uninterrupted")
    assert verdict.verdict == VIOLATED
    assert "Kobo" in verdict.trace.steps[-1].action.text
    # ... and the two versions really differ: the current rules break the old property on Q03
    forced = dataclasses.replace(BY_ID["before-break-uninterrupted"], until=None)
    (v,) = check(graph_of(ruling("Q03")), [forced]).verdicts
    assert v.verdict == VIOLATED and "Kobo" in v.trace.steps[-1].action.text


# ---- inconclusive: incomplete searches and solver unknowns ----------------------------------------
def test_an_incomplete_search_never_holds():
    scenario = load_scenario(ruling("Q05"))
    graph = explore(BreakModel(scenario), Limits(max_states=20))
    assert not graph.complete
    result = check(graph, BUILTIN)
    for v in result.verdicts:
        if v.property.kind == "always":
            assert v.verdict == INCONCLUSIVE and "incomplete" in v.reason, (v.property.id, v.reason)
        else:   # an example found in the part explored is still an example
            assert v.verdict in (HOLDS, INCONCLUSIVE)


def test_solver_unknown_is_inconclusive():
    # x^3 + y^3 = z^3 + depth: nonlinear integer arithmetic the solver gives up on within the timeout
    def fermat(s):
        x, y, w = (z3.Int(n, s.ctx) for n in "xyw")
        return z3.ForAll([x, y, w], z3.Implies(z3.And(x > 1, y > 1, w > 1),
                                               x * x * x + y * y * y != w * w * w + s.depth * 0))
    prop = Property("fermat", "No cube is the sum of two cubes.", ("D0",), "always", "states", fermat)
    (v,) = check(graph_of(ruling("Q10")), [prop], timeout_ms=100).verdicts
    assert v.verdict == INCONCLUSIVE and "unknown" in v.reason


# ---- users' properties ------------------------------------------------------------------------------
@pytest.mark.slow
def test_user_properties_hold_and_a_false_one_is_violated():
    props = load_properties(PROPS / "user_properties.yaml", {p.id for p in BUILTIN})
    assert [p.over for p in props] == ["states", "transitions", "outcomes", "states"]
    false = load_properties(PROPS / "false_property.yaml")
    for path in RULINGS:
        result = check(graph_of(path), props + false)
        by_id = {v.property.id: v for v in result.verdicts}
        skipped = {q.id for q, _ in result.not_applicable}
        for p in props:
            if p.id in skipped:   # `needs` leaves it out where the scenario cannot show it
                continue
            assert by_id[p.id].verdict == HOLDS, (path.name, p.id, by_id[p.id].reason)
        v = by_id["nothing-breaks"]
        assert v.verdict == VIOLATED and any(e.kind == "break" for e in v.trace.steps[-1].events)
        assert dict(v.witness)["breaks_now"] != "0"


@pytest.mark.parametrize("text,expected", [
    ("(> depth", "properties[0].formula"),
    ("(= no_such_fact 1)", "unknown constant no_such_fact"),
    ("(+ depth 1)", "not Boolean"),
    ("(= pre.depth 1)", "unknown constant pre.depth"),      # a state property has no pre./post.
])
def test_a_bad_formula_names_its_line(tmp_path, text, expected):
    file = tmp_path / "props.yaml"
    file.write_text("properties:\n  - id: p\n    text: t.\n    citations: [D0]\n    kind: always\n"
                    f"    over: states\n    formula: \"{text}\"\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_properties(file)
    assert err.value.line == 7 and expected in str(err.value), str(err.value)


@pytest.mark.parametrize("body,expected", [
    ("  - {id: p, text: t., citations: [D0], kind: always, over: states, formula: 'true', colour: red}", "colour"),
    ("  - {id: p, text: t., citations: [D0], kind: often, over: states, formula: 'true'}", "kind"),
    ("  - {id: conservation, text: t., citations: [D0], kind: always, over: states, formula: 'true'}", "taken"),
    ("  - {id: p, text: t., citations: [D0], kind: always, over: states, formula: 'true', rules: {since: soon}}",
     "YYYY-MM-DD"),
])
def test_a_bad_property_file_names_its_key(tmp_path, body, expected):
    file = tmp_path / "props.yaml"
    file.write_text("properties:\n" + body + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_properties(file, {p.id for p in BUILTIN})
    assert expected in str(err.value) and f"{file}:2" in str(err.value), str(err.value)


def test_a_user_formula_reads_the_same_facts_as_python():
    vocab = Vocabulary(["Kakumeijin", "Vanilla"], positions=2)
    parsed = parse(vocab, "transitions", "(forall ((c Card)) (=> (broken_now c) (pre.in_shields c)))")
    with pytest.raises(FormulaError):
        parse(vocab, "states", "(broken_now c0)")
    assert "broken_now" in str(parsed) and "pre.in_shields" in str(parsed)


def test_positions_beyond_the_deepest_frame_read_as_no_frame():
    beyond = Property("beyond", "No frame is open at position 99.", ("R603.7b",), "always", "states",
                      lambda s: parse(s.vocab, "states", "(and (not (frame_open 99)) (= (pending triggered A -3) 0))"))
    (v,) = check(graph_of(ruling("Q04")), [beyond]).verdicts
    assert v.verdict == HOLDS, (v.reason, v.witness)


@pytest.mark.slow
def test_the_documented_example_loads_and_holds(tmp_path):
    doc = (ROOT / "docs" / "properties.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", doc, re.S).group(1)
    file = tmp_path / "example.yaml"
    file.write_text(block, encoding="utf-8")
    props = load_properties(file, {p.id for p in BUILTIN})
    assert props
    for path in RULINGS:
        for v in check(graph_of(path), props).verdicts:
            assert v.verdict in (HOLDS, NO_EXAMPLE), (path.name, v.property.id, v.reason)
    for fact in STATE_FACTS + TRANSITION_FACTS:   # the page lists the whole vocabulary
        assert f"`{fact.name}" in doc, fact.name


# ---- the command ------------------------------------------------------------------------------------
def run(*argv: str) -> tuple[int, str, str]:
    from dmcheck.main import main
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.mark.slow
def test_check_all_rulings_exits_0_with_solver_figures():
    code, out, _ = run("check", *map(str, RULINGS))
    assert code == 0, out
    assert "FAIL" not in out and "??" not in out
    assert out.count("solver: ") == len(RULINGS)
    assert out.count("ok   conservation") == len(RULINGS)


def test_check_json_has_the_explore_fields_properties_and_solver():
    code, out, _ = run("check", str(ruling("Q04")), "--json")
    report = scenario_output(out)
    assert code == 0
    for key in ("scenario", "complete", "states", "transitions", "outcomes", "expectations",
                "properties", "solver", "explore_seconds"):
        assert key in report
    assert set(report["solver"]) >= {"queries", "cache_hits", "projections", "seconds"}
    for p in report["properties"]:
        assert set(p) >= {"id", "text", "citations", "kind", "verdict", "reason", "trace"}
        assert p["verdict"] == "holds" and p["trace"] is None
    # derived from Q04's scenario: it runs under 2024-06-19, after the 2023-04-19 change, so the
    # properties that hold only until a change do not apply; its shields are plain (no S-Trigger)
    # and none of its cards replaces an event, so the two needing a declaration or a replacement
    # do not apply either, nor those needing a power change or a battle; the report keeps the built-in
    # order
    expected = [p.id for p in BUILTIN
                if p.until is not None
                or {"declaration", "replacement", "pile", "power_change", "battle"} & set(p.needs)]
    assert expected == ["before-break-uninterrupted", "some-declaration", "some-pile-leaves", "some-replacement",
                        "some-power-zero", "some-battle"]
    assert [n["id"] for n in report["not_applicable"]] == expected


def test_check_reports_a_user_violation_and_exits_1():
    code, out, _ = run("check", str(ruling("Q07")), "--properties", str(PROPS / "false_property.yaml"),
                       "--property", "nothing-breaks", "--json")
    assert code == 1
    (p,) = scenario_output(out)["properties"]
    # derived from Q07's scenario: Kakumeijin (W-breaker) chooses 2 of B's 5 shields (1 step); each of
    # its 2 before-break effects is 2 steps (resolve it, then choose which spell it casts, R509.3-4);
    # the break comes with the last of them: 1 + 2 * 2 = 5 steps, and the breadth-first search meets
    # the shortest trace first along the first option of every step ("0" each time)
    q07 = load_scenario(ruling("Q07"))
    chosen = min(q07.pool[q07.attacker].breaker, len(q07.players["B"].shields))
    assert chosen == 2
    steps = 1 + chosen * 2
    assert p["verdict"] == "violated" and p["replay"] == "/".join(["0"] * steps)
    # the last step breaks both chosen shields (D4), the shield check moves them to the hand (SC3), and
    # the end-of-attack step (R510) follows, which nothing else delays
    assert [e["event"] for e in p["trace"] if e["step"] == steps] == \
        ["break"] * chosen + ["move"] * chosen + ["end_attack"]
    assert p["model"] == {"breaks_now": str(chosen)}
    code, text, _ = run("check", str(ruling("Q07")), "--properties", str(PROPS / "false_property.yaml"),
                        "--property", "nothing-breaks")
    assert code == 1 and "shortest counterexample:" in text and "Z3 model: breaks_now = 2" in text


def test_check_bad_input_and_incomplete_exit_codes():
    assert run("check", str(ruling("Q06")), "--property", "no-such")[0] == 2
    assert run("check", str(DATA / "bad" / "unknown_card.yaml"))[0] == 2
    code, out, _ = run("check", str(ruling("Q05")), "--max-states", "20")
    assert code == 3 and "??   conservation" in out


@pytest.mark.slow
def test_check_json_is_the_same_under_any_hash_seed():
    def report(seed: str) -> list:
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-m", "dmcheck", "check", str(ruling("Q05")), "--json",
                              "--properties", str(PROPS / "false_property.yaml")],
                             cwd=ROOT, env=env, capture_output=True, text=True).stdout
        return [{k: v for k, v in p.items() if k != "solver"} for p in scenario_output(out)["properties"]]
    assert report("0") == report("1")


def test_checks_of_one_vocabulary_share_answers_but_a_remembered_violation_is_still_found():
    """A second check of a graph with the same cards asks Z3 nothing new (properties/checker.py
    _Shared), and still reports what the first found: a remembered answer counts like a fresh one,
    a violation with its trace and witness included."""
    false = load_properties(PROPS / "false_property.yaml")
    graph = graph_of(next(p for p in RULINGS if p.name.startswith("Q06")))
    first = check(graph, list(BUILTIN) + false)
    again = check(graph, list(BUILTIN) + false)
    assert sum(v.counts.queries for v in again.verdicts) == 0
    assert [(v.property.id, v.verdict, v.trace.key() if v.trace else None, v.witness) for v in again.verdicts] == \
        [(v.property.id, v.verdict, v.trace.key() if v.trace else None, v.witness) for v in first.verdicts]
    assert {v.property.id: v.verdict for v in again.verdicts}["nothing-breaks"] == VIOLATED
