"""verify's results kept between runs, per statement, so that an edited statement is checked again alone.

A rules editor edits one statement of their rulings file and runs `verify --only ID` (rulings/only.py):
everything else of the corpus is what it was, so each other ruling's verdicts under every combination of
readings, and the milestone orders of the runs of its scenarios, are read back instead of explored again.

An entry is one statement's whole result, under a key made of the content of every input it depends on:
the statement as written, the bytes of its scenario files and of the card files they name, the rules
date and limits asked for, and the code of dmcheck itself (its version and the text of every module and
data file of the model, explorer, properties and rulings: a change to the model changes every key). A
key that matches is a result computed from the same inputs by the same code. Entries live beside the
parse cache (model/yamlcache.py: `DMCHECK_CACHE_DIR`, `off` turns both off) and are read only when owned
by this user and writable by nobody else; what cannot be read is worked out again.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from ..explorer.limits import Limits
from ..model import yamlcache
from ..model.readings import CHOICES
from ..model.rules import version_on
from ..model.yamlio import load_yaml
from ..properties.expectations import INCONCLUSIVE
from .corpus import Statement
from .operational import Operational, Runner

FORMAT = 1   # raise when what an entry holds changes


@dataclass(frozen=True)
class RunRecord:
    """One run of a ruling's scenario (a scenario, a rules version, a combination of readings), as
    corpus agreement needs it: which choices it consulted, and its milestone orders with their paths."""

    file: Path
    date: dt.date
    combo: tuple[str, ...]
    consulted: frozenset[str]
    paths: dict[Any, list[tuple[int, int]]]
    complete: bool
    reason: str
    states: int


@dataclass(frozen=True)
class Entry:
    """One ruling's verdicts under every combination: the choices they depend on, the projections of
    the combinations under which it holds, whether any was inconclusive, and the runs it took."""

    depends: tuple[int, ...]
    holds: frozenset[tuple[str, ...]]
    unsure: bool
    runs: tuple[RunRecord, ...] = field(default=())

    def held(self, combo: tuple[str, ...]) -> bool:
        return tuple(combo[i] for i in self.depends) in self.holds


def _package_folders() -> list[Path]:
    from .. import explorer, model, properties, rulings
    return [Path(str(m.__file__)).resolve().parent for m in (model, explorer, properties, rulings)]


@lru_cache(maxsize=1)
def code_digest() -> str:
    """dmcheck's version and the text of the code and data that compute a verdict."""
    h = hashlib.sha256()
    try:
        h.update(metadata.version("dmcheck-rules").encode())
    except metadata.PackageNotFoundError:   # pragma: no cover - run from a bare checkout
        h.update(b"?")
    for folder in _package_folders():
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".yaml", ".json") and "scenarios" not in path.relative_to(folder).parts:
                h.update(path.relative_to(folder).as_posix().encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def _inputs(path: Path) -> list[bytes]:
    """A scenario file's bytes and those of the card files it names (what its verdicts read)."""
    out = [path.read_bytes()]
    root = load_yaml(path)
    for name in (root.get("cards") or []) if isinstance(root, dict) else []:
        card_file = path.parent / str(name)
        out.append(str(name).encode())
        out.append(card_file.read_bytes() if card_file.is_file() else b"")
    return out


def statement_key(s: Statement) -> str:
    """The key of a statement's entry: the statement as written and its scenario files' content (the
    store's name carries the code, rules date and limits)."""
    h = hashlib.sha256()
    fields = {f.name: getattr(s, f.name) for f in dataclasses.fields(s) if f.name not in ("file", "line")}
    h.update(repr(sorted(fields.items(), key=lambda kv: kv[0])).encode())
    for path in s.scenarios:
        for chunk in _inputs(path):
            h.update(len(chunk).to_bytes(8, "big"))
            h.update(chunk)
    return h.hexdigest()


class Store:
    """The entries of one code, rules date and limits: read once, written back whole."""

    def __init__(self, rules: dt.date | None, limits: Limits):
        # the time limit is not part of the key: an entry is stored only when no search ran out of
        # anything (a complete search's result does not depend on it)
        h = hashlib.sha256(f"{FORMAT}\0{code_digest()}\0{rules}\0{limits.max_states}\0{limits.max_depth}".encode())
        self.name = f"verify-{h.hexdigest()[:24]}.pickle"
        found = yamlcache.read(self.name)
        self.entries: dict[str, Entry] = found if isinstance(found, dict) else {}
        self.fresh: dict[str, Entry] = {}
        self.reused = 0

    def get(self, key: str) -> Entry | None:
        found = self.entries.get(key)
        if isinstance(found, Entry):
            self.reused += 1
            self.fresh[key] = found
            return found
        return None

    def put(self, key: str, entry: Entry) -> None:
        """Keep an entry for the next run, unless a search of it was incomplete or inconclusive."""
        if not entry.unsure and all(r.complete for r in entry.runs):
            self.fresh[key] = entry

    def save(self) -> bool:
        """Write the entries this run used or made (those of statements no longer asked for are dropped)."""
        return yamlcache.write(self.name, self.fresh)


def entry_of(op: Operational, runner: Runner, s: Statement, rules: dt.date | None) -> Entry:
    """A ruling's cache entry, from its row of a table and the runs of its scenarios."""
    depends = op.depends.get(s.ref, tuple(range(len(CHOICES))))
    row = op.table[s.ref]
    # the verdicts read only the choices of `depends` (operational.py): one combination per projection
    # says it, the defaults elsewhere
    base = tuple(c.default for c in CHOICES)
    holds, unsure = set(), False
    for part in itertools.product(*[[r for r, _ in CHOICES[i].readings] for i in depends]):
        combo = list(base)
        for i, r in zip(depends, part):
            combo[i] = r
        verdict = row[tuple(combo)]
        holds.update([part] if verdict.holds else [])
        unsure = unsure or verdict.verdict == INCONCLUSIVE
    records = []
    for path in s.scenarios:
        version = s.run_version(rules) or version_on(runner.scenario(path).rules)
        for run in runner.runs():
            if run.file == path and run.version.date == version.date:
                orders = run.orders()
                records.append(RunRecord(path, version.date, run.combo, run.consulted, orders.paths,
                                         orders.complete, orders.reason, len(run.graph.states)))
    return Entry(depends, frozenset(holds), unsure, tuple(records))


def write_all(op: Operational, runner: Runner, statements: tuple[Statement, ...], rules: dt.date | None,
              limits: Limits) -> bool:
    """After a whole verify: every ruling's entry, so that a later `verify --only` reads them back."""
    store = Store(rules, limits)
    for s in statements:
        if s.scenarios and s.ref in op.table:
            store.put(statement_key(s), entry_of(op, runner, s, rules))
    return store.save()


def where() -> str:
    folder = yamlcache.where()
    return str(folder) if folder is not None else "off"
