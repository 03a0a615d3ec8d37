"""Engine conformance: an engine against a bundle, every state of every scenario run, the choices it offers,
the outcomes it reaches.

(Not to be confused with corpus agreement, rulings/agreement.py: the model's own traces against the
corpus statements, which `verify` reports under the JSON key `conformance`.)

For each scenario run of a bundle (dmcheck/engines/bundle.py) the engine is set up on the position and
driven along dmcheck's paths: every node of the shortest-path tree is reached by its shortest path
and asked which choices it offers; every other edge (two paths meeting in one state) is followed
once and the state it reaches is asked again; at every terminal state the engine's outcome is
compared with the rules'. Only choices the engine offered are applied. What differs is a finding with
the shortest dmcheck trace that exposes it:

- `missing_choice`: the rules offer a choice the engine does not;
- `extra_choice`: the engine offers a choice the rules do not;
- `forbidden_outcome`: at the end of a path the engine reports an outcome the rules do not give there;
- `unreached_outcome`: a legal outcome the engine reached at the end of none of its paths;
- `refused_choice`: the engine refused a choice it had offered;
- `crash`, `timeout`, `garbage`: the engine died, hung or answered out of protocol (the walk of that
  scenario stops there; the next one starts a fresh engine).

Choices are compared by player, kind, decision and `what` (docs/conform.md): cards a state's `copies`
group as interchangeable count as one (the lowest copies), and the order of a set-like choice's items
(the shields chosen, the cards discarded, the declarations) does not matter.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .identity import canonical
from .process import Engine, EngineFailure, handshake

OUTCOME_KEYS = ("winner", "loser", "attack_stopped", "turn_skipped", "blocked", "shields_broken", "shields",
                "hand", "battle", "graveyard", "mana", "deck_bottom", "uses")
KINDS = {
    "missing_choice": "The rules offer a choice the engine does not",
    "extra_choice": "The engine offers a choice the rules do not",
    "forbidden_outcome": "The engine ends a path with an outcome the rules do not give there",
    "unreached_outcome": "A legal outcome the engine never reaches",
    "refused_choice": "The engine refused a choice it had offered",
    "crash": "The engine process ended during a scenario",
    "timeout": "The engine did not answer within the timeout",
    "garbage": "The engine answered out of protocol",
}


@dataclass
class Finding:
    """One deviation of one scenario run: its kind, what differs, and the shortest path that shows it."""

    kind: str
    scenario: str            # the bundle entry's id
    subject: str             # what it is about: a choice's or an outcome's canonical form
    message: str
    key: str                 # the replay key of the dmcheck trace that exposes it
    steps: list[str]         # the text of each choice along it
    count: int = 1           # how many states show the same deviation
    detail: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.scenario}:{self.subject}"


@dataclass
class ScenarioResult:
    """What one scenario run gave: its status and findings, and how much of it was checked."""

    entry: dict
    status: str = "conforms"     # conforms, deviates, unsupported, failed
    reason: str = ""
    findings: list[Finding] = field(default_factory=list)
    nodes_checked: int = 0
    edges_followed: int = 0
    outcomes_compared: int = 0
    compared_keys: set = field(default_factory=set)


def parse_key(key: str) -> list[int]:
    return [] if key in ("-", "") else [int(p) for p in key.split("/")]


class Walk:
    """The walk of one scenario run against one engine session (see the module docstring)."""

    def __init__(self, entry: dict, cards: dict, engine: Engine):
        self.entry, self.cards, self.engine = entry, cards, engine
        self.nodes = entry["nodes"]
        self.result = ScenarioResult(entry)
        self.offered: dict[int, set[str]] = {}     # node -> canonical choices the engine offered there
        self.reached: set[int] = set()             # outcome indexes the engine ended a path with
        self.at: list[int] = []                    # the choices applied so far in this probe

    def run(self) -> ScenarioResult:
        for path, arrival in self._probes():
            if not self._probe(path, arrival):
                break
        self._unreached()
        if self.result.findings and self.result.status == "conforms":
            self.result.status = "deviates"
        return self.result

    def _setup(self) -> bool:
        e = self.entry
        used = set(e["position"]["cards"].values())
        answer = self.engine.ask({"type": "setup", "scenario": e["id"], "rules": e["rules"],
                                  "interpretation": e["interpretation"], "position": e["position"],
                                  "cards": {k: v for k, v in self.cards.items() if k in used}})
        if answer["type"] == "unsupported":
            self.result.status, self.result.reason = "unsupported", str(answer.get("reason", ""))
            return False
        return True

    def _probes(self) -> list[tuple[list[int], bool]]:
        """The paths to walk: to each leaf of the shortest-path tree, then along each other edge once
        (`arrival`: the state it reaches is checked again), shortest first."""
        keys = [parse_key(n["key"]) for n in self.nodes]
        inner: set[int] = set()    # nodes with a tree edge out of them
        probes = []
        for node, n in enumerate(self.nodes):
            for c in n["choices"]:
                to = c["to"]
                if to is None:
                    continue
                if keys[to] == keys[node] + [c["index"]]:
                    inner.add(node)          # a tree edge: its end is walked by its own probes
                else:
                    probes.append((keys[node] + [c["index"]], True))
        probes += [(keys[node], False) for node in range(len(self.nodes)) if node not in inner]
        return sorted(probes, key=lambda p: (len(p[0]), p[0], p[1]))


    def _probe(self, path: list[int], arrival: bool) -> bool:
        """One path from a fresh setup; False when the engine failed (the walk of this scenario ends)."""
        self.at = []
        try:
            if not self._setup():
                return False       # unsupported: nothing of this scenario can be checked
            node = 0
            for step, i in enumerate(path):
                if node not in self.offered:
                    self._check(node, path[:step])
                choice = self.nodes[node]["choices"][i]
                if canonical(choice, self.nodes[node].get("copies", [])) not in self.offered[node]:
                    return True     # the engine does not offer it: what lies beyond cannot be reached
                if not self._apply(choice, path[:step + 1]):
                    return True
                node = choice["to"]
                self.at.append(i)
                self.result.edges_followed += 1
            if node not in self.offered or arrival:
                self._check(node, path)
            return True
        except EngineFailure as exc:
            self._failed(exc, self.at)
            return False

    def _apply(self, choice: dict, path: list[int]) -> bool:
        answer = self.engine.ask({"type": "apply", "choice": {k: choice[k] for k in
                                                              ("index", "player", "kind", "decision", "what", "text")}})
        if answer["type"] == "refused":
            self._add("refused_choice", canonical(choice, []), f"the engine refused {choice['text']!r}, which it "
                      f"had offered ({answer.get('reason', 'no reason given')})", path)
            return False
        return True

    def _check(self, node: int, path: list[int]) -> None:
        """Ask the engine's choices here and compare; at a terminal state, its outcome too."""
        n = self.nodes[node]
        groups = n.get("copies", [])
        answer = self.engine.ask({"type": "choices"})
        offered = answer.get("choices")
        if not isinstance(offered, list) or not all(isinstance(c, dict) for c in offered):
            raise EngineFailure("garbage", "expected `choices`: a list of choice objects "
                                           "{player, kind, decision, what}")
        mine = {canonical(c, groups): c for c in offered}
        rules = {canonical(c, groups): c for c in n["choices"]}
        self.offered.setdefault(node, set()).update(mine)
        self.result.nodes_checked += 1
        for k, c in rules.items():
            if k not in mine:
                self._add("missing_choice", k, f"the rules offer {c['text']!r} ({c['player']}, {c['decision']}); "
                          "the engine does not", path + [c["index"]])
        for k, c in mine.items():
            if k not in rules:
                self._add("extra_choice", k, f"the engine offers {_describe(c)}, which the rules do not offer here",
                          path, {"engine_choice": c})
        if "outcome" in n:
            self._outcome(n, path)

    def _outcome(self, n: dict, path: list[int]) -> None:
        answer = self.engine.ask({"type": "state"})
        reported = answer.get("outcome")
        if not answer.get("terminal") or not isinstance(reported, dict):
            return   # an engine that goes on here offered choices: already an extra choice
        unknown = sorted(set(reported) - set(OUTCOME_KEYS) - {"loop"})
        if unknown:
            raise EngineFailure("garbage", f"expected outcome keys among {', '.join(OUTCOME_KEYS)}; got "
                                           f"{', '.join(unknown)}")
        rules = self.entry["outcomes"][n["outcome"]]["outcome"]
        differ = {k: {"engine": reported[k], "rules": rules[k]} for k in sorted(reported)
                  if k in rules and _norm(reported[k]) != _norm(rules[k])}
        self.result.outcomes_compared += 1
        self.result.compared_keys.update(k for k in reported if k in rules)
        if not differ:
            self.reached.add(n["outcome"])
            return
        legal = any(all(_norm(reported[k]) == _norm(o["outcome"].get(k)) for k in reported if k in o["outcome"])
                    for o in self.entry["outcomes"])
        shown = "; ".join(f"{k}: engine {v['engine']}, rules {v['rules']}" for k, v in differ.items())
        self._add("forbidden_outcome", json.dumps(differ, sort_keys=True, ensure_ascii=False),
                  f"the engine ends this path with {shown}" + ("" if legal else
                                                              " (no path of this scenario ends so)"),
                  path, {"engine": reported, "rules": rules, "legal_elsewhere": legal})

    def _unreached(self) -> None:
        if self.result.status not in ("conforms", "deviates") or not self.result.outcomes_compared:
            return
        for i, o in enumerate(self.entry["outcomes"]):
            if i not in self.reached and not o["outcome"].get("loop"):
                self._add("unreached_outcome", json.dumps(o["outcome"], sort_keys=True, ensure_ascii=False),
                          "the engine never ends a path with this legal outcome: " + _brief(o["outcome"]),
                          parse_key(o["key"]))

    def _failed(self, exc: EngineFailure, path: list[int]) -> None:
        self.result.status, self.result.reason = "failed", str(exc)
        self._add(exc.kind, exc.kind, str(exc), path)

    def _add(self, kind: str, subject: str, message: str, path: list[int], detail: dict | None = None) -> None:
        """Record a finding, or count it again on a finding of the same subject (keeping the shortest path)."""
        key = "/".join(map(str, path)) or "-"
        steps = self._texts(path)
        for f in self.result.findings:
            if (f.kind, f.subject) == (kind, subject):
                f.count += 1
                if (len(path), key) < (len(parse_key(f.key)), f.key):
                    f.key, f.steps, f.message, f.detail = key, steps, message, detail or {}
                return
        self.result.findings.append(Finding(kind, self.entry["id"], subject, message, key, steps, 1, detail or {}))

    def _texts(self, path: list[int]) -> list[str]:
        out, node = [], 0
        for i in path:
            if node is None:
                break
            choice = self.nodes[node]["choices"][i]
            out.append(choice["text"])
            node = choice["to"]
        return out


def _norm(value: Any) -> Any:
    """Multisets compare as sorted lists; dicts by key."""
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return sorted(_norm(v) for v in value)
    return value


def _brief(o: dict) -> str:
    parts = [f"winner {o.get('winner')}", f"shields broken {o.get('shields_broken')}"]
    for flag in ("attack_stopped", "turn_skipped", "blocked"):
        if o.get(flag):
            parts.append(flag.replace("_", " "))
    if o.get("shields"):
        parts.append("shields left " + ", ".join(f"{p}:{n}" for p, n in sorted(o["shields"].items())))
    return "; ".join(parts)


def _describe(c: dict) -> str:
    text = c.get("text")
    if isinstance(text, str) and text:
        return repr(text)
    return json.dumps({k: c.get(k) for k in ("player", "kind", "decision", "what")}, ensure_ascii=False)


@dataclass
class EngineReport:
    """An engine against a bundle: who it said it was, each scenario run's result, and why the runs
    stopped early (`stopped`, with the ids of the runs not checked) when --maxfail stopped them."""

    engine: dict
    results: list[ScenarioResult]
    stopped: str = ""
    not_checked: list[str] = field(default_factory=list)

    def findings(self) -> list[Finding]:
        return [f for r in self.results for f in r.findings]

    def exit_code(self) -> int:
        if self.findings():
            return 1
        if self.stopped or any(r.status != "conforms" or not r.entry["complete"] for r in self.results):
            return 3
        return 0


@dataclass(frozen=True)
class _Limits:
    timeout: float
    budget: float | None
    maxfail: int | None


def check_engine(command: str, data: dict, *, timeout: float = 10.0, only: Callable[[dict], bool] | None = None,
                 log: Callable[[str, str], None] | None = None, budget: float | None = None,
                 maxfail: int | None = None,
                 progress: Callable[[dict, ScenarioResult], None] | None = None) -> EngineReport:
    """Run the engine `command` against a bundle (dmcheck.read_bundle or dmcheck.export_bundle).
    EngineFailure at the handshake (the engine does not start or speaks another protocol) is raised;
    every later failure is a finding of the scenario it happened in, and the next run starts a fresh
    engine. `timeout`: seconds for each answer; `budget`: seconds for a whole scenario run (None: none);
    `maxfail`: stop after that many runs with findings (None: never). `progress(hello, result)` is told
    each run as it ends. Every engine process started is ended (its whole process group) before this
    returns or raises, Ctrl-C included."""
    limits = _Limits(timeout, budget, maxfail)
    entries = [e for e in data["scenarios"] if only is None or only(e)]
    engine = Engine(command, limits.timeout, log)
    try:
        hello = handshake(engine)
    except BaseException:
        engine.close(graceful=False)
        raise
    report = EngineReport({k: v for k, v in hello.items() if k != "type"}, [])
    healthy = False
    try:
        for n, entry in enumerate(entries):
            failing = sum(r.status in ("deviates", "failed") for r in report.results)
            if limits.maxfail is not None and failing >= limits.maxfail:
                report.stopped = f"--maxfail {limits.maxfail}: stopped after {failing} scenario runs with findings"
                report.not_checked = [e["id"] for e in entries[n:]]
                break
            engine, result = _one(engine, entry, data["cards"], command, limits, log)
            report.results.append(result)
            if progress is not None:
                progress(report.engine, result)
        healthy = engine.proc.poll() is None and not (report.results and report.results[-1].status == "failed")
    finally:
        engine.close(graceful=healthy)   # also on Ctrl-C: the engine runs in its own session and would outlive us
    return report


def _one(engine: Engine, entry: dict, cards: dict, command: str, limits: _Limits,
         log: Callable[[str, str], None] | None) -> tuple[Engine, ScenarioResult]:
    """One scenario run within its budget, on the engine, or on a fresh one when the engine died, hung or
    failed in the run before (that one is ended first, its whole group)."""
    if engine.proc.poll() is not None or engine.failed:
        engine.close(graceful=False)
        engine = Engine(command, limits.timeout, log)
        engine.begin(limits.budget)
        try:
            handshake(engine)
        except EngineFailure as exc:
            engine.failed = True
            return engine, _failed_start(entry, exc)
    engine.begin(limits.budget)
    try:
        result = Walk(entry, cards, engine).run()
    except EngineFailure as exc:
        result = _failed_start(entry, exc)
    engine.failed = result.status == "failed"
    if engine.failed:
        engine.kill()      # hung or out of protocol: ended now, not after a budget's worth of waiting
    return engine, result


def _failed_start(entry: dict, exc: EngineFailure) -> ScenarioResult:
    result = ScenarioResult(entry, "failed", str(exc))
    result.findings.append(Finding(exc.kind if exc.kind in KINDS else "garbage", entry["id"], exc.kind, str(exc),
                                   "-", []))
    return result
