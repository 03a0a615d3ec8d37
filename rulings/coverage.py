"""Coverage of the rulings corpus: how many statements can be posed to the model, and how many hold.

A statement *can be posed* when it has scenarios: the model can be asked whether it holds (its
`expect` items on the complete exploration of each scenario, under the rules version of its date and
the default readings, as `dmcheck verify` asks it). A statement checked only by its ordering
constraints, or `unchecked`, cannot be posed this way. Statements are grouped by their `feature`
(rulings/corpus.py: the `feature:` key, else the name of their corpus file), so the report says
where the corpus reaches the model and where it does not yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias

from ..explorer.limits import DEFAULT_LIMITS, Limits
from ..properties.expectations import HOLDS, VIOLATED
from ..properties.verdict import VerdictName
from .corpus import Corpus, Statement
from .operational import Runner, default_combo, ruling_verdict

# A statement's verdict under the default readings, or NOT_POSED when it has no scenarios.
CoverageVerdict: TypeAlias = Literal[VerdictName, "not posed"]
NOT_POSED: Final = "not posed"


@dataclass
class Row:
    """One statement: whether it can be posed, and its verdict under the default readings."""

    statement: Statement
    verdict: CoverageVerdict
    reason: str = ""


@dataclass
class Feature:
    """The statements of one feature and how they fare."""

    name: str
    rows: list[Row] = field(default_factory=list)

    def count(self, verdict: CoverageVerdict | None = None) -> int:
        return sum(1 for r in self.rows if verdict is None or r.verdict == verdict)

    @property
    def posed(self) -> int:
        return sum(1 for r in self.rows if r.verdict != NOT_POSED)




@dataclass
class Coverage:
    features: list[Feature]
    explorations: int = 0

    def total(self, verdict: CoverageVerdict | None = None) -> int:
        return sum(f.count(verdict) for f in self.features)

    @property
    def posed(self) -> int:
        return sum(f.posed for f in self.features)


def coverage(corpus: Corpus, limits: Limits = DEFAULT_LIMITS, only: str | None = None,
             progress: Callable[[str], None] | None = None) -> Coverage:
    """Every statement of `corpus` (of one feature, with `only`) posed where it can be."""
    runner = Runner(limits, progress)
    combo = default_combo()
    by_name: dict[str, Feature] = {}
    for s in corpus.statements:
        if only is not None and s.feature != only:
            continue
        feature = by_name.setdefault(s.feature, Feature(s.feature))
        if not s.scenarios:
            why = "checked by its ordering constraints only" if s.declarative() else (s.unchecked or "no scenario")
            feature.rows.append(Row(s, NOT_POSED, why))
            continue
        v = ruling_verdict(runner, s, combo)
        feature.rows.append(Row(s, v.verdict, v.reason))
    return Coverage(sorted(by_name.values(), key=lambda f: f.name), runner.explorations)


def failing(cov: Coverage) -> list[Row]:
    """The statements that can be posed and do not hold (violated first, then inconclusive)."""
    rows = [r for f in cov.features for r in f.rows if r.verdict not in (HOLDS, NOT_POSED)]
    return sorted(rows, key=lambda r: (r.verdict != VIOLATED, r.statement.ref))
