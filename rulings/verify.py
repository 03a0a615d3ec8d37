"""The main job of dmcheck: check the whole rulings corpus against itself and against the model.

`verify` loads the built-in corpus (plus any rulings files a user brings), then:
1. runs every ruling's scenarios under every combination of interpretation readings, in the rules
   version in force on the ruling's date (readings.py): which rulings hold under the default
   readings, which readings satisfy the most, and which sets of rulings no reading satisfies;
2. checks the ordering constraints of each rules version with Z3 (consistency.py): every minimal
   set of statements that cannot hold together, and a witness order;
3. checks the model's traces against those constraints, and the witness orders against the
   model's traces (conformance.py);
4. checks the built-in rules properties of `dmcheck check` on every scenario it ran.
It returns one `Report`; dmcheck/verify.py prints it. Nothing here prints. With worker processes
(`--jobs N`) the same work is shared out as farm.py describes.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any, Callable
import math
from dataclasses import dataclass, field

from explorer.limits import Limits
from model.rules import RulesVersion, timeline, version_on

from . import conformance as conformance_mod
from . import consistency
from .farm import Farm, Helper
from .findings import Finding
from .findings import findings as findings_of
from .corpus import Corpus, Statement, builtin_corpus, check_sources, load_corpus
from properties.milestones import Groups, occurrences
from properties.verdict import VIOLATED
from .readings import Combo, Operational, Run, Runner, as_dict, default_combo, solve, tabulate

OK, FINDING, INCONCLUSIVE = 0, 1, 3


@dataclass
class PropertyRun:
    run: Run
    result: object   # properties.checker.CheckResult


@dataclass
class Played:
    """How one member of a declarative conflict plays out: a trace of the model violating it."""

    ref: str
    run: Run
    groups: Groups
    path: list


@dataclass
class Report:
    corpus: Corpus
    versions: list[RulesVersion]
    rules: dt.date | None
    operational: Operational
    declarative: consistency.Declarative
    conformance: conformance_mod.Conformance
    properties: list[PropertyRun]
    played: dict[tuple[str, ...], list[Played]]
    runner: Runner
    seconds: float = 0.0
    solver_seconds: float = 0.0
    extra_files: tuple[str, ...] = ()
    not_finished: list[str] = field(default_factory=list)   # what the time limit left undone, by name
    _findings: list[Finding] | None = field(default=None, repr=False, compare=False)

    # ---- what was found ------------------------------------------------------------------------
    def failing(self) -> list[Statement]:
        return [s for s in self.operational.rulings if self.operational.default(s.ref).verdict == VIOLATED]

    def unsure(self) -> list[Statement]:
        return [s for s in self.operational.rulings if self.operational.default(s.ref).verdict == "inconclusive"]

    def property_counts(self) -> dict[str, int]:
        counts = {"holds": 0, "violated": 0, "inconclusive": 0, "no example": 0, "not_applicable": 0}
        for p in self.properties:
            for v in p.result.verdicts:
                counts[v.verdict] += 1
            counts["not_applicable"] += len(p.result.not_applicable)
        return counts

    def finding_list(self) -> list[Finding]:
        """Every finding, each once (rulings/findings.py): what every output counts."""
        if self._findings is None:
            self._findings = findings_of(self)
        return self._findings

    def findings(self) -> int:
        return len(self.finding_list())

    def complete(self) -> bool:
        return (not self.not_finished and self.operational.complete and self.declarative.complete and self.conformance.complete
                and not self.unsure() and self.property_counts()["inconclusive"] == 0
                and all(w.verdict == "sat" for w in self.declarative.witnesses))

    def exit_code(self) -> int:
        if self.findings():
            return FINDING
        return OK if self.complete() else INCONCLUSIVE

    def scenario_files(self) -> list:
        return sorted({p for s in self.corpus.statements for p in s.scenarios})

    def states(self) -> int:
        return sum(len(r.graph.states) for r in self.runner.runs())


def load(extra: list[str]) -> Corpus:
    """The built-in corpus with the statements of each extra rulings file added."""
    corpus = builtin_corpus()
    for file in extra:
        corpus = corpus.merged(load_corpus(file))
    check_sources(corpus)
    return corpus


def verify(extra: list[str] | tuple[str, ...] = (), rules: dt.date | None = None, limits: Limits = Limits(),
           properties: bool = True, progress: Callable[[str], None] | None = None,
           workers: Callable[[int], Any] | None = None, jobs: int = 1, deadline: float = math.inf) -> Report:
    """The whole job; `progress`, if given, is told each phase and exploration as it starts.

    `workers(n)`, if given with `jobs` > 1, makes a pool of n processes (multiprocessing, fork start
    method): a helper forked first loads the scenarios and answers the declarative consistency, and
    once every run is explored a pool of `jobs` processes checks each run (conformance, properties)
    while this process asks Z3 about the readings (farm.py). Results come back in a fixed order, so
    the report is the one made without them.

    `deadline` (time.monotonic) is when the work must end: a ruling not run by then, and each phase
    not begun by then, is named in the report's `not_finished`; what was finished is reported.
    """
    tell = progress or (lambda text: None)
    start = time.perf_counter()
    helper = Helper(workers) if workers is not None and jobs > 1 else None
    farm = None
    skipped: list[str] = []

    def begin(phase: str) -> bool:
        if time.monotonic() > deadline:
            skipped.append(phase)
            return False
        tell(phase)
        return True
    try:
        corpus = load(list(extra))
        versions = [version_on(rules)] if rules else list(timeline())
        runner = Runner(limits, progress)
        default = default_combo()
        if helper is not None:
            helper.start(corpus, versions)
            runner.loaded = helper.scenario
        table = tabulate(runner, corpus, rules, deadline)
        if helper is not None:
            farm = Farm(workers, jobs, corpus, runner.runs(), default, properties)
        operational = solve(table, start) if begin("best readings (Z3)") else table
        declarative = consistency.Declarative(complete=False, reason="not finished: the time limit came first")
        if begin("declarative consistency (Z3)"):
            declarative = helper.declarative() if helper is not None else consistency.check(corpus, versions)
        conf = conformance_mod.Conformance(complete=False, reason="not finished: the time limit came first")
        if begin("conformance"):
            by_name = {v.name: v for v in versions}
            sound = farm.sound() if farm is not None else None
            conf = conformance_mod.check(corpus, runner.runs(), declarative.witnesses, by_name, default, sound)
        props: list[PropertyRun] = []
        if properties and begin("rules properties"):
            props = ([PropertyRun(run, found) for run, found in farm.properties()] if farm is not None
                     else _properties(runner.runs(), default, deadline))
    except BaseException:
        for pool in (farm, helper):
            if pool is not None:
                pool.terminate()    # Ctrl-C, the time budget, bad input: end the work under way
        raise
    for pool in (farm, helper):
        if pool is not None:
            if skipped:
                pool.terminate()    # a phase the time limit skipped leaves work to drop
            else:
                pool.close()
    played = {c.refs: _played(corpus, c, runner.runs(), default) for c in declarative.conflicts}
    report = Report(corpus, versions, rules, operational, declarative, conf, props, played, runner,
                    extra_files=tuple(extra), not_finished=[f"ruling {ref}" for ref in table.unfinished] + skipped)
    report.solver_seconds = (operational.solver_seconds + declarative.seconds
                             + sum(sum(v.counts.seconds for v in p.result.verdicts) for p in props))
    report.seconds = time.perf_counter() - start
    return report


def _properties(runs: list[Run], default: Combo, deadline: float = math.inf) -> list[PropertyRun]:
    """The built-in properties on every run of the default readings, here (a run checked after the
    deadline has its properties inconclusive)."""
    from properties.builtin import BUILTIN
    from properties.checker import QUERY_TIMEOUT_MS
    from properties.checker import check as check_properties
    return [PropertyRun(run, check_properties(run.graph, BUILTIN, QUERY_TIMEOUT_MS, deadline))
            for run in runs if default in run.served]


def _played(corpus: Corpus, conflict: consistency.Conflict, runs: list[Run], default: Combo) -> list[Played]:
    """For each member of a declarative conflict, the shortest trace of the model (default readings,
    a version where the conflict arises) that breaks the member's own constraints, if any does."""
    out = []
    readings = dict(as_dict(default), **dict(conflict.readings))
    for ref in conflict.refs:
        statement = corpus.get(ref)
        if statement is None:
            continue
        constraints = statement.constraints(readings)
        hit = None
        for run in runs:
            if run.version.name not in conflict.versions or default not in run.served:
                continue
            for groups, path in run.orders().paths.items():
                occ = occurrences(groups)
                if any(not conformance_mod.satisfied(c, occ) for c in constraints):
                    if hit is None or len(path) < len(hit.path):
                        hit = Played(ref, run, groups, path)
                    break
        if hit is not None:
            out.append(hit)
    return out
