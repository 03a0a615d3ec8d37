"""Traces a judge can trust, for the whole class of scenarios: with the default search
(reduction and symmetry on), every printed trace is a real path of the game in the scenario's own
card names, and its replay key replays, with any search settings, to the outcome it was printed for.

For every scenario of the repository and the benchmark families up to a size:
- every outcome's key replays (stepping the model alone, explorer/replay.py) to a terminal state with
  that outcome, through the same events the trace shows;
- no trace breaks a shield twice, and every shield broken in a frame was chosen in that frame;
- the default search, the unreduced one and the compact store give the same outcome set, and all
  their traces pass;
- every expectation's trace replays to the same events.
The symmetry is held on for the whole search here (by default it is weighed after a sample and often
dropped), so that renamed twins are met wherever the scenario has identical cards.
"""

from __future__ import annotations

import io
import json

import pytest
from conftest import ROOT, output, scenario_output

from dmcheck.explorer.bfs import explore
from dmcheck.explorer.graph import freeze
from dmcheck.explorer.replay import BadKey, replay
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

SCENARIOS = sorted(p for folder in ("rulings", "attack", "changes", "flow")
                   for p in (ROOT / "scenarios" / folder).rglob("*.yaml") if "cards" not in p.parts)


def path_faults(events: list[dict]) -> list[str]:
    """What makes a trace's events impossible: a shield broken twice, or broken in a frame that never
    chose it (the events as JSON, as every output prints them)."""
    chosen: dict = {}
    broken: list[tuple] = []
    for e in events:
        if e["event"] == "choose_shields":
            chosen.setdefault(e["frame"], set()).update(e["shields"])
        elif e["event"] == "break":
            broken.append((e["frame"], e["shield"]))
    names = [s for _, s in broken]
    faults = [f"{s} broken twice" for s in sorted(set(names)) if names.count(s) > 1]
    faults += [f"{s} broken in frame {f}, which never chose it" for f, s in broken if s not in chosen.get(f, ())]
    return faults


def keyed_outcomes(model, graph) -> dict:
    """Each outcome of the graph (frozen) with the key of its witness, after checking the key replays
    to it through the events of the trace the graph prints."""
    out = {}
    for outcome, _, node in graph.outcomes():
        if outcome.get("loop"):
            continue
        key = graph.key(node)
        trace = graph.trace(node)
        assert trace.key() == key, "the trace's own key is not its parent links' key"
        done = replay(model, key)
        assert model.is_terminal(done.state), f"{key} does not end in a terminal state"
        assert model.outcome(done.state) == outcome, f"{key} replays to another outcome"
        assert done.trace.to_json() == trace.to_json(), f"{key}: the replay's events are not the trace's"
        assert path_faults(trace.to_json()) == [], (key, path_faults(trace.to_json()))
        out[freeze(outcome)] = key
    return out


def check_scenario(scenario) -> None:
    """The symmetry on for the whole search (`weigh=False`: never weighed and dropped)."""
    model = BreakModel(scenario)
    default = explore(model, reduce=True, weigh=False)
    full = explore(BreakModel(scenario), reduce=False)
    assert default.complete and full.complete
    assert set(keyed_outcomes(model, default)) == set(keyed_outcomes(model, full))
    if not full.loops:   # the compact store finds no loops (it keeps no positions to compare)
        compact = explore(BreakModel(scenario), reduce=True, keep_graph=False, weigh=False)
        assert compact.complete and set(keyed_outcomes(model, compact)) == set(keyed_outcomes(model, default))
    for item in scenario.expect:
        verdict = check(default, item)
        if verdict.trace is not None:
            done = replay(model, verdict.trace.key())
            assert done.trace.to_json() == verdict.trace.to_json(), (scenario.name, item.raw)
            assert path_faults(verdict.trace.to_json()) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT / "scenarios")))
def test_every_scenario_has_real_traces_that_replay_to_their_outcome(path):
    check_scenario(load_scenario(path))


FAMILY_SIZES = [("independent", 5), ("two-player", 6), ("watched", 3), ("kakumeijin", 3), ("shield-check", 4)]


@pytest.mark.parametrize("family,size", FAMILY_SIZES)
def test_benchmark_families_have_real_traces(family, size):
    from benchmarks.families import build, pool

    check_scenario(build(family, size, pool()))


@pytest.mark.slow
@pytest.mark.parametrize("family,size", [("kakumeijin", 6), ("shield-check", 8), ("two-player", 10), ("watched", 6),
                                         ("independent", 10)])
def test_larger_benchmark_families_have_real_traces(family, size):
    from benchmarks.families import build, pool

    check_scenario(build(family, size, pool()))


def test_the_symmetry_renames_twins_in_q05_yet_its_traces_name_the_copies_that_moved():
    """The motivating case: Q05's two vanilla shields are twins, and the search meets them renamed."""
    scenario = load_scenario(ROOT / "scenarios" / "rulings" / "Q05_texas_storm_s_trigger.yaml")
    model = BreakModel(scenario)
    graph = explore(model, reduce=True, weigh=False)
    assert graph.record.symmetry == "kept"
    renamed = sum(model.canonical(s) != s for s in graph.states)
    assert renamed > 0, "no stored state differs from its canonical form: the case is not exercised"
    keyed_outcomes(model, graph)


# ---- the command line: text, JSON and HTML ------------------------------------------------------------
def run(*argv: str) -> tuple[int, str]:
    from dmcheck.main import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue()


@pytest.mark.parametrize("name", ["Q04_texas_storm.yaml", "Q05_texas_storm_s_trigger.yaml"])
def test_json_keys_replay_the_same_with_and_without_reduction(name):
    file = str(ROOT / "scenarios" / "rulings" / name)
    for flags in ((), ("--no-reduce",)):
        _, out = run("explore", file, "--json", *flags)
        for item in scenario_output(out)["outcomes"]:
            want = {k: v for k, v in item.items() if k not in ("count", "trace_key")}
            for replay_flags in ((), ("--no-reduce",)):   # a key means the same under either
                code, text = run("explore", file, "--replay", item["trace_key"], "--json", *replay_flags)
                rep = output(text)["replay"]
                assert code == 0 and rep["terminal"] and rep["outcome"] == want
                assert path_faults(rep["trace"]) == []


def test_the_json_says_what_the_search_did():
    file = str(ROOT / "scenarios" / "rulings" / "Q05_texas_storm_s_trigger.yaml")
    _, out = run("explore", file, "--json")   # 202 transitions: it ends within the symmetry's sample
    assert scenario_output(out)["search"] == {"reduction": True, "symmetry": "unused"}
    _, out = run("explore", file, "--json", "--no-reduce")
    assert scenario_output(out)["search"] == {"reduction": False, "symmetry": "off"}


def test_a_pattern_naming_one_copy_turns_the_symmetry_off(tmp_path):
    """`Vanilla#2` tells two identical cards apart: states that differ only by which is where are not
    alike for that check, so the search keeps them apart."""
    text = (ROOT / "scenarios" / "rulings" / "Q04_texas_storm.yaml").read_text(encoding="utf-8")
    scenario = load_scenario(ROOT / "scenarios" / "rulings" / "Q04_texas_storm.yaml")
    model = BreakModel(scenario)
    copy = model.label(model.initial_state().zone("B").shields[-1])
    assert "#" in copy
    expect = f"expect:\n  - possible_order:\n      - {{event: break, shield: {copy}}}\n"
    path = tmp_path / "copy.yaml"
    path.write_text(text.split("expect:")[0] + expect, encoding="utf-8")
    _, out = run("explore", str(path), "--json")
    entry = scenario_output(out)
    assert entry["search"]["symmetry"] == "off"
    assert entry["expectations"][0]["verdict"] == "holds"


def test_a_bad_key_is_refused_with_the_step_it_leaves_the_game():
    model = BreakModel(load_scenario(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"))
    with pytest.raises(BadKey) as caught:
        replay(model, "0/99")
    assert caught.value.step == 2 and "below" in str(caught.value)
    code, text = run("explore", str(ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"), "--replay", "0/99")
    assert code == 2


def test_html_trace_keys_walk_the_page_graph_to_their_outcomes(tmp_path):
    """The page's graph is walked by key (its script, mirrored by dmcheck.cli.html.follow): every outcome's
    key reaches a terminal state of that outcome, and each state on the way is the replayed one."""
    from dmcheck.cli.html import follow

    file = str(ROOT / "scenarios" / "rulings" / "Q05_texas_storm_s_trigger.yaml")
    page = tmp_path / "q05.html"
    code, _ = run("explore", file, "--html", str(page))
    assert code == 0
    html = page.read_text(encoding="utf-8")
    data = json.loads(html.split('id="data">', 1)[1].split("</script>", 1)[0]
                      .replace("<\\/", "</"))
    assert data["search"]["symmetry"] == "off"
    model = BreakModel(load_scenario(file))
    graph = explore(model, reduce=True, symmetry=False)
    for item in data["outcomes"]:
        nodes = follow(graph, item["key"])
        done = replay(model, item["key"])
        assert [graph.state(n) for n in nodes] == list(done.states)
        assert model.outcome(done.state) == item["outcome"]


@pytest.mark.slow
def test_keys_of_a_search_that_dropped_its_symmetry_replay_to_their_outcomes():
    """Kakumeijin L6: the symmetry is weighed and dropped after its sample; keys printed by the search
    that started again without it replay (with no setting at all) to their outcomes."""
    from benchmarks.families import build, pool

    model = BreakModel(build("kakumeijin", 6, pool()))
    graph = explore(model, reduce=True)
    assert graph.record.symmetry == "dropped"
    assert len(keyed_outcomes(model, graph)) == len([o for o, _, _ in graph.outcomes() if not o.get("loop")])
