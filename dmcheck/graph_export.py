"""`--graph FILE`: the explored state graph for other tools, as Graphviz DOT or networkx GraphML.

The file name's extension picks the format; any other extension is bad input, said before anything
is explored. Each node carries the model's one-line `summary` of its state (explorer protocol hook;
the fingerprint when the model has none) and each edge the text of its action, so a drawing reads
without the program.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from explorer.protocol import hook
from model.errors import InputError

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


def write_graph(graph, path: str) -> None:
    """Write the full explored graph to `path` in the format its extension names."""
    if graph_format(path) == ".dot":
        Path(path).write_text(to_dot(graph), encoding="utf-8")
        return
    import networkx as nx

    g = graph.to_networkx()
    summary = summary_of(graph)
    for node in g.nodes:
        g.nodes[node]["summary"] = summary(graph.state(node))
    nx.write_graphml(g, path)


def _quote(text: str) -> str:
    """A DOT double-quoted string (backslashes and quotes escaped, newlines as \\n)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(graph) -> str:
    """The graph in Graphviz DOT: node `n<i>` labelled with its number and summary, terminal states
    doubled and filled, edges labelled `[index] action text`."""
    summary = summary_of(graph)
    actions = graph.model.actions
    lines = ["digraph states {", "  rankdir=TB;", '  node [shape=box, fontsize=10, fontname="Helvetica"];',
             '  edge [fontsize=9, fontname="Helvetica"];']
    for node in range(len(graph.states)):
        state = graph.state(node)
        style = ", peripheries=2, style=filled, fillcolor=lightgrey" if graph.is_terminal(node) else ""
        lines.append(f"  n{node} [label={_quote(f'#{node}: ' + summary(state))}{style}];")
    for node, out in enumerate(graph.edges):
        legal = actions(graph.state(node))
        for index, succ, _ in out:
            text = getattr(legal[index], "text", str(legal[index]))
            lines.append(f"  n{node} -> n{succ} [label={_quote(f'[{index}] {text}')}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
