"""The findings of a verify report: what it counts, each once, with a stable id and a place to point at.

One list serves every output (the summary's `result:` line, baselines, SARIF, JUnit), so they always
agree on how many findings a run has. A finding's id is its kind and its members (statement refs,
plus the readings, scenario or rules version that tell two findings of the same members apart), the
same from run to run and across machines.

Statements a user brings (`verify --rulings FILE`) are what a user's CI is about: every minimal set of
contradicting statements that holds one of them is folded into one finding per statement of theirs
("X2@TEST contradicts 12 statements"), located at their statement, with the corpus statements as its
members. A broken ordering constraint is one finding however many scenarios and rules versions break
it, located at the statement.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..model.readings import CHOICES
from ..properties.verdict import VIOLATED

KINDS = {
    "failing_ruling": "A ruling does not hold in the model under the default interpretation readings",
    "declarative": "A minimal set of statements whose ordering constraints cannot hold together",
    "operational": "A minimal set of rulings no combination of interpretation readings satisfies together",
    "contradiction": "A statement of a rulings file given with --rulings contradicts statements of the corpus",
    # the corpus agreement check (rulings/agreement.py); the kind keeps its name, which baselines store
    "conformance": "Traces of the model break an ordering constraint of a statement",
    "unreached": "The statements allow an order of milestones the model never shows",
    "property": "A built-in rules property is violated on a scenario",
}


@dataclass(frozen=True)
class Finding:
    id: str                       # stable: kind + members (see the module docstring)
    kind: str                     # a key of KINDS (or of the kinds its command passes to ci_formats.sarif)
    message: str
    refs: tuple[str, ...] = ()    # the statements involved (ID@SOURCE), the located one first
    citations: tuple[str, ...] = ()
    file: str = ""                # where to point: a statement's rulings file, or a scenario
    line: int = 1
    related: tuple[tuple[str, int, str], ...] = ()   # (file, line, ref) of the other statements
    replay: str | None = None     # the replay key of a trace showing it, if any
    scenario: str = ""            # the scenario file the replay key is a path of
    rules: str = ""               # the rules date it was explored under (YYYY-MM-DD)
    readings: tuple[tuple[str, str], ...] = ()   # the readings of the trace that are not the defaults


def findings(report) -> list[Finding]:
    """Every finding of a verify report, each once: what its `result:` line counts."""
    out = (_failing(report) + _contradictions(report) + _agreement(report) + _unreached(report)
           + _properties(report))
    seen: dict[str, Finding] = {}
    for f in out:
        seen.setdefault(f.id, f)
    return list(seen.values())


def _where(report, refs) -> dict[str, Any]:
    """The location of the first statement, the others as related locations, and their citations."""
    statements = [s for s in (report.corpus.get(r) for r in refs) if s is not None]
    if not statements:
        return {}
    first = statements[0]
    citations = tuple(dict.fromkeys(c for s in statements for c in (s.citation(), *s.cites)))
    return {"file": first.file, "line": first.line, "citations": citations,
            "related": tuple((s.file, s.line, s.ref) for s in statements[1:])}


def _run_of(run, combo) -> dict[str, Any]:
    """Where a finding's replay key is a path: the scenario file, its rules date, and the readings of
    `combo` that are not the defaults."""
    if run is None:
        return {}
    changed = tuple((c.name, r) for c, r in zip(CHOICES, combo) if r != c.default)
    return {"scenario": str(run.file), "rules": run.version.date.isoformat(), "readings": changed}


def _default() -> tuple[str, ...]:
    return tuple(c.default for c in CHOICES)


def _readings(readings) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(dict(readings).items()))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _failing(report) -> list[Finding]:
    out = []
    for s in report.failing():
        v = report.operational.default(s.ref)
        what = f"{v.run.file.name}: {v.reason}" if v.run is not None else v.reason
        out.append(Finding(f"failing_ruling:{s.ref}", "failing_ruling",
                           f"{s.citation()} does not hold under the default readings ({what}): {s.text}",
                           (s.ref,), replay=v.trace.key() if v.trace is not None else None,
                           **_run_of(v.run, v.combo), **_where(report, [s.ref])))
    return out


def _theirs(report, refs) -> tuple[str, ...]:
    """The members of a set that come from a user's rulings file, in the set's order."""
    return tuple(r for r in refs if (s := report.corpus.get(r)) is not None and not s.builtin)


def _contradictions(report) -> list[Finding]:
    """The corpus's own minimal sets one finding each; those holding a user's statement folded into one
    finding per such statement (or group of theirs found together)."""
    out: list[Finding] = []
    caused: dict[tuple[str, ...], list[tuple[str, Any]]] = defaultdict(list)
    for kind, conflict in ([("declarative", c) for c in report.declarative.conflicts]
                           + [("operational", c) for c in report.operational.conflicts]):
        theirs = _theirs(report, conflict.refs)
        if theirs:
            caused[theirs].append((kind, conflict))
        else:
            out.append(_declarative(report, conflict) if kind == "declarative" else _operational(report, conflict))
    return out + [_caused(report, theirs, sets) for theirs, sets in caused.items()]


def _declarative(report, c) -> Finding:
    readings = _readings(c.readings)
    under = f" under {readings}" if readings else ""
    why = " ".join(f"{ref}: {'; '.join(map(str, report.corpus.get(ref).constraints(dict(c.readings) or None)))}."
                   for ref in c.refs if report.corpus.get(ref) is not None)
    return Finding(f"declarative:{'+'.join(sorted(c.refs))}" + (f"|{readings}" if readings else ""), "declarative",
                   f"{' + '.join(c.refs)} cannot hold together{under} (rules {', '.join(c.versions)}): {why}",
                   tuple(c.refs), **_where(report, c.refs))


def _operational(report, c) -> Finding:
    shown = next((f for f in c.failures if f.trace is not None), None)
    return Finding(f"operational:{'+'.join(sorted(c.refs))}", "operational",
                   f"no combination of interpretation readings satisfies {' + '.join(c.refs)} together",
                   tuple(c.refs), replay=shown.trace.key() if shown is not None else None,
                   **(_run_of(shown.run, shown.combo) if shown is not None else {}), **_where(report, c.refs))


def _caused(report, theirs: tuple[str, ...], sets: list[tuple[str, Any]]) -> Finding:
    """One finding for every minimal set holding the user's statements `theirs`: they contradict the
    other members; located at their (first) statement."""
    others = sorted({r for _, c in sets for r in c.refs if r not in theirs})
    declarative = [c for kind, c in sets if kind == "declarative"]
    only_under = sorted({_readings(c.readings) for c in declarative if c.readings})
    parts = [_plural(len(declarative), "declarative set")] if declarative else []
    if len(sets) > len(declarative):
        parts.append(_plural(len(sets) - len(declarative), "operational set"))
    note = f"; some only under {', '.join(only_under)}" if only_under else ""
    who = " + ".join(theirs)
    if not others:           # only statements of theirs in every set: they contradict one another
        what = "contradict each other" if len(theirs) > 1 else "cannot hold on its own"
    elif len(theirs) == 1:
        what = f"contradicts {_plural(len(others), 'statement')}: {', '.join(others)}"
    else:
        what = f"together contradict {_plural(len(others), 'statement')}: {', '.join(others)}"
    message = f"{who} {what} (minimal sets that cannot hold together: {', '.join(parts)}{note})"
    shown = next((f for kind, c in sets if kind == "operational" for f in c.failures if f.trace is not None), None)
    return Finding(f"contradiction:{'+'.join(sorted(theirs))}", "contradiction", message, theirs + tuple(others),
                   replay=shown.trace.key() if shown is not None else None,
                   **(_run_of(shown.run, shown.combo) if shown is not None else {}),
                   **_where(report, theirs + tuple(others)))


def _agreement(report) -> list[Finding]:
    """A statement's constraint broken by the model: one finding, however many scenarios break it."""
    broken: dict[tuple[str, str], list] = defaultdict(list)
    for v in report.agreement.violations:
        broken[(v.statement.ref, str(v.constraint))].append(v)
    out = []
    for (ref, constraint), violations in broken.items():
        files = sorted({v.run.file.name for v in violations})
        versions = sorted({v.run.version.name for v in violations})
        first = violations[0]
        out.append(Finding(f"conformance:{ref}:{constraint}", "conformance",
                           f"{ref}: {constraint} is broken by the model in {_plural(len(files), 'scenario')} "
                           f"({', '.join(files)}; rules {', '.join(versions)})",
                           (ref,), replay=first.trace().key(), **_run_of(first.run, first.combos[0]),
                           **_where(report, [ref])))
    return out


def _unreached(report) -> list[Finding]:
    return [Finding(f"unreached:{u.version}:{u.before}<{u.after}", "unreached",
                    f"{u.version}: the statements allow {u.before} before {u.after}; the model never does "
                    f"(e.g. {u.run.file.name})", file=str(u.run.file), replay=u.trace().key(),
                    **_run_of(u.run, _default()))
            for u in report.agreement.unreached]


def _properties(report) -> list[Finding]:
    out = []
    for p in report.properties:
        for v in p.result.verdicts:
            if v.verdict == VIOLATED:
                out.append(Finding(f"property:{v.property.id}:{p.run.file.name}:{p.run.version.name}", "property",
                                   f"{v.property.id} is violated on {p.run.file.name} ({p.run.version.name}): "
                                   f"{v.reason}", citations=tuple(v.property.citations), file=str(p.run.file),
                                   replay=v.trace.key() if v.trace is not None else None,
                                   **_run_of(p.run, _default())))
    return out
