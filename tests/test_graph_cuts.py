"""`--graph` that can be read (issue 38, item 7): `--graph-trace KEY`, `--graph-outcome N` and
`--graph-depth N` cut the drawing to what the user looks at; a drawing of more than 2,000 states still
writes, with a hint on stderr naming the cuts; outcome colours never repeat."""

from __future__ import annotations

import io
import re

import pytest

from dmcheck.main import main

# Kakumeijin casting Texas Storm or Winter Spiral into three shields, Kobo beside it: 2,672 states
WIDE = """\
name: a wide graph
rules: 2024-06-19
turn: A
players:
  A: {battle: [Kakumeijin, Kobo Magical Shocker], hand: [Texas Storm, Winter Spiral], mana: 5}
  B: {shields: [Vanilla, Terror Pit, Aqua Surfer]}
attack: {attacker: Kakumeijin, player: B}
"""
NODE = re.compile(r"^  n(\d+) \[label=\"#\d+: (.*?)\"(.*)\];$", re.M)
EDGE = re.compile(r"^  n(\d+) -> n(\d+) \[label=\"\[(\d+)\]", re.M)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    """The scenario, its whole drawing, and its JSON report (outcomes with their replay keys)."""
    import json
    folder = tmp_path_factory.mktemp("wide")
    (folder / "wide.yaml").write_text(WIDE, encoding="utf-8")
    code, out, err = _run("explore", str(folder / "wide.yaml"), "--graph", str(folder / "all.dot"), "--json")
    return folder, (folder / "all.dot").read_text(encoding="utf-8"), json.loads(out)["scenarios"][0], err


def _drawn(text: str) -> tuple[dict[int, str], list[tuple[int, int]]]:
    return ({int(m[1]): m[2] + m[3] for m in NODE.finditer(text)},
            [(int(a), int(b)) for a, b, _ in EDGE.findall(text)])


def test_a_drawing_too_wide_to_read_still_writes_with_a_hint_naming_the_cuts(wide):
    _, dot, report, err = wide
    nodes, edges = _drawn(dot)
    assert len(nodes) == report["states"] > 2000
    (hint,) = [line for line in err.splitlines() if line.startswith("dmcheck:")]
    assert f"{report['states']} states drawn" in hint
    assert all(flag in hint for flag in ("--graph-trace KEY", "--graph-outcome N", "--graph-depth N"))


def test_each_cut_keeps_what_it_says(wide):
    folder, dot, report, _ = wide
    all_nodes, all_edges = _drawn(dot)
    depth = {0: 0}
    for a, b in sorted(all_edges):
        depth.setdefault(b, depth[a] + 1)
    # the first two steps
    code, _, err = _run("explore", str(folder / "wide.yaml"), "--graph", str(folder / "d.dot"), "--graph-depth", "2")
    nodes, edges = _drawn((folder / "d.dot").read_text())
    assert code == 0 and "states drawn" not in err
    assert set(nodes) == {n for n in all_nodes if depth[n] <= 2} and 0 in nodes
    assert all(a in nodes and b in nodes for a, b in edges)
    # one outcome's paths: its terminal states and what leads there, and no other outcome
    n = 3
    code, _, _ = _run("explore", str(folder / "wide.yaml"), "--graph", str(folder / "o.dot"), "--graph-outcome", str(n))
    nodes, edges = _drawn((folder / "o.dot").read_text())
    marked = {int(k) for k in re.findall(r"\\noutcome (\d+)", "".join(nodes.values()))}
    assert marked == {n} and 0 in nodes and len(nodes) < len(all_nodes)
    assert all(any(a == node for a, _ in edges) or f"outcome {n}" in label for node, label in nodes.items())
    # one trace: its states, and where each other choice beside it leads, each state saying what it leaves out
    key = report["outcomes"][n - 1]["trace_key"]
    code, _, _ = _run("explore", str(folder / "wide.yaml"), "--graph", str(folder / "t.dot"), "--graph-trace", key)
    nodes, edges = _drawn((folder / "t.dot").read_text())
    choice = {(int(a), int(i)): int(b) for a, b, i in EDGE.findall(dot)}
    path = [0]
    for index in map(int, key.split("/")):
        path.append(choice[(path[-1], index)])
    beside = {b for a, b in all_edges if a in path}
    assert set(nodes) == set(path) | beside
    assert f"outcome {n}" in nodes[path[-1]]
    assert any("not drawn" in label for label in nodes.values())


def test_outcome_colours_never_repeat(wide):
    _, dot, report, _ = wide
    legend = re.findall(r"legend\d+ \[label=.*?fillcolor=\"(#[0-9a-f]{6})\"\];", dot)
    assert report["outcomes_total"] > 10
    assert len(legend) == len(set(legend)) > 10


def test_a_cut_without_graph_is_bad_input(wide):
    folder, _, _, _ = wide
    code, _, err = _run("explore", str(folder / "wide.yaml"), "--graph-depth", "2")
    assert code == 2 and "--graph-depth" in err and "expected --graph" in err
    code, _, err = _run("explore", str(folder / "wide.yaml"), "--graph", "x.dot", "--graph-trace", "0/a")
    assert code == 2 and "--graph-trace" in err
    code, _, err = _run("explore", str(folder / "wide.yaml"), "--graph", str(folder / "x.dot"),
                        "--graph-outcome", "9999")
    assert code == 2 and "outcome number from 1 to" in err
