"""`dmcheck explore FILE --html OUT.html`: one self-contained page a judge can read and click through.

No network access: the CSS, the script and the drawn graph (SVG) are inline, and the explored graph is
embedded as JSON (each state's summary and full view, each edge's action, narration and rules), so
the page's script can walk it from the initial state the way Stateright's explorer does; the URL
hash `#replay=0/1` names the path, the same replay key `dmcheck explore --replay` takes. The template
(`templates/explorer.html`, package data) holds the CSS and the script; this module fills it in.
See docs/html.md.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

from dmcheck.explorer.graph import freeze
from dmcheck.properties.expectations import Verdict
from dmcheck.properties.verdict import VIOLATED

from .graph_export import PALETTE as _PALETTE
from .graph_export import follow, summary_of
from .report import expect_text, outcome_line

MAX_EMBED = 2000   # states embedded for the click-through explorer (the first ones, breadth first) ...
MAX_TRACES = 100   # ... plus the states on the traces of the first outcomes and of every check
MAX_DRAW = 300     # states drawn in the SVG picture of the graph
_ZONES = ("hand", "battle", "shields", "mana", "graveyard", "deck", "resolving", "standby", "attached")


def write_page(path: str, scenario, graph, verdicts: list[Verdict], properties=None, flags: str = "") -> None:
    """Write the page for one explored scenario (`properties`: a CheckResult from `dmcheck check`;
    `flags`: the command line's `--rules`/`--interpretation`, which the replay command repeats)."""
    Path(path).write_text(render(scenario, graph, verdicts, properties, flags), encoding="utf-8")


def render(scenario, graph, verdicts: list[Verdict], properties=None, flags: str = "") -> str:
    data = page_data(scenario, graph, verdicts, properties)
    data["replay_flags"] = flags
    template = resources.files("dmcheck.cli").joinpath("templates/explorer.html").read_text(encoding="utf-8")
    body = "\n".join(_header(scenario, graph) + _outcomes(data) + _verdicts(data) + _picture(graph, data))
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (template.replace("{{TITLE}}", html.escape(scenario.name))
            .replace("{{MAX_TRACES}}", str(MAX_TRACES))
            .replace("{{BODY}}", body).replace("{{DATA}}", payload))


# ---- the data the script reads ----------------------------------------------------------------------
def page_data(scenario, graph, verdicts: list[Verdict], properties=None) -> dict[str, Any]:
    """Outcomes, verdicts, traces and the embedded graph, as the page's script reads them."""
    outcomes = graph.outcomes()
    varying = {(z, p) for z in ("hand", "battle", "graveyard", "mana", "deck_bottom") for p in ("A", "B")
               if len({tuple(o[z][p]) for o, _, _ in outcomes}) > 1}
    data: dict[str, Any] = {
        "scenario": scenario.name, "file": scenario.file, "reduced": graph.reduced,
        "search": graph.record.to_json(),
        "states": graph.count, "complete": graph.complete,
        "outcomes": [{"text": outcome_line(o, varying), "count": c, "key": graph.key(n),
                      "outcome": o} for o, c, n in outcomes],
        "expectations": [{"text": expect_text(v.expectation.raw), "verdict": v.verdict, "reason": v.reason,
                          "key": v.trace.key() if v.trace is not None else None} for v in verdicts],
        "properties": [{"text": f"{v.property.id} [{', '.join(v.property.citations)}] {v.property.label}: "
                                f"{v.property.text}", "verdict": v.verdict, "reason": v.reason,
                        "key": v.trace.key() if v.trace is not None else None}
                       for v in (properties.verdicts if properties is not None else [])],
    }
    data["traces"] = ([{"title": f"outcome {i + 1}: {o['text']}", "key": o["key"], "verdict": "outcome"}
                       for i, o in enumerate(data["outcomes"][:MAX_TRACES])]
                      + [{"title": f"{kind} {item['verdict']}: {item['text']}", "key": item["key"],
                          "verdict": item["verdict"]}
                         for kind, items in (("expectation", "expectations"), ("property", "properties"))
                         for item in data[items]
                         if item["key"] is not None])
    keep = set(range(min(len(graph.states), MAX_EMBED)))
    violations = set()
    for t in data["traces"]:
        path = follow(graph, t["key"])
        keep.update(path)
        if t["verdict"] == VIOLATED:
            violations.add(path[-1])
    keep = _with_ancestors(graph, keep)
    outcome_of = {freeze(o): i for i, (o, _, _) in enumerate(outcomes)}
    data["zones"] = []   # each distinct player's zones once; a state's view refers to them by index
    data["graph"] = _graph_json(graph, sorted(keep), outcome_of, violations, data["zones"])
    data["embedded"] = len(keep)
    data["drawn"] = _drawn(graph)
    return data


def _drawn(graph) -> int:
    """How many states the picture draws: all, or the whole breadth-first layers that fit in MAX_DRAW
    (at least the initial state). Nodes are numbered breadth first, so they are the first ones."""
    if len(graph.states) <= MAX_DRAW:
        return len(graph.states)
    depth = graph.depth
    n = 1
    while n < len(depth) and depth[n] == 0:
        n += 1
    best = n
    while n < len(depth):
        layer_end = n
        while layer_end < len(depth) and depth[layer_end] == depth[n]:
            layer_end += 1
        if layer_end > MAX_DRAW:
            break
        best = n = layer_end
    return best


def _with_ancestors(graph, nodes: set[int]) -> set[int]:
    """The nodes with every node on their parent chains (so the script can name any of them by key)."""
    out = set(nodes)
    for node in nodes:
        while node > 0:
            node = graph.parent[node][0]
            out.add(node)
    return out


def _graph_json(graph, nodes: list[int], outcome_of: dict, violations: set[int], zones: list) -> dict[str, Any]:
    """Per embedded state: depth, parent link, summary, outcome index, full view and its edges."""
    model = graph.model
    summary = summary_of(graph)
    kept = set(nodes)
    out: dict[str, Any] = {}
    interned: dict[str, int] = {}

    def intern(player_zones: dict) -> int:
        key = json.dumps(player_zones, sort_keys=True)
        if key not in interned:
            interned[key] = len(zones)
            zones.append(player_zones)
        return interned[key]

    for node in nodes:
        state = graph.state(node)
        terminal = graph.is_terminal(node)
        legal = model.actions(state)
        edges = []
        for index, succ, events in graph.successors(node):
            header, lines = model.narrate(legal[index], tuple(events))
            rules = sorted({e.rule for e in events if getattr(e, "rule", "")})
            edges.append({"i": index, "to": succ if succ in kept else None, "text": legal[index].text,
                          "header": header, "events": lines, "rules": rules})
        out[str(node)] = {
            "depth": graph.depth[node], "parent": list(graph.parent[node]), "summary": summary(state),
            "terminal": terminal, "violation": node in violations,
            "outcome": outcome_of.get(freeze(model.outcome(state))) if terminal else None,
            "legal": len(legal), "view": _interned(state_view(model, state), intern), "edges": edges}
    return out


def _interned(view: dict[str, Any], intern) -> dict[str, Any]:
    return dict(view, players={p: intern(z) for p, z in view["players"].items()})


def state_view(m, s) -> dict[str, Any]:
    """Everything of a state a judge reads: both players' zones by card label, links and marks, the
    pending effects, the break frames (R603.7b), the effects being carried out and the shield checks."""
    label = m.label
    players = {}
    for p in ("A", "B"):
        z = s.zone(p)
        zones = {zone: [label(c) for c in getattr(z, zone)] for zone in _ZONES if getattr(z, zone)}
        if z.deck_added:
            zones["deck"] = zones.get("deck", []) + [f"({z.deck_added} put on the bottom)"]
        marks = [f"{label(c)} is {kind} of {label(h)}" for c, h, kind in z.links]
        marks += [f"{label(c)} face up" for c in z.face_up] + [f"{label(c)} tapped" for c in z.tapped]
        players[p] = {"zones": zones, "marks": marks}
    pending = [f"{p.controller}: {m.ability_label(p.card, p.ability)} of {label(p.source)} "
               f"({p.kind.replace('_', '-')}, frame {p.frame})" for p in s.pending]
    frames = [f"frame {i}: {label(f.by)} breaks {', '.join(label(c) for c in f.chosen) or 'nothing'} of "
              f"{f.defender}" + (" (the attack)" if f.is_attack else "")
              + (" — broken" if f.broken else " — breaking" if f.breaking else " — open")
              + "".join(f"; {label(c)}: {r.label}" for c, r in f.replaced)
              for i, f in enumerate(s.frames, 1)]
    running = [f"{t.ability} ({t.controller}), step {t.pc + 1} of {len(t.program)}"
               + (f": {t.program[t.pc].op}" if t.pc < len(t.program) else "") for t in s.running]
    checks = [f"{c.player}'s shield check of {', '.join(label(x) for x in c.cards)}"
              + (f"; declared {', '.join(d.kind + ' of ' + label(d.card) for d in c.declared)}" if c.declared else "")
              for c in s.checks]
    flags = [f"turn {s.turn}", f"attacker {label(s.attacker)}", f"defender {s.defender}"]
    flags += [text for on, text in ((not s.started, "not started"), (s.attacker_left, "attacker left"),
                                    (s.stop_attack, "attack to stop"), (s.attack_stopped, "attack stopped"),
                                    (s.turn_skipped, "turn skipped"), (s.over, "over")) if on]
    if s.winner:
        flags.append(f"winner {s.winner}")
    if s.broken:
        flags.append("broken: " + ", ".join(label(c) for c in s.broken))
    if s.uses:
        flags.append("uses: " + ", ".join(f"{k} x{n}" for k, n in s.uses))
    return {"players": players, "pending": pending, "frames": frames, "running": running, "checks": checks,
            "flags": flags}


# ---- the static parts -------------------------------------------------------------------------------
def _e(text: Any) -> str:
    return html.escape(str(text))


def _replay_link(key: str | None) -> str:
    return f'<a class="replay" href="#replay={_e(key)}">{_e(key)}</a>' if key else "—"


def _header(scenario, graph) -> list[str]:
    try:
        source = Path(scenario.file).read_text(encoding="utf-8")
    except OSError:
        source = "(the scenario file could not be read again)"
    search = "complete" if graph.complete else "INCOMPLETE: " + graph.reason
    readings = ", ".join(f"{k}={v}" for k, v in sorted(dict(graph.model.interpretation.readings).items())) or "defaults"
    return [f"<h1>{_e(scenario.name)}</h1>",
            f'<p class="meta">{_e(scenario.file)} · rules {_e(graph.model.version.name)} · readings {_e(readings)}'
            f' · search {_e(search)} · <span id="state-count">{graph.count}</span> states, '
            f"{graph.transitions} transitions ({_e(graph.record.text())})</p>",
            "<details><summary>the scenario file</summary>", f"<pre>{_e(source)}</pre>", "</details>"]


def _outcomes(data: dict) -> list[str]:
    rows = [f'<tr><td><span class="swatch" style="background:{_PALETTE[i % len(_PALETTE)]}"></span>{i + 1}</td>'
            f'<td class="num">{o["count"]}</td><td>{_e(o["text"])}</td><td>{_replay_link(o["key"])}</td></tr>'
            for i, o in enumerate(data["outcomes"])]
    return [f'<h2>Outcomes (<span id="outcome-count">{len(data["outcomes"])}</span>)</h2>',
            '<div class="tablebox"><table id="outcomes">'
            '<tr><th>#</th><th>states</th><th>outcome</th><th>replay</th></tr>',
            *rows, "</table></div>"]


def _verdicts(data: dict) -> list[str]:
    out = []
    for kind, title in (("expectations", "Expectations (the scenario's expect items)"),
                        ("properties", "Rules properties (Z3)")):
        items = data[kind]
        if not items and kind == "properties":
            continue
        out.append(f"<h2>{title}</h2>")
        if not items:
            out.append("<p>none</p>")
            continue
        out.append(f'<table id="{kind}"><tr><th>verdict</th><th>item</th><th>why</th><th>replay</th></tr>')
        out += [f'<tr class="{_e(v["verdict"])}"><td class="verdict">{_e(v["verdict"])}</td><td>{_e(v["text"])}</td>'
                f'<td>{_e(v["reason"])}</td><td>{_replay_link(v["key"])}</td></tr>' for v in items]
        out.append("</table>")
    return out


def _picture(graph, data: dict) -> list[str]:
    """The state graph drawn in layers by breadth-first depth (the first MAX_DRAW states)."""
    drawn = list(range(data["drawn"]))
    layers: dict[int, list[int]] = defaultdict(list)
    for node in drawn:
        layers[graph.depth[node]].append(node)
    gap_x, gap_y, r = 26, 70, 8
    width = max(400, gap_x * (max(len(v) for v in layers.values()) + 1))
    height = gap_y * (max(layers) + 1) + 20
    pos = {node: (width * (k + 1) / (len(layer) + 1), 20 + gap_y * depth)
           for depth, layer in layers.items() for k, node in enumerate(layer)}
    lines, circles = [], []
    for node in drawn:
        for _, succ, _ in graph.successors(node):
            if succ in pos:
                (x1, y1), (x2, y2) = pos[node], pos[succ]
                lines.append(f'<line class="edge" data-from="{node}" data-to="{succ}" x1="{x1:.1f}" y1="{y1:.1f}" '
                             f'x2="{x2:.1f}" y2="{y2:.1f}"/>')
    for node in drawn:
        info = data["graph"][str(node)]
        colour = ("#ffffff" if not info["terminal"] else
                  _PALETTE[info["outcome"] % len(_PALETTE)] if info["outcome"] is not None else "#999999")
        cls = "state violation" if info["violation"] else "state"
        x, y = pos[node]
        circles.append(f'<circle class="{cls}" data-node="{node}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" '
                       f'fill="{colour}"><title>#{node}: {_e(info["summary"])}</title></circle>')
    layers_drawn = graph.depth[data["drawn"] - 1] + 1
    note = (f"all {graph.count} states are drawn" if data["drawn"] == graph.count else
            f"only the first {layers_drawn} layer{'s' if layers_drawn > 1 else ''}, {data['drawn']} of "
            f"{graph.count} states, are drawn (at most {MAX_DRAW})")
    embedded = ("" if data["embedded"] >= graph.count else
                f"; the explorer below holds {data['embedded']} of them (the first ones and every state on a "
                "listed trace)")
    return ["<h2>State graph</h2>",
            f'<p class="note" id="graph-note">Layers by breadth-first depth; {note}{embedded}. Filled: a terminal '
            f'state, coloured by its outcome; red ring: where a violated check\'s trace ends; white: a state where '
            f"someone chooses. Click a state to go there.</p>",
            f'<div class="svgbox"><svg id="graph" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
            *lines, *circles, "</svg></div>"]
