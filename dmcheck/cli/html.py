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
import re
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

from dmcheck.explorer.graph import freeze
from dmcheck.model.lang import current, japanese, keyword, tr
from dmcheck.properties.checker import watch
from dmcheck.properties.expectations import Verdict
from dmcheck.properties.verdict import VIOLATED

from .graph_export import colour, follow, summary_of
from .report import expect_text, outcome_line

MAX_EMBED = 2000   # states embedded for the click-through explorer (the first ones, breadth first) ...
MAX_TRACES = 100   # ... plus the states on the traces of the first outcomes and of every check
MAX_DRAW = 300     # states drawn in the SVG picture of the graph
_ZONES = ("hand", "battle", "shields", "mana", "graveyard", "deck", "resolving", "standby", "attached",
          "hyperspatial", "super_gr", "abyss")


def write_page(path: str, scenario, graph, verdicts: list[Verdict], properties=None, flags: str = "",
               watches: tuple = ()) -> None:
    """Write the page for one explored scenario (`properties`: a CheckResult from `dmcheck check`;
    `flags`: the command line's `--rules`/`--interpretation`, which the replay command repeats;
    `watches`: the watch expressions, properties/property_file.py `watch_properties`)."""
    Path(path).write_text(render(scenario, graph, verdicts, properties, flags, watches), encoding="utf-8")


def render(scenario, graph, verdicts: list[Verdict], properties=None, flags: str = "", watches: tuple = ()) -> str:
    data = page_data(scenario, graph, verdicts, properties, watches)
    data["replay_flags"] = flags
    data["i18n"] = {text: tr(text) for text in SCRIPT_TEXT} if japanese() else {}
    template = resources.files("dmcheck.cli").joinpath("templates/explorer.html").read_text(encoding="utf-8")
    body = "\n".join(_header(scenario, graph) + _summary(scenario, graph, verdicts, properties, data)
                     + _outcomes(data) + _verdicts(data) + _picture(graph, data))
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    page = template.replace("{{TITLE}}", html.escape(scenario.name)).replace("{{LANG}}", current())
    page = _TEXT.sub(lambda m: tr(" ".join(m[1].split())), page)   # the template's sentences, in the current language
    return (page.replace("{{MAX_TRACES}}", str(MAX_TRACES))
            .replace("{{BODY}}", body).replace("{{DATA}}", payload))


# the template's sentences ({{T:...}}) and the script's (t("...")), translated by model/data/ja.yaml
_TEXT = re.compile(r"\{\{T:(.*?)\}\}", re.S)
SCRIPT_TEXT = (
    "player A", "player B", "marks", "pending effects", "break frames", "being carried out", "shield checks",
    "rules: ", "the initial state", "(back here)", "back to before this step", "(not embedded)", "terminal: ",
    "outcome {n}: ", "over", "Outcome", "Choices ({n})", "not expanded: the search stopped at a limit",
    "{n} other choice(s) left out: the reduction explores one order of effects that commute (explore with "
    "--no-reduce to see every order)", "initial state", "step {n}: no choice [{i}] here; the choices are ",
    "none (the state is terminal)", "step {n}: that state is not embedded in this page (it holds {k} of {all} "
    "states); ", " prints the trace", "replay", "watch", "yes", "no", "?", "after step {n}", "start",
    "hand", "battle", "shields", "mana", "graveyard", "deck", "resolving", "standby", "attached", "hyperspatial",
    "super_gr", "abyss",
    "not a replay key: write action indexes separated by '/', like 0/2/1",
)


# ---- the data the script reads ----------------------------------------------------------------------
def page_data(scenario, graph, verdicts: list[Verdict], properties=None, watches: tuple = ()) -> dict[str, Any]:
    """Outcomes, verdicts, traces, the embedded graph and the watch expressions' values at each of its
    states, as the page's script reads them."""
    outcomes = graph.outcomes()
    names = graph.model.names() if hasattr(graph.model, "names") else None
    varying = {(z, p) for z in ("hand", "battle", "graveyard", "mana", "deck_bottom") for p in ("A", "B")
               if len({tuple(o[z][p]) for o, _, _ in outcomes}) > 1}
    data: dict[str, Any] = {
        "scenario": scenario.name, "file": scenario.file, "reduced": graph.reduced,
        "search": graph.record.to_json(),
        "states": graph.count, "complete": graph.complete,
        "outcomes": [{"text": outcome_line(o, varying, names), "count": c, "key": graph.key(n),
                      "outcome": o, "colour": colour(i)} for i, (o, c, n) in enumerate(outcomes)],
        "expectations": [{"text": expect_text(v.expectation.raw), "verdict": v.verdict, "reason": v.reason,
                          "key": v.trace.key() if v.trace is not None else None} for v in verdicts],
        "properties": [{"text": f"{v.property.id} [{', '.join(v.property.citations)}] {v.property.label}: "
                                f"{v.property.text}", "verdict": v.verdict, "reason": v.reason,
                        "key": v.trace.key() if v.trace is not None else None}
                       for v in (properties.verdicts if properties is not None else [])],
    }
    data["traces"] = ([{"title": tr("outcome {n}: {text}", n=i + 1, text=o["text"]), "key": o["key"],
                        "verdict": "outcome"} for i, o in enumerate(data["outcomes"][:MAX_TRACES])]
                      + [{"title": tr("{kind} {verdict}: {text}", kind=tr(kind), verdict=tr(item["verdict"]),
                                      text=item["text"]), "key": item["key"], "verdict": item["verdict"]}
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
    nodes = sorted(keep)
    values = watch(graph, list(watches), nodes) if watches else []
    data["watches"] = [{"text": w.text, "values": {str(n): v for n, v in zip(nodes, row)}}
                       for w, row in zip(watches, values)]
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
            text = model.action_text(legal[index]) if hasattr(model, "action_text") else legal[index].text
            edges.append({"i": index, "to": succ if succ in kept else None, "text": text,
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
    pending effects, the break frames (R603.7b), the effects being carried out and the shield checks
    (in the current language: cards as their files name them, model/lang.py)."""
    names = m.names() if hasattr(m, "names") else None
    label = (lambda c: names.card(m.label(c))) if names is not None else m.label
    ability = names.ability if names is not None else str
    players = {}
    for p in ("A", "B"):
        z = s.zone(p)
        zones = {zone: [label(c) for c in getattr(z, zone)] for zone in _ZONES if getattr(z, zone)}
        if z.deck_added:
            zones["deck"] = zones.get("deck", []) + [tr("({n} put on the bottom)", n=z.deck_added)]
        marks = [tr("{card} is {kind} of {host}", card=label(c), kind=tr(kind), host=label(h))
                 for c, h, kind in z.links]
        marks += [tr("{card} face up", card=label(c)) for c in z.face_up]
        marks += [tr("{card} tapped", card=label(c)) for c in z.tapped]
        players[p] = {"zones": zones, "marks": marks}
    pending = [tr("{player}: {ability} of {source} ({kind}, frame {frame})", player=x.controller,
                  ability=ability(m.ability_label(x.card, x.ability)), source=label(x.source),
                  kind=tr(x.kind.replace("_", "-")), frame=x.frame) for x in s.pending]
    frames = [tr("frame {i}: {by} breaks {chosen} of {defender}", i=i, by=label(f.by),
                 chosen=", ".join(label(c) for c in f.chosen) or tr("nothing"), defender=f.defender)
              + (tr(" (the attack)") if f.is_attack else "")
              + (tr(" — broken") if f.broken else tr(" — breaking") if f.breaking else tr(" — open"))
              + "".join(f"; {label(c)}: {ability(r.label)}" for c, r in f.replaced)
              for i, f in enumerate(s.frames, 1)]
    running = [tr("{ability} ({player}), step {n} of {of}", ability=ability(t.ability), player=t.controller,
                  n=t.pc + 1, of=len(t.program)) + (f": {t.program[t.pc].op}" if t.pc < len(t.program) else "")
               for t in s.running]
    checks = [tr("{player}'s shield check of {cards}", player=c.player, cards=", ".join(label(x) for x in c.cards))
              + (tr("; declared {what}", what=", ".join(keyword(d.kind) + tr(" of ") + label(d.card)
                                                        for d in c.declared)) if c.declared else "")
              for c in s.checks]
    flags = [tr("turn {p}", p=s.turn), tr("attacker {card}", card=label(s.attacker)), tr("defender {p}", p=s.defender)]
    flags += [tr(text) for on, text in ((not s.started, "not started"), (s.attacker_left, "attacker left"),
                                        (s.stop_attack, "attack to stop"), (s.attack_stopped, "attack stopped"),
                                        (s.turn_skipped, "turn skipped"), (s.over, "over")) if on]
    if s.winner:
        flags.append(tr("winner {who}", who=s.winner))
    if s.broken:
        flags.append(tr("broken: {cards}", cards=", ".join(label(c) for c in s.broken)))
    if s.uses:
        flags.append(tr("uses: {list}", list=", ".join(f"{ability(k)} x{n}" for k, n in s.uses)))
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
        source = tr("(the scenario file could not be read again)")
    search = tr("complete") if graph.complete else tr("INCOMPLETE: {why}", why=graph.reason)
    readings = ", ".join(f"{k}={v}" for k, v in sorted(dict(graph.model.readings.pairs).items())) or "defaults"
    return [f"<h1>{_e(scenario.name)}</h1>",
            '<p class="meta">' + _e(tr("{file} · rules {rules} · readings {readings} · search {search}",
                                       file=scenario.file, rules=graph.model.version.name, readings=readings,
                                       search=search))
            + f' · <span id="state-count">{graph.count}</span> '
            + _e(tr("states, {t} transitions ({record})", t=graph.transitions, record=_record(graph))) + "</p>",
            f"<details><summary>{_e(tr('the scenario file'))}</summary>", f"<pre>{_e(source)}</pre>", "</details>"]


def _record(graph) -> str:
    r = graph.record
    return tr("reduction {on}, symmetry {symmetry}", on=tr("on" if r.reduction else "off"), symmetry=tr(r.symmetry))


def _summary(scenario, graph, verdicts: list[Verdict], properties, data: dict) -> list[str]:
    """The block a reader sees first: the question the scenario asks (its name and sources), the answer
    in one sentence, and the trace that shows it, step by step (what a wiki page quotes)."""
    answer, trace = _answer(graph, verdicts, properties)
    out = ['<section class="summary">', f"<h2>{_e(tr('Summary'))}</h2>",
           f'<p class="question"><b>{_e(tr("Question:"))}</b> {_e(scenario.name)}'
           + (f' <span class="sources">({_e(tr("sources: {list}", list=", ".join(scenario.source)))})</span>'
              if scenario.source else "") + "</p>",
           f'<p class="answer"><b>{_e(tr("Answer:"))}</b> {_e(answer)}</p>']
    if trace is not None:
        out.append(f'<p class="shown"><b>{_e(tr("The trace that shows it"))}</b> '
                   f'({_e(tr("replay"))} {_replay_link(trace.key() if trace.steps else "-")}):</p>')
        out.append('<ol class="summary-trace">')
        for header, lines in trace.narrated():
            events = "".join(f"<li>{_e(line)}</li>" for line in lines)
            out.append(f"<li>{_e(header)}" + (f"<ul>{events}</ul>" if events else "") + "</li>")
        out.append("</ol>")
    out.append("</section>")
    return out


def _answer(graph, verdicts: list[Verdict], properties) -> tuple[str, Any]:
    """The answer in one sentence, and the trace that shows it: a failed check's counterexample; else
    an example a check found; else the first outcome's shortest trace."""
    outcomes = graph.outcomes()
    checks = [(expect_text(v.expectation.raw), v) for v in verdicts]
    checks += [(v.property.id, v) for v in (properties.verdicts if properties is not None else [])]
    failed = next(((text, v) for text, v in checks if v.verdict == VIOLATED), None)
    unsure = next(((text, v) for text, v in checks if v.verdict == "inconclusive"), None)
    first = graph.trace(outcomes[0][2]) if outcomes else None
    if failed is not None:
        text, v = failed
        return tr("No: {check} does not hold — {reason}.", check=text, reason=v.reason), v.trace or first
    if unsure is not None:
        text, v = unsure
        return tr("Not decided: {check} is inconclusive — {reason}.", check=text, reason=v.reason), first
    shown = next((v.trace for _, v in checks if v.trace is not None), first)
    if not verdicts:
        return tr("The attack can end in {n} different ways; the scenario states no expectation.",
                  n=len(outcomes)), shown
    return tr("Yes: all {k} expectations of the scenario hold on every way the attack can go ({n} outcomes).",
              k=len(verdicts), n=len(outcomes)), shown


def _outcomes(data: dict) -> list[str]:
    rows = [f'<tr><td><span class="swatch" style="background:{o["colour"]}"></span>{i + 1}</td>'
            f'<td class="num">{o["count"]}</td><td>{_e(o["text"])}</td><td>{_replay_link(o["key"])}</td></tr>'
            for i, o in enumerate(data["outcomes"])]
    return [f'<h2>{_e(tr("Outcomes"))} (<span id="outcome-count">{len(data["outcomes"])}</span>)</h2>',
            '<div class="tablebox"><table id="outcomes">'
            f'<tr><th>#</th><th>{_e(tr("states"))}</th><th>{_e(tr("outcome"))}</th><th>{_e(tr("replay"))}</th></tr>',
            *rows, "</table></div>"]


def _verdicts(data: dict) -> list[str]:
    out = []
    for kind, title in (("expectations", "Expectations (the scenario's expect items)"),
                        ("properties", "Rules properties (Z3)")):
        items = data[kind]
        if not items and kind == "properties":
            continue
        out.append(f"<h2>{_e(tr(title))}</h2>")
        if not items:
            out.append(f"<p>{_e(tr('none'))}</p>")
            continue
        out.append(f'<table id="{kind}"><tr><th>{_e(tr("verdict"))}</th><th>{_e(tr("item"))}</th>'
                   f'<th>{_e(tr("why"))}</th><th>{_e(tr("replay"))}</th></tr>')
        out += [f'<tr class="{_e(v["verdict"])}"><td class="verdict">{_e(tr(v["verdict"]))}</td>'
                f'<td>{_e(v["text"])}</td><td>{_e(v["reason"])}</td><td>{_replay_link(v["key"])}</td></tr>'
                for v in items]
        out.append("</table>")
    return out


def _picture(graph, data: dict) -> list[str]:
    """The state graph drawn in layers by breadth-first depth (the first MAX_DRAW states), each state
    labelled with its number (and its outcome's number at the end), a legend of the outcomes' colours."""
    drawn = list(range(data["drawn"]))
    layers: dict[int, list[int]] = defaultdict(list)
    for node in drawn:
        layers[graph.depth[node]].append(node)
    gap_x, gap_y, r = 34, 70, 8
    width = max(400, gap_x * (max(len(v) for v in layers.values()) + 1))
    height = gap_y * (max(layers) + 1) + 30
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
        fill = ("#ffffff" if not info["terminal"] else
                colour(info["outcome"]) if info["outcome"] is not None else "#999999")
        cls = "state violation" if info["violation"] else "state"
        x, y = pos[node]
        circles.append(f'<circle class="{cls}" data-node="{node}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" '
                       f'fill="{fill}"><title>#{node}: {_e(info["summary"])}</title></circle>')
        tag = f"#{node}" + (f" → {info['outcome'] + 1}" if info["terminal"] and info["outcome"] is not None else "")
        circles.append(f'<text class="label" data-node="{node}" x="{x:.1f}" y="{y + r + 10:.1f}">{_e(tag)}</text>')
    layers_drawn = graph.depth[data["drawn"] - 1] + 1
    note = (tr("all {n} states are drawn", n=graph.count) if data["drawn"] == graph.count else
            tr("only the first {k} layer{s}, {d} of {n} states, are drawn (at most {most})", k=layers_drawn,
               s="s" if layers_drawn > 1 else "", d=data["drawn"], n=graph.count, most=MAX_DRAW))
    embedded = ("" if data["embedded"] >= graph.count else
                tr("; the explorer below holds {k} of them (the first ones and every state on a listed trace)",
                   k=data["embedded"]))
    legend = "".join(f'<li><span class="swatch" style="background:{o["colour"]}"></span>'
                     f'{_e(tr("outcome {n}: {text}", n=i + 1, text=o["text"]))}</li>'
                     for i, o in enumerate(data["outcomes"]))
    return [f"<h2>{_e(tr('State graph'))}</h2>",
            '<p class="note" id="graph-note">' + _e(tr(
                "Layers by breadth-first depth; {note}{embedded}. Each state is labelled with its number, a terminal "
                "state with the outcome it ends in (#12 → 3) and filled with that outcome's colour (the legend below "
                "names them); red ring: where a violated check's trace ends; white: a state where someone chooses. "
                "Click a state to go there.", note=note, embedded=embedded)) + "</p>",
            f'<div class="svgbox"><svg id="graph" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
            *lines, *circles, "</svg></div>",
            f'<details class="legend" open><summary>{_e(tr("Outcome colours"))}</summary><ul class="legend">'
            f"{legend}</ul></details>"]
