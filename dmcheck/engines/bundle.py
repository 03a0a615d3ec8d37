"""Conformance bundles: what an engine must do in each scenario, as data an engine's tests can read.

A bundle holds, per scenario run (a scenario file under one rules version): the position, every
state of the unreduced search (`reduce=False`: every choice an engine must offer, every order of
waiting effects) with its legal choices labelled by what they do and the state each leads to, every
legal outcome with a shortest path to it, and the rulings of the corpus that name the scenario.
Every non-terminal state is a decision point: the model stops only where somebody chooses, and a
state with one legal choice still tells an engine that it must offer that one and no other.

A bundle is stable: entries sorted by id, nodes in breadth-first order, keys sorted, no times and no
absolute paths, so the same dmcheck writes the same bytes on any machine and under any `--jobs`.
Its JSON Schema is dmcheck/engines/schemas/bundle-1.schema.json (docs/conform.md).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from dmcheck.model.errors import InputError
from dmcheck.model.readings import CHOICES
from dmcheck.rulings.corpus import BUILTIN, Corpus, builtin_corpus

from .. import api, views
from .identity import same_data, told_apart

BUNDLE_VERSION = 1
SCHEMA_FILE = f"bundle-{BUNDLE_VERSION}.schema.json"
ROOT = BUILTIN.parent     # the built-in scenarios: a file below it is named relative to it


@dataclass(frozen=True)
class Run:
    """One scenario file under one rules date (None: the file's own), and the statements it stands for."""

    path: str
    rules: str | None = None


def corpus_runs(corpus: Corpus | None = None) -> list[Run]:
    """Every (scenario, rules version) the corpus's statements run: a statement runs its scenarios
    under the rules of its date (or its `rules:`), which need not be the scenario file's own."""
    corpus = corpus or builtin_corpus()
    seen: set[tuple[str, str | None]] = set()
    for s in corpus.statements:
        version = s.run_version()
        for p in s.scenarios:
            seen.add((str(p), version.date.isoformat() if version else None))
    return [Run(p, r) for p, r in sorted(seen, key=lambda t: (t[0], t[1] or ""))]


def name_of(path: str | Path) -> str:
    """How a bundle names a scenario file: below the built-in scenarios relative to them, else
    relative to the working directory when below it, else by its file name (never absolute)."""
    p = Path(path).resolve()
    for base in (ROOT.resolve(), Path.cwd().resolve()):
        if p.is_relative_to(base):
            return p.relative_to(base).as_posix()
    return p.name


def path_of(name: str) -> Path:
    """The file a bundle's scenario name stands for here (`name_of` the other way): below the built-in
    scenarios when it is one of them, else the name as written (relative to the working directory)."""
    return ROOT / name if (ROOT / name).is_file() else Path(name)


def rulings_for(scenario: api.Scenario, corpus: Corpus) -> list[dict[str, Any]]:
    """The corpus statements that name this scenario file, each with the rules date it runs the
    scenario under (a statement runs its scenarios under the rules of its own date, or its `rules:`)."""
    here = Path(scenario.file).resolve()
    out = []
    for s in corpus.statements:
        if here in s.scenarios:
            version = s.run_version()
            out.append({"ref": s.ref, "id": s.id, "source": s.source,
                        "date": s.date.isoformat() if s.date else None, "text": s.text,
                        "rules": version.date.isoformat() if version else scenario.rules})
    return sorted(out, key=lambda r: r["ref"])


def entry(scenario: api.Scenario, corpus: Corpus, limits: dict | None = None) -> dict[str, Any]:
    """One scenario run as bundle data (see the module docstring)."""
    graph = api.explore(scenario, reduce=False, **(limits or {}))
    model, g = graph._model, graph._graph
    name = name_of(scenario.file)
    outcomes = graph.outcomes()
    index = {json.dumps(o.outcome, sort_keys=True): i for i, o in enumerate(outcomes)}
    verdicts = graph.verdicts()
    defaults = {c.name: c.default for c in CHOICES}
    return {
        "id": f"{name}@{scenario.rules}",
        "file": name, "name": scenario.name, "source": list(scenario.source),
        "rules": scenario.rules, "rules_name": scenario.rules_name,
        "interpretation": scenario.interpretation,
        "default_readings": scenario.interpretation == defaults,
        "position": _position(scenario.position, graph.choices(0)),
        "rulings": [dict(r, holds=all(v.verdict == "holds" for v in verdicts) if r["rules"] == scenario.rules
                         else None) for r in rulings_for(scenario, corpus)],
        "expect": [{"expect": v.expect, "verdict": v.verdict} for v in verdicts],
        "complete": graph.complete, "reason": graph.reason,
        "states": graph.states, "transitions": graph.transitions,
        "nodes": [_node(model, g, node, index, scenario.position["zones"]) for node in graph.nodes()],
        "outcomes": [{"outcome": o.outcome, "count": o.count, "node": o.node, "key": o.key,
                      "path": [s.choice.text for s in graph.trace(o.node)]} for o in outcomes],
    }


def _position(position: dict, first: list) -> dict:
    """The position with each label mapped to its pool id only (names and owners are elsewhere), and
    whether the attack's declaration is a choice of its own (`choice`: something can happen at it, a
    blocker, an attack trigger, a declaration window), made with the position (`automatic`: the
    model folds it into the first step, so the first choices are those after it), or the first choice
    itself (`chosen`: the position names no attack; the turn player picks one, or none)."""
    kinds = {c.kind for c in first}
    declaration = "choice" if "declare_attack" in kinds else "chosen" if kinds & {"choose_attack", "no_attack"} \
        else "automatic"
    return dict(position, cards={label: c["card"] for label, c in position["cards"].items()}, declaration=declaration)


def _node(model: Any, g: Any, node: int, index: dict, start: dict) -> dict[str, Any]:
    """One state: its key, the state as data (`zones`: only those that differ from the position's),
    each legal choice with the node it leads to (null when the search did not store it: a loop's
    repeat, a limit) and the events it makes happen, the groups of interchangeable cards its choices
    name, its outcome when terminal."""
    s = g.state(node)
    edges = {i: (succ, events) for i, succ, events in g.successors(node)}
    actions = model.actions(s)
    full = views.state(model, s)
    state = {k: v for k, v in full.items() if v and k not in ("attacker", "running")}
    state["zones"] = _changed(full["zones"], start)
    out: dict[str, Any] = {"key": g.key(node), "state": state, "choices": []}
    named: set[str] = set()
    for i, a in enumerate(actions):
        label = views.choice(model, s, i, a)
        named.update(label.pop("cards"))
        succ, events = edges.get(i) or (None, model.step(s, a)[1])
        out["choices"].append(dict(label, to=succ, events=[e.to_json() for e in events]))
    groups = [group for group in views.copies(model, s) if named.intersection(group)] if actions else []
    groups = told_apart(out["choices"], groups)
    if groups:
        out["copies"] = groups
    if model.is_terminal(s):
        out["outcome"] = index[json.dumps(model.outcome(s), sort_keys=True)]
    return out


def check_distinct(entry: dict[str, Any], file: str) -> None:
    """Every legal choice of every state told apart by its data (player, kind, decision, `what`), never
    by its text alone: an engine answers with data, so two choices of equal data would be one to it.
    InputError naming the state and both choices otherwise (a scenario dmcheck cannot export faithfully)."""
    for node in entry["nodes"]:
        for a, b in same_data(node["choices"], node.get("copies", [])):
            raise InputError(file, None, f"{entry['id']}, state {node['key']}",
                             f"choices {a['index']} ({a['text']!r}) and {b['index']} ({b['text']!r}) have the same "
                             "data (player, kind, decision, what), so no engine can tell them apart; the bundle "
                             "is not written (a dmcheck limit: please report it with this scenario)")


def _changed(zones: dict, start: dict) -> dict:
    """Per player, the zones (and marks, links) that differ from the position's; [] for one emptied."""
    out = {}
    for player in sorted(set(zones) | set(start)):
        now, then = zones.get(player, {}), start.get(player, {})
        diff = {k: now.get(k, []) for k in sorted(set(now) | set(then)) if now.get(k, []) != then.get(k, [])}
        if diff:
            out[player] = diff
    return out


def export_bundle(runs: Sequence[Run | str], *, rules: str | None = None, interpretation: dict | None = None,
                  limits: dict | None = None, jobs: int = 1, workers: Any = None) -> dict[str, Any]:
    """The bundle of these scenario runs (a path is a run under the file's own rules). Every scenario
    is loaded first, so a bad file stops the export before any search (InputError); then each run is
    explored, by `workers(function, items, jobs)` when given (dmcheck.cli.workers.ordered: forked worker
    processes, which inherit what is loaded, the results in order); a run whose worker died (anything but
    an entry comes back) is explored here. The bytes are the same whatever the number of processes."""
    plan = [r if isinstance(r, Run) else Run(str(r)) for r in runs]
    scenarios = [api.load(r.path, rules=rules or r.rules, interpretation=interpretation) for r in plan]
    unique = list({name_of(sc.file) + "@" + sc.rules: sc for sc in scenarios}.values())   # --rules: two runs may be one
    _WORK[:] = [unique, builtin_corpus(), limits]
    try:
        if workers is None or jobs < 2 or len(unique) < 2:
            entries = [_entry_job(i) for i in range(len(unique))]
        else:
            mapped = workers(_entry_job, range(len(unique)), min(jobs, len(unique)))
            try:
                entries = [e if isinstance(e, dict) else _entry_job(i) for i, e in enumerate(mapped)]
            finally:
                mapped.close()
    finally:
        _WORK.clear()
    for sc, e in zip(unique, entries, strict=True):
        check_distinct(e, str(sc.file))
    cards = {cid: card for sc in unique for cid, card in sc.cards.items()}
    return bundle(entries, cards)


_WORK: list = []   # what the runs of one export share: the scenarios, the corpus, the limits


def _entry_job(i: int) -> dict[str, Any]:
    """One run explored (in a forked worker process under --jobs, which inherits _WORK)."""
    scenarios, corpus, limits = _WORK
    return entry(scenarios[i], corpus, limits)


def split(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """One bundle per scenario run, each with the cards it uses: relative file name -> bundle."""
    out = {}
    for e in data["scenarios"]:
        used = set(e["position"]["cards"].values())
        stem, _, day = e["id"].rpartition("@")
        name = f"{stem.removesuffix('.yaml')}@{day}.json"
        out[name] = bundle([e], {k: v for k, v in data["cards"].items() if k in used})
    return out


def bundle(entries: list[dict[str, Any]], cards: dict[str, dict]) -> dict[str, Any]:
    """The whole bundle: its version, the dmcheck that wrote it, the cards, the entries sorted by id."""
    return {"bundle_version": BUNDLE_VERSION, "protocol_version": 1, "dmcheck": version(),
            "cards": dict(sorted(cards.items())), "scenarios": sorted(entries, key=lambda e: e["id"])}


def version() -> str:
    try:
        return metadata.version("dmcheck-rules")
    except metadata.PackageNotFoundError:
        return "unknown"


def dumps(data: dict[str, Any]) -> str:
    """The bytes a bundle is written as: compact, keys sorted, one trailing newline."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def schema() -> dict[str, Any]:
    from importlib.resources import files
    return json.loads((files("dmcheck.engines") / "schemas" / SCHEMA_FILE).read_text("utf-8"))


def read_bundle(path: str) -> dict[str, Any]:
    """A bundle file checked against its schema; InputError (with what was expected) when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(path, None, "--bundle", "file not found; write one with dmcheck export") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, None, "--bundle", f"cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, exc.lineno, "(top)", f"expected a JSON bundle written by dmcheck export: "
                                                    f"{exc.msg}") from None
    if not isinstance(data, dict) or data.get("bundle_version") != BUNDLE_VERSION:
        got = data.get("bundle_version") if isinstance(data, dict) else None
        # a file of another kind is not quoted (it may be any file); another bundle version is named
        said = f"got {got}" if isinstance(got, int) and not isinstance(got, bool) else "the file is not one"
        raise InputError(path, None, "bundle_version", f"expected {BUNDLE_VERSION} (a bundle written by this "
                                                       f"dmcheck's export); {said}")
    _validate(path, data)
    _check_links(path, data)
    return data


def _check_links(path: str, data: dict) -> None:
    """What a bundle's parts refer to exists (the schema checks each part alone): each choice's `index` is
    its place in its list and its `to` a node of its scenario (or null), each node's and outcome's `key`
    the path of choices leading to it from the first node, each `outcome` an outcome of the scenario. A
    bundle edited by hand or cut short is refused at the place, before an engine is started."""
    for s, entry in enumerate(data["scenarios"]):
        _check_entry(path, s, entry)


def _check_entry(path: str, s: int, entry: dict) -> None:
    """One scenario run's references (see _check_links)."""
    nodes, outcomes = entry["nodes"], entry["outcomes"]

    def fail(at: str, expected: str) -> InputError:
        return InputError(path, None, f"scenarios/{s}/{at}", f"expected {expected}")
    if not nodes:
        raise fail("nodes", "at least the scenario's first state")
    for i, node in enumerate(nodes):
        for j, choice in enumerate(node["choices"]):
            if choice["index"] != j:
                raise fail(f"nodes/{i}/choices/{j}/index", f"{j}, the choice's place in its list")
            if choice["to"] is not None and not 0 <= choice["to"] < len(nodes):
                raise fail(f"nodes/{i}/choices/{j}/to", f"a node of this scenario (0 to {len(nodes) - 1}) or null")
        if "outcome" in node and not 0 <= node["outcome"] < len(outcomes):
            raise fail(f"nodes/{i}/outcome", f"an outcome of this scenario (0 to {len(outcomes) - 1})")
        if _walk(nodes, node["key"]) != i:
            raise fail(f"nodes/{i}/key", "the path of choices from the first node to this one")
    for i, outcome in enumerate(outcomes):
        if not 0 <= outcome["node"] < len(nodes) or _walk(nodes, outcome["key"]) != outcome["node"]:
            raise fail(f"outcomes/{i}", "`node` a node of this scenario and `key` the path to it")


def _walk(nodes: list, key: str) -> int | None:
    """The node a key (`0/2/1`, `-` for the first) leads to, or None when it leads nowhere."""
    node = 0
    for part in ([] if key in ("-", "") else key.split("/")):
        choices = nodes[node]["choices"]
        if not part.isdigit() or int(part) >= len(choices) or choices[int(part)]["to"] is None:
            return None
        node = choices[int(part)]["to"]
    return node


def _expected(error: Any) -> str:
    """What the schema wanted at the place, without quoting the file (jsonschema's message quotes values)."""
    if error.validator == "type":
        return f"a value of type {error.validator_value}"
    if error.validator == "required":
        return "the keys " + ", ".join(map(str, error.validator_value))
    if error.validator in ("enum", "const"):
        return "one of " + ", ".join(map(repr, error.validator_value if error.validator == "enum"
                                          else [error.validator_value]))
    return f"what {SCHEMA_FILE} says of it ({error.validator}: {str(error.validator_value)[:80]})"


def _validate(path: str, data: dict) -> None:
    import jsonschema
    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        raise InputError(path, None, where, f"does not follow {SCHEMA_FILE}: expected {_expected(e)}")
