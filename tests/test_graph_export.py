"""`--graph`: DOT with a summary per state and the action per edge, GraphML with a summary attribute,
and any other extension refused before anything is explored."""

from __future__ import annotations

import io
import re

import networkx as nx

from dmcheck.main import main

from conftest import RULINGS

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
    nodes = re.findall(r'^  n(\d+) \[label="#\d+: (.*?)"', text, re.M)
    edges = re.findall(r'^  n(\d+) -> n(\d+) \[label="\[(\d+)\] (.*?)"\];', text, re.M)
    assert len(nodes) == len(graph.states)
    assert len(edges) == sum(len(out) for out in graph.edges)
    for node, summary in nodes:
        assert summary == model.summary(graph.states[int(node)]).replace('"', '\\"')
    for src, _, index, action in edges:
        assert action == model.actions(graph.states[int(src)])[int(index)].text
    # Q06 (S000 Q&A 2023-09-15): whatever Winter Spiral does, both chosen shields break and nobody wins
    terminal = [s for n, s in nodes if "peripheries=2" in text.split(f"  n{n} [", 1)[1].split("\n", 1)[0]]
    assert terminal and all(s.endswith("end: winner none, 2 broken") for s in terminal)


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
