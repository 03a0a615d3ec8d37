"""`--graph`: DOT with a summary per state and the action per edge, GraphML with a summary attribute,
and any other extension refused before anything is explored."""

from __future__ import annotations

import io
import re

import networkx as nx
from conftest import RULINGS

from dmcheck.main import main

Q06 = str(next(p for p in RULINGS if p.name.startswith("Q06")))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_dot_has_every_state_with_its_summary_and_every_edge_with_its_action(tmp_path, ruling):
    _, model, graph = ruling("Q06")
    path = tmp_path / "g.dot"
    code, _, _ = run("explore", Q06, "--graph", str(path), "--no-reduce")
    assert code == 0
    text = path.read_text()
    assert text.startswith("digraph")
    nodes = re.findall(r'^  n(\d+) \[label="#\d+: (.*?)(?:\\noutcome \d+)?"', text, re.M)
    edges = re.findall(r'^  n(\d+) -> n(\d+) \[label="\[(\d+)\] (.*?)"\];', text, re.M)
    assert len(nodes) == len(graph.states)
    assert len(edges) == sum(len(out) for out in graph.edges)
    for node, summary in nodes:
        # a long summary is drawn on several lines, broken after its `;` parts
        assert summary.replace(";\\n", "; ") == model.summary(graph.states[int(node)]).replace('"', '\\"')
    for src, _, index, action in edges:
        assert action.replace("\\n", " ") == model.actions(graph.states[int(src)])[int(index)].text
    # Q06 (S000 Q&A 2023-09-15): whatever Winter Spiral does, both chosen shields break and nobody wins
    terminal = [s for n, s in nodes if "peripheries=2" in text.split(f"  n{n} [", 1)[1].split("\n", 1)[0]]
    assert terminal and all(s.endswith("end: winner none, 2 broken") for s in terminal)


def test_dot_colours_outcomes_and_marks_where_a_violation_ends(tmp_path):
    from conftest import DATA, scenario_output

    wrong = str(DATA / "wrong_expectation.yaml")
    path = tmp_path / "g.dot"
    assert run("explore", wrong, "--graph", str(path))[0] == 1
    text = path.read_text()
    report = scenario_output(run("explore", wrong, "--json")[1])
    fills = dict(re.findall(r'^  n(\d+) \[.*?fillcolor="(#[0-9a-f]{6})"', text, re.M))
    # a colour per outcome: as many colours among the terminal states as explore lists outcomes
    assert len(set(fills.values())) == len(report["outcomes"]) == 2
    # the violated expectation's trace, followed edge by edge through the file, ends at the marked state
    edges = {(src, int(i)): dst for src, dst, i in re.findall(r'^  n(\d+) -> n(\d+) \[label="\[(\d+)\]', text, re.M)}
    node = "0"
    for index in report["expectations"][0]["replay"].split("/"):
        node = edges[(node, int(index))]
    marked = re.findall(r'^  n(\d+) \[label="[^"]*VIOLATES always: \{shields_broken: 1\}'
                        r'[^\n]*color="#d62728"', text, re.M)
    assert marked == [node]
    # the legend names each outcome by what tells it apart
    legend = re.findall(r'legend\d+ \[label="outcome \d+ \(1 terminal state\): ([^"]*)"', text)
    assert len(legend) == 2 and legend[0] != legend[1] and all("hand" in line for line in legend)


def test_graphml_nodes_carry_a_summary(tmp_path, ruling):
    _, model, graph = ruling("Q06")
    path = tmp_path / "g.graphml"
    assert run("explore", Q06, "--graph", str(path), "--no-reduce")[0] == 0
    g = nx.read_graphml(path)
    assert g.number_of_nodes() == len(graph.states)
    for node, attrs in g.nodes(data=True):
        assert attrs["summary"] == model.summary(graph.states[int(node)])
        assert attrs["fingerprint"] == graph.states[int(node)].fingerprint()


def test_other_extension_is_bad_input_and_writes_nothing(tmp_path):
    path = tmp_path / "g.png"
    code, out, err = run("explore", Q06, "--graph", str(path))
    assert code == 2
    assert "--graph" in err and ".dot" in err and ".graphml" in err and "'.png'" in err
    assert not path.exists() and out == ""   # refused before exploring: no report printed


def test_summary_names_pending_frames_and_the_start(ruling):
    _, model, graph = ruling("Q06")
    s0 = graph.states[0]
    assert model.summary(s0).endswith("start")
    # after choosing the shields, Kakumeijin's before-break ability triggers once per shield (R509.3)
    after = model.step(s0, model.actions(s0)[0])[0]
    assert "2 pending" in model.summary(after) and "1 frame" in model.summary(after)
