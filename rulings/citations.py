"""Rule citations in text, and the ones that name no rule of the edition the table lists.

A citation is a rule number written where code, a corpus, a scenario or a doc says which rule it
follows: `R509.4c`, `rule 701.14d`, `rules 509.3`, or a bare `703.4c`. Rules were renumbered between
editions, so a number the current edition (Ver.1.48, model/data/rules_index.yaml) lacks is a
mistake unless the citation names the older edition whose number it is (`811.1a of v1.28`,
`R112.3c of 2018-08-09`, a corpus id's `.v138`). What is not a citation: a corpus statement id of
another kind (`D4`, `SC3`, `Q02`, `RC2023-04-19`), a version (`1.48`), a date, a figure with its unit
(`146.5 s`) or a number in code (`600.0`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# R509.4c, rule 509, rules 701.14d, §509.3 or a bare 509.4c; never inside a longer word, number or path
_CITATION = re.compile(r"(?<![\w.,:/#@-])(?:(R)|(?:[Rr]ules? |§))?([1-8]\d\d)(?:\.(\d{1,2})([a-z])?)?(?![\w])(?!\.\d)")
_UNIT = re.compile(r"\s*(?:s|ms|MB|GB|kB|KB|B|%|x|×|pt|px|seconds|states|runs)\b")
# an edition named right after the number (`811.1a of v1.28`, `R112.3c of 2018-08-09`, `.v138`) or just
# before it on the line (`rules v1.22 reworded 701.26a`)
_EDITION_AFTER = re.compile(r"\.v\d+|\s*(?:of|in)\s+(?:the\s+)?(?:rules\s+)?"
                            r"(?:v\d\.\d+|Ver\.?\s*\d\.\d+|\d{4}-\d{2}-\d{2}|\d{4}\b)")
_EDITION_BEFORE = re.compile(r"(?:v\d\.\d{2}|Ver\.\s*\d\.\d+)\S*(?:\s+\S+){0,2}\s*$")

SUFFIXES = (".py", ".md", ".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Citation:
    """One rule number cited at a place, and whether the citation names an older edition."""

    file: str
    line: int
    number: str
    other_edition: bool
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.number}: {self.text.strip()[:100]}"


def cited(text: str, file: str = "") -> Iterator[Citation]:
    """Every rule citation in `text`, in order."""
    for n, line in enumerate(text.splitlines(), 1):
        for m in _CITATION.finditer(line):
            prefixed, section, sub, letter = m.groups()
            prefixed = prefixed or m.group(0)[0] in "Rr§"
            if not prefixed and sub is None:
                continue   # a bare three-digit number is a count, not a citation
            if not prefixed and (sub == "0" or _UNIT.match(line, m.end())):
                continue   # 600.0 in code, 146.5 s in a table of figures
            number = section + (f".{sub}{letter or ''}" if sub is not None else "")
            other = bool(_EDITION_AFTER.match(line, m.end()) or _EDITION_BEFORE.search(line[:m.start()]))
            yield Citation(file, n, number, other, line)


def files_under(root: Path, folders: Iterable[str]) -> Iterator[Path]:
    """The text files of `folders` (and top-level files named there) under `root`, sorted."""
    for name in folders:
        path = root / name
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                              and "__pycache__" not in p.parts)


def unknown(paths: Iterable[Path], numbers: frozenset[str], root: Path) -> list[Citation]:
    """The citations of `paths` naming a number the edition lacks, without naming their own edition."""
    bad = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        for c in cited(text, str(path.relative_to(root))):
            if c.number not in numbers and not c.other_edition:
                bad.append(c)
    return bad
