"""The main job of dmcheck: check the whole rulings corpus against itself and against the model.

`verify` loads the built-in corpus (plus any rulings files a user brings), then:
1. runs every ruling's scenarios under every combination of readings, in the rules
   version in force on the ruling's date (operational.py): which rulings hold under the default
   readings, which readings satisfy the most, and which sets of rulings no reading satisfies;
2. checks the ordering constraints of each rules version with Z3 (consistency.py): every minimal
   set of statements that cannot hold together, and a witness order;
3. checks the model's traces against those constraints, and the witness orders against the
   model's traces (corpus agreement, agreement.py);
4. checks the built-in rules properties of `dmcheck check` on every scenario it ran.
It returns one `Report`; dmcheck/commands/verify.py prints it. Nothing here prints. With worker processes
(`--jobs N`) the same work is shared out as farm.py describes.
"""

from __future__ import annotations

import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..explorer.limits import DEFAULT_LIMITS, Limits
from ..model.errors import Mistakes
from ..model.rules import RulesVersion, timeline, version_on
from ..model.scenario_file import load_scenario
from ..properties.milestones import Groups, occurrences
from ..properties.verdict import VIOLATED
from . import agreement as agreement_mod
from . import consistency
from .cache import write_all
from .corpus import Corpus, Statement, builtin_corpus, check_sources, load_corpus
from .farm import Farm, Helper, Late, Lost
from .findings import Finding
from .findings import findings as findings_of
from .operational import Combo, Operational, Row, Run, Runner, as_dict, default_combo, solve, tabulate

if TYPE_CHECKING:
    from ..properties.checker import CheckResult

OK, FINDING, INCONCLUSIVE = 0, 1, 3


@dataclass
class PropertyRun:
    run: Run
    result: CheckResult


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
    agreement: agreement_mod.Agreement
    properties: list[PropertyRun]
    played: dict[tuple[str, ...], list[Played]]
    runner: Runner
    seconds: float = 0.0
    solver_seconds: float = 0.0
    extra_files: tuple[str, ...] = ()
    not_finished: list[str] = field(default_factory=list)   # what the time limit left undone, by name
    redone: list[str] = field(default_factory=list)   # what a worker process that died left to the main one
    only: Any = None        # `verify --only`: what was asked and what the result cache gave (rulings/only.py)
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
        return (not self.not_finished and self.operational.complete and self.declarative.complete
                and self.agreement.complete
                and not self.unsure() and self.property_counts()["inconclusive"] == 0
                and all(w.verdict == "sat" for w in self.declarative.witnesses))

    def exit_code(self) -> int:
        if self.not_finished:   # a stopped run first, as for a stopped search (dmcheck/cli/exits.py)
            return INCONCLUSIVE
        if self.findings():
            return FINDING
        return OK if self.complete() else INCONCLUSIVE

    def scenario_files(self) -> list:
        return sorted({p for s in self.corpus.statements for p in s.scenarios
                       if self.only is None or s.ref in self.only.refs})

    def states(self) -> int:
        return sum(len(r.graph.states) for r in self.runner.runs())


def load(extra: list[str]) -> Corpus:
    """The built-in corpus with the statements of each extra rulings file added; the scenarios the extra
    files name are read now, so that a mistake in one is refused before any work (not after the
    built-in corpus has been explored)."""
    corpus = builtin_corpus()
    mistakes = Mistakes()
    for file in extra:
        added = mistakes.check(load_corpus, file)
        if added is None:
            continue
        for path in sorted({p for s in added.statements for p in s.scenarios}):
            mistakes.check(load_scenario, path)
        corpus = mistakes.check(corpus.merged, added) or corpus
    if not mistakes:
        mistakes.check(check_sources, corpus)
    mistakes.raise_all()    # every file's mistakes, file by file
    return corpus


_Z3 = "best readings and operational contradictions (Z3)"
_DECLARATIVE = "declarative consistency (Z3)"
# what a run stopped before its corpus was read has not finished: everything
EVERYTHING = ("reading the corpus", "the rulings", _Z3, _DECLARATIVE, "conformance", "rules properties")


class Sofar:
    """What a verify run has finished, kept as it goes: when Ctrl-C or the time budget's watchdog stops it
    in the middle (an exception, not a return), `report()` makes the Report of what was finished — the
    rulings run, with their verdicts; the phases done, with the contradictions they found — naming every
    ruling and phase not finished. Never an empty `not_finished` for a run that did not finish."""

    def __init__(self) -> None:
        self.job: _Job | None = None
        self.rules: dt.date | None = None
        self.extra: tuple[str, ...] = ()
        self.rows: dict[str, Row] = {}             # ruling ref -> its verdicts per reading (operational.py Row)
        self.operational: Operational | None = None
        self.declarative: consistency.Declarative | None = None
        self.agreement: agreement_mod.Agreement | None = None
        self.properties: list[PropertyRun] | None = None
        self.checks_properties = True

    def report(self) -> Report | None:
        """The report of what was finished (None before the corpus was read)."""
        job = self.job
        if job is None or job.corpus is None or job.runner is None:
            return None
        corpus, runner = job.corpus, job.runner
        op = self.operational or self._rulings_run(corpus, runner)
        declarative = self.declarative or consistency.Declarative(complete=False, reason=_STOPPED)
        phases: list[tuple[Any, str]] = [(self.operational, _Z3), (self.declarative, _DECLARATIVE),
                                         (self.agreement, "conformance")]
        phases += [(self.properties, "rules properties")] if self.checks_properties else []
        played = {c.refs: _played(corpus, c, runner.runs(), job.default) for c in declarative.conflicts}
        return Report(corpus, job.versions, self.rules, op, declarative,
                      self.agreement or agreement_mod.Agreement(complete=False, reason=_STOPPED),
                      self.properties or [], played, runner, extra_files=self.extra,
                      not_finished=[f"ruling {ref}" for ref in op.unfinished] + [n for v, n in phases if v is None])

    def _rulings_run(self, corpus: Corpus, runner: Runner) -> Operational:
        """The rulings tabulated before the stop, with their verdicts (Z3 not asked about the readings)."""
        rulings = [s for s in corpus.statements if s.scenarios]
        done = [s for s in rulings if s.ref in self.rows]
        op = Operational(done, {s.ref: self.rows[s.ref] for s in done},
                         depends={s.ref: runner.consulted(s, self.rules) for s in done})
        op.unfinished = [s.ref for s in rulings if s.ref not in self.rows]
        op.complete, op.reason = False, _STOPPED
        return op


_STOPPED = "not finished: the run was stopped first"


def verify(extra: list[str] | tuple[str, ...] = (), rules: dt.date | None = None, limits: Limits = DEFAULT_LIMITS,
           properties: bool = True, progress: Callable[[str], None] | None = None,
           workers: Callable[[int], Any] | None = None, jobs: int = 1, deadline: float = math.inf,
           sofar: Sofar | None = None, cache: bool = True) -> Report:
    """The whole job; `progress`, if given, is told each phase and exploration as it starts.

    `workers(n)`, if given with `jobs` > 1, makes a pool of n processes (multiprocessing, fork start
    method): a helper forked first loads the scenarios and answers the declarative consistency, and
    once every run is explored a pool of `jobs` processes checks each run (corpus agreement, properties)
    while this process asks Z3 about the readings (farm.py). Results come back in a fixed order, so
    the report is the one made without them.

    `deadline` (time.monotonic) is when the work must end: a ruling not run by then, and each phase
    not begun by then, is named in the report's `not_finished`; what was finished is reported. `sofar`,
    if given, holds what is finished as the run goes (`Sofar.report()`, for a run stopped in the middle).

    With `cache`, a complete run stores each ruling's results (rulings/cache.py) for `verify --only`.
    """
    start = time.perf_counter()
    job = _Job(progress, deadline, Helper(workers) if workers is not None and jobs > 1 else None)
    kept = sofar if sofar is not None else Sofar()
    kept.job, kept.rules, kept.extra, kept.checks_properties = job, rules, tuple(extra), properties
    try:
        job.corpus = corpus = load(list(extra))
        job.versions = versions = [version_on(rules)] if rules else list(timeline())
        job.runner = runner = Runner(limits, progress)
        if job.helper is not None:
            job.helper.start(corpus, versions)
            runner.loaded = job.helper.scenario
        table = tabulate(runner, corpus, rules, deadline, into=kept.rows)
        if job.helper is not None and workers is not None:   # a helper only with workers
            job.farm = Farm(workers, jobs, corpus, runner.runs(), job.default, properties, deadline)
        # Z3's questions are single calls: their timeout is what remains before the deadline
        kept.operational = operational = solve(table, start, _ms_until(deadline)) if job.begin(_Z3) else table
        kept.declarative = declarative = job.declarative()
        kept.agreement = conf = job.agreement(declarative)
        kept.properties = props = job.properties() if properties else []
    except BaseException:
        job.end(terminate=True)   # Ctrl-C, the time budget, bad input: end the work under way
        raise
    job.end(terminate=bool(job.skipped))   # a phase the time limit skipped leaves work to drop
    played = {c.refs: _played(corpus, c, runner.runs(), job.default) for c in declarative.conflicts}
    report = Report(corpus, versions, rules, operational, declarative, conf, props, played, runner,
                    extra_files=tuple(extra),
                    not_finished=[f"ruling {ref}" for ref in table.unfinished] + job.skipped,
                    redone=job.redone + (["loading the scenarios"] if job.helper is not None and job.helper.lost
                                         else []))
    report.solver_seconds = (operational.solver_seconds + declarative.seconds
                             + sum(sum(v.counts.seconds for v in p.result.verdicts) for p in props))
    if cache and not report.not_finished and table.complete:   # for a later `verify --only` (rulings/cache.py)
        write_all(table, runner, corpus.statements, rules, limits)
    report.seconds = time.perf_counter() - start
    return report


_NOT_FINISHED = "not finished: the time limit came first"


class _Job:
    """verify's phases after the tabulation, each begun only before the deadline and named in
    `skipped` when it was not (or when a worker's answer did not come by then)."""

    def __init__(self, progress: Callable[[str], None] | None, deadline: float, helper: Helper | None):
        self.tell = progress or (lambda text: None)
        self.deadline, self.helper = deadline, helper
        self.farm: Farm | None = None
        self.skipped: list[str] = []
        self.redone: list[str] = []      # phases a dead worker left to this process
        self.default = default_combo()
        self.corpus: Any = None
        self.versions: list[RulesVersion] = []
        self.runner: Any = None

    def begin(self, phase: str) -> bool:
        if time.monotonic() > self.deadline:
            self.skipped.append(phase)
            return False
        self.tell(phase)
        return True

    def declarative(self) -> consistency.Declarative:
        phase = _DECLARATIVE
        if not self.begin(phase):
            return consistency.Declarative(complete=False, reason=_NOT_FINISHED)

        def here() -> consistency.Declarative:
            return consistency.check(self.corpus, self.versions, deadline=self.deadline)
        helper = self.helper
        return _late(lambda: self._redone(phase, lambda: helper.declarative(self.deadline), here)
                     if helper is not None else here(),
                     consistency.Declarative(complete=False, reason=_NOT_FINISHED), self.skipped, phase)

    def _redone(self, phase: str, there: Callable[[], Any], here: Callable[[], Any]) -> Any:
        """`there()` (a worker's answer), or `here()` when the worker died before giving it (farm.Lost):
        the work is done again in this process, and the report says so (`redone`)."""
        try:
            return there()
        except Lost:
            self.redone.append(phase)
            return here()

    def agreement(self, declarative: consistency.Declarative) -> agreement_mod.Agreement:
        instead = agreement_mod.Agreement(complete=False, reason=_NOT_FINISHED)
        if not self.begin("conformance"):
            return instead
        by_name = {v.name: v for v in self.versions}

        def check() -> agreement_mod.Agreement:
            farm = self.farm
            sound = self._redone("conformance", lambda: farm.sound(self.deadline), lambda: None) \
                if farm is not None else None
            return agreement_mod.check(self.corpus, self.runner.runs(), declarative.witnesses, by_name,
                                         self.default, sound)
        return _late(check, instead, self.skipped, "conformance")

    def properties(self) -> list[PropertyRun]:
        if not self.begin("rules properties"):
            return []
        farm = self.farm

        def here() -> list[PropertyRun]:
            return _properties(self.runner.runs(), self.default, self.deadline)
        return _late(lambda: self._redone("rules properties", lambda: [PropertyRun(run, found) for run, found
                                                                       in farm.properties(self.deadline)], here)
                     if farm is not None else here(), [], self.skipped, "rules properties")

    def end(self, terminate: bool) -> None:
        for pool in (self.farm, self.helper):
            if pool is not None:
                if terminate:
                    pool.terminate()
                else:
                    pool.close()


def _ms_until(deadline: float, most: int = 20_000) -> int:
    """Milliseconds from now to `deadline`, at least 1 and at most `most` (Z3's timeouts)."""
    if not math.isfinite(deadline):
        return most
    return max(1, min(most, int((deadline - time.monotonic()) * 1000)))


def _late(work: Callable[[], Any], instead: Any, skipped: list[str], phase: str) -> Any:
    """`work()`, or `instead` with `phase` named as not finished when a worker's answer did not come
    by the deadline (farm.Late)."""
    try:
        return work()
    except Late:
        skipped.append(phase)
        return instead


def _properties(runs: list[Run], default: Combo, deadline: float = math.inf) -> list[PropertyRun]:
    """The built-in properties on every run of the default readings, here (a run checked after the
    deadline has its properties inconclusive)."""
    from ..properties.builtin import BUILTIN
    from ..properties.checker import QUERY_TIMEOUT_MS
    from ..properties.checker import check as check_properties
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
                if any(not agreement_mod.satisfied(c, occ) for c in constraints):
                    if hit is None or len(path) < len(hit.path):
                        hit = Played(ref, run, groups, path)
                    break
        if hit is not None:
            out.append(hit)
    return out
