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


def colour(n: int) -> str:
    """Outcome n's colour (`#rrggbb`): the palette's first ten, then hues spaced around the circle by
    the golden angle at three lightnesses, so that outcomes never share one (the HTML page's too)."""
    if n < len(PALETTE):
        return PALETTE[n]
    import colorsys
    r, g, b = colorsys.hls_to_rgb((n * 0.381966) % 1.0, (0.45, 0.62, 0.75)[n % 3], 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


READABLE = 2_000   # more states than this drawn at once cannot be read: the hint names the cuts
CUT_HINT = ("cut it to what you look at with --graph-trace KEY (a trace and the choices beside it), "
            "--graph-outcome N (the paths to outcome N) or --graph-depth N (the first N steps)")


def write_graph(graph, path: str, verdicts=(), properties=None, keep: set[int] | None = None) -> int:
    """Write the explored graph (or the states `keep` names, see `cut`) to `path` in the format its
    extension names; terminal states carry their outcome, and the states where a violated check's
    trace ends say which check. Returns how many states were written."""
    marks = Marks(graph, verdicts, properties)
    if graph_format(path) == ".dot":
        Path(path).write_text(to_dot(graph, marks, keep), encoding="utf-8")
        return len(keep) if keep is not None else len(graph.states)
    import networkx as nx

    g = graph.to_networkx()
    if keep is not None:
        g = g.subgraph(sorted(keep)).copy()
    summary = summary_of(graph)
    for node in g.nodes:
        g.nodes[node]["summary"] = summary(graph.state(node))
        g.nodes[node]["outcome"] = marks.outcome.get(node, -1) + 1       # 0: not terminal
        g.nodes[node]["violates"] = "; ".join(marks.violations.get(node, []))
    nx.write_graphml(g, path)
    return g.number_of_nodes()


def cut(graph, key: str | None = None, outcome: int | None = None, depth: int | None = None) -> set[int] | None:
    """The states a drawing keeps (None: all): along a replay key and one choice beside each of its
    steps; on the paths to the terminal states of outcome N (1-based, the reports' numbering); within
    N steps of the start. Several cuts keep what they all keep."""
    kept: set[int] | None = None

    def keep(nodes: set[int]) -> None:
        nonlocal kept
        kept = nodes if kept is None else kept & nodes
    if key is not None:
        path = follow(graph, key)
        keep(set(path) | {succ for node in path for _, succ, _ in graph.successors(node)})
    if outcome is not None:
        marks = Marks(graph)
        if not 1 <= outcome <= len(marks.outcomes):
            raise InputError("--graph-outcome", None, str(outcome),
                             f"expected an outcome number from 1 to {len(marks.outcomes)} (the order of the report)")
        keep(_ancestors(graph, {n for n, i in marks.outcome.items() if i == outcome - 1}))
    if depth is not None:
        keep({n for n in range(len(graph.states)) if graph.depth[n] <= depth})
    return kept


def _ancestors(graph, targets: set[int]) -> set[int]:
    """The states from which one of `targets` can be reached, the targets included."""
    before: dict[int, list[int]] = {}
    for node in range(len(graph.states)):
        for _, succ, _ in graph.successors(node):
            before.setdefault(succ, []).append(node)
    seen, todo = set(targets), list(targets)
    while todo:
        for prev in before.get(todo.pop(), ()):
            if prev not in seen:
                seen.add(prev)
                todo.append(prev)
    return seen


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


def _wrapped(text: str, width: int = 36, sep: str = ";") -> str:
    """A state's summary (an action's text) on lines of about `width` characters, broken after its
    `;` parts (its words), so that the drawing stays as narrow as it can."""
    lines, line = [], ""
    for part in text.split(sep + " " if sep != " " else " "):
        if line and len(line) + len(part) + 2 > width:
            lines.append(line + sep.strip())
            line = part
        else:
            line = f"{line}{sep.strip()} {part}" if line else part
    return "\n".join(lines + [line])


def to_dot(graph, marks: Marks | None = None, keep: set[int] | None = None) -> str:
    """The graph in Graphviz DOT: node `n<i>` labelled with its number and summary; a terminal state
    doubled and filled with its outcome's colour (a legend names the outcomes); a red, thick border
    and the check's name where a violated check's trace ends; edges labelled `[index] action text`.
    With `keep`, only those states, each saying how many of its choices lead out of the drawing."""
    marks = marks or Marks(graph)
    summary = summary_of(graph)
    actions = graph.model.actions
    nodes = sorted(keep) if keep is not None else range(len(graph.states))
    # left to right: a level of many states is a column to scroll down, not a row thousands of points wide
    lines = ["digraph states {", "  rankdir=LR;", '  node [shape=box, fontsize=10, fontname="Helvetica"];',
             '  edge [fontsize=9, fontname="Helvetica"];']
    for node in nodes:
        label, style = f"#{node}: " + _wrapped(summary(graph.state(node))), ""
        if node in marks.outcome:
            n = marks.outcome[node]
            label += f"\noutcome {n + 1}"
            style += f', peripheries=2, style=filled, fillcolor="{colour(n)}"'
        if node in marks.violations:
            label += "".join(f"\nVIOLATES {text}" for text in marks.violations[node])
            style += f', color="{VIOLATION}", penwidth=3, fontcolor="{VIOLATION}"'
        hidden = sum(1 for _, succ, _ in graph.successors(node) if keep is not None and succ not in keep)
        if hidden:
            label += f"\n(+{hidden} choice{'s' if hidden > 1 else ''} not drawn)"
        lines.append(f"  n{node} [label={_quote(label)}{style}];")
    for node in nodes:
        legal = actions(graph.state(node))
        for index, succ, _ in graph.successors(node):
            if keep is None or succ in keep:
                text = getattr(legal[index], "text", str(legal[index]))
                lines.append(f"  n{node} -> n{succ} [label={_quote(f'[{index}] ' + _wrapped(text, 28, ' '))}];")
    lines += _legend(marks, {marks.outcome[n] for n in nodes if n in marks.outcome} if keep is not None else None)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _legend(marks: Marks, shown: set[int] | None = None) -> list[str]:
    """A box per outcome in its colour, with what the outcome is (`shown`: only those outcomes)."""
    if not marks.outcomes:
        return []
    lines = ['  subgraph cluster_legend {', '    label="outcomes"; fontname="Helvetica"; fontsize=10;']
    told = distinct_lines([o for o, _, _ in marks.outcomes])     # only what tells them apart
    for n, ((_, count, _), line) in enumerate(zip(marks.outcomes, told)):
        if shown is not None and n not in shown:
            continue
        text = f"outcome {n + 1} ({count} terminal state{'s' if count != 1 else ''}): {line}"
        lines.append(f'    legend{n} [label={_quote(text)}, style=filled, fillcolor="{colour(n)}"];')
    return lines + ["  }"]
