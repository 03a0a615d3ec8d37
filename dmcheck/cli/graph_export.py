"""`--graph FILE`: the explored state graph for other tools, as Graphviz DOT or networkx GraphML.

The file name's extension picks the format; any other extension is bad input, said before anything
is explored. Each node carries the model's one-line `summary` of its state (explorer protocol hook;
the fingerprint when the model has none) and each edge the text of its action, so a drawing reads
without the program.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dmcheck.explorer.graph import freeze
from dmcheck.explorer.protocol import hook
from dmcheck.explorer.trace import parse_key
from dmcheck.model.errors import InputError
from dmcheck.properties.verdict import VIOLATED

if TYPE_CHECKING:
    from dmcheck.properties.checker import CheckResult, PropertyVerdict
    from dmcheck.properties.expectations import Verdict

from .report import distinct_lines, expect_text

FORMATS = (".dot", ".graphml")


def graph_format(path: str) -> str:
    """The format a `--graph` file name asks for; InputError for any other extension."""
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise InputError("--graph", None, path, "expected a file name ending in .dot (Graphviz) or "
                                                 f".graphml (networkx GraphML), got {ext or 'no extension'!r}")
    return ext


def summary_of(graph) -> Callable[[Any], str]:
    """The model's one-line state summary, or the fingerprint when the model offers none."""
    summary = hook(graph.model, "summary")
    return summary if summary is not None else (lambda s: s.fingerprint())


PALETTE = ("#4e79a7", "#59a14f", "#edc948", "#b07aa1", "#76b7b2", "#ff9da7", "#9c755f", "#f28e2b",
           "#bab0ac", "#86bcb6")   # outcome colours, the HTML page's too
VIOLATION = "#d62728"


def write_graph(graph, path: str, verdicts=(), properties=None) -> None:
    """Write the full explored graph to `path` in the format its extension names; terminal states
    carry their outcome, and the states where a violated check's trace ends say which check."""
    marks = Marks(graph, verdicts, properties)
    if graph_format(path) == ".dot":
        Path(path).write_text(to_dot(graph, marks), encoding="utf-8")
        return
    import networkx as nx

    g = graph.to_networkx()
    summary = summary_of(graph)
    for node in g.nodes:
        g.nodes[node]["summary"] = summary(graph.state(node))
        g.nodes[node]["outcome"] = marks.outcome.get(node, -1) + 1       # 0: not terminal
        g.nodes[node]["violates"] = "; ".join(marks.violations.get(node, []))
    nx.write_graphml(g, path)


def follow(graph, key: str) -> list[int]:
    """The nodes a replay key passes through from the initial state (as far as the graph has them)."""
    nodes = [0]
    for index in parse_key(key):
        succ = next((s for i, s, _ in graph.successors(nodes[-1]) if i == index), None)
        if succ is None:
            break
        nodes.append(succ)
    return nodes


class Marks:
    """What a drawing shows beside the states: each terminal state's outcome (its index among the
    graph's outcomes, whose order every report shares) and the checks whose violating trace ends in
    a state."""

    def __init__(self, graph: Any, verdicts: Sequence[Verdict] = (), properties: CheckResult | None = None) -> None:
        self.outcomes = graph.outcomes()
        index = {freeze(o): i for i, (o, _, _) in enumerate(self.outcomes)}
        self.outcome = {node: index[freeze(graph.model.outcome(graph.state(node)))]
                        for node in range(len(graph.states)) if graph.is_terminal(node)}
        self.violations: dict[int, list[str]] = {}
        checks: list[tuple[str, Verdict | PropertyVerdict]] = [(expect_text(v.expectation.raw), v) for v in verdicts]
        checks += [(v.property.id, v) for v in (properties.verdicts if properties is not None else [])]
        for text, v in checks:
            if v.verdict == VIOLATED and v.trace is not None:
                self.violations.setdefault(follow(graph, v.trace.key())[-1], []).append(text)


def _quote(text: str) -> str:
    """A DOT double-quoted string (backslashes and quotes escaped, newlines as \\n)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(graph, marks: Marks | None = None) -> str:
    """The graph in Graphviz DOT: node `n<i>` labelled with its number and summary; a terminal state
    doubled and filled with its outcome's colour (a legend names the outcomes); a red, thick border
    and the check's name where a violated check's trace ends; edges labelled `[index] action text`."""
    marks = marks or Marks(graph)
    summary = summary_of(graph)
    actions = graph.model.actions
    lines = ["digraph states {", "  rankdir=TB;", '  node [shape=box, fontsize=10, fontname="Helvetica"];',
             '  edge [fontsize=9, fontname="Helvetica"];']
    for node in range(len(graph.states)):
        label, style = f"#{node}: " + summary(graph.state(node)), ""
        if node in marks.outcome:
            n = marks.outcome[node]
            label += f"\noutcome {n + 1}"
            style += f', peripheries=2, style=filled, fillcolor="{PALETTE[n % len(PALETTE)]}"'
        if node in marks.violations:
            label += "".join(f"\nVIOLATES {text}" for text in marks.violations[node])
            style += f', color="{VIOLATION}", penwidth=3, fontcolor="{VIOLATION}"'
        lines.append(f"  n{node} [label={_quote(label)}{style}];")
    for node, out in enumerate(graph.edges):
        legal = actions(graph.state(node))
        for index, succ, _ in out:
            text = getattr(legal[index], "text", str(legal[index]))
            lines.append(f"  n{node} -> n{succ} [label={_quote(f'[{index}] {text}')}];")
    lines += _legend(marks)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _legend(marks: Marks) -> list[str]:
    """A box per outcome in its colour, with what the outcome is."""
    if not marks.outcomes:
        return []
    lines = ['  subgraph cluster_legend {', '    label="outcomes"; fontname="Helvetica"; fontsize=10;']
    told = distinct_lines([o for o, _, _ in marks.outcomes])     # only what tells them apart
    for n, ((_, count, _), line) in enumerate(zip(marks.outcomes, told)):
        text = f"outcome {n + 1} ({count} terminal state{'s' if count != 1 else ''}): {line}"
        lines.append(f'    legend{n} [label={_quote(text)}, style=filled, fillcolor="{PALETTE[n % len(PALETTE)]}"];')
    return lines + ["  }"]
