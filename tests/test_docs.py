"""The docs a clone has are enough: every link in README.md and docs/*.md stays inside the
repository and reaches a file that exists, and no comment or doc points at a file the repository does
not hold (issue 40, item 6)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from conftest import ROOT

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_doc_links_stay_inside_the_repository_and_exist():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        assert "../shared/" not in text, f"{doc.name} sends users outside the repository"
        for target in LINK.findall(text):
            if "://" in target:
                continue
            path = (doc.parent / target).resolve()
            assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name}: broken link {target}"


def test_the_scenario_format_page_names_every_event_and_outcome_key():
    from dmcheck.model.scenario_file import EVENT_KEYS, OUTCOME_KEYS

    text = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    events = text.split("## Events", 1)[1].split("\n## ", 1)[0]     # the events table, not the keys of a scenario
    for event, keys in EVENT_KEYS.items():
        row = next((line for line in events.splitlines()
                    if line.startswith("|") and f"`{event}`" in line.split("|")[1] and "what happened" not in line
                    and line.count("|") == 4), None)
        assert row is not None, event
        for key in keys:
            assert f"`{key}`" in row, (event, key)
    for key in OUTCOME_KEYS:
        assert f"`{key}`" in text, key


# Pointers at files a clone does not have: research notes and digests kept beside the repository, and the
# absolute paths of a development machine. A public source is cited by its name and address instead.
_OUTSIDE = re.compile(r"\bresearch/[\w-]+\.md|\bdomain\.md\b|\.\./shared/|(?<![\w$])/(?:work|home|Users)/\w")
_TEXT = (".py", ".md", ".yaml", ".toml")


def test_no_comment_or_doc_points_at_a_file_outside_the_repository():
    import subprocess

    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    found = []
    for name in listed:
        if name == "tests/test_docs.py" or not name.endswith(_TEXT):
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")   # tests/data/bad holds non-UTF-8 files
        for number, line in enumerate(text.splitlines(), 1):
            if _OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert found == [], "\n".join(found)


# Pointers at repository paths: one that names a repository folder (`model/...`, `docs/...`, `scenarios/...`)
# must name a file or folder that is there, a document (`*.md`) must be one the repository holds unless a
# public address (github.com/..., http...) stands just before it, and no path of a development machine
# (/home/..., /work/..., /Users/...) may appear. Scanned: the packages, their data, the scenarios, the
# docs, README.md and the benchmarks; not tests/ (they name missing paths on purpose) nor adapters/ (they
# cite the files of the engines they drive, in those engines' repositories).
SCANNED = ("model", "dmcheck", "explorer", "properties", "rulings", "scenarios", "docs", "benchmarks", "README.md")
SUFFIXES = (".py", ".md", ".yaml", ".yml", ".toml", ".json", ".txt", ".html", ".pml")
_EXT = r"(?:py|md|yaml|yml|json|toml|txt|html|sh|csv|tsv|pml)"
PATH = re.compile(r"(?<![\w./@:-])((?:\.{1,2}/)*(?:[\w.-]+/)+[\w.-]+\." + _EXT + r")(?![\w/])")
BARE_DOC = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")
MACHINE = re.compile(r"(?<![\w.])/(?:home|work|Users|root)/[\w./-]+")
ADDRESS = re.compile(r"https?://|github\.com/|\bwww\.")
# examples that name a user's own files, not the repository's
EXAMPLES = {("docs/ci.md", "scenarios/wrong.yaml")}
_SKIP_DIRS = {"__pycache__", ".git", ".venv", "node_modules"}


def _files(root: Path):
    for top in SCANNED:
        base = root / top
        if base.is_file():
            yield base
            continue
        for folder, dirs, names in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.endswith(".egg-info"))
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield Path(folder) / name


def _holds(root: Path, known: set[str], rel_file: str, pointer: str) -> bool:
    """Whether the repository holds what `pointer` names: from its root, from the citing file's folder
    (a scenario's `../cards/x.yaml`), or inside a package (`instructions/power.py`, `dmcheck/model/...`)."""
    if pointer.startswith("."):
        if (root / rel_file).parent.joinpath(pointer).resolve().exists():
            return True
        pointer = pointer.lstrip("./")   # an example of what a scenario writes, from a folder of its own
    pointer = pointer.removeprefix("dmcheck/") if not (root / pointer).exists() else pointer
    return pointer in known or any(k.endswith("/" + pointer) for k in known)


def dangling(root: Path) -> list[str]:
    """Each pointer at something the repository does not hold: 'file:line: what'."""
    files = list(_files(root))
    known = {p.relative_to(root).as_posix() for p in files}
    known |= {p.relative_to(root).as_posix() for p in root.rglob("*")
              if not _SKIP_DIRS.intersection(p.parts)}
    tops = {p.name for p in root.iterdir() if p.is_dir()}
    names = {Path(k).name for k in known}
    found = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        prev = ""
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in MACHINE.finditer(line):
                found.append(f"{rel}:{n}: {m.group(0)} (a development machine's path)")
            for m in PATH.finditer(line):
                pointer = m.group(1)
                first = pointer.lstrip("./").split("/")[0]
                if (rel, pointer) in EXAMPLES or any(Path(part).stem.isupper() for part in pointer.split("/")):
                    continue   # a placeholder (NAME, ENGINE) or an example of a user's files
                if ADDRESS.search((prev + line[:m.start()])[-200:]):
                    continue   # a public source, cited by its address
                checked = pointer.startswith(".") or first in tops or pointer.endswith(".md")
                if checked and not _holds(root, known, rel, pointer):
                    found.append(f"{rel}:{n}: {pointer}")
            for m in BARE_DOC.finditer(line):
                before = prev + line[:m.start()]
                if m.group(1) not in names and not ADDRESS.search(before[-200:]) and not before.endswith("/"):
                    found.append(f"{rel}:{n}: {m.group(1)}")
            prev = line + "\n"
    return found


def test_no_comment_or_doc_points_at_a_missing_file():
    assert dangling(ROOT) == []


def test_a_pointer_at_a_missing_file_is_caught(tmp_path):
    for top in ("model", "docs"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__", "data"))
    before = set(dangling(tmp_path))   # pointers at the folders not copied
    target = tmp_path / "model" / "symmetry.py"
    text = target.read_text(encoding="utf-8")
    planted = ("# see research/attack.md A12, domain.md, model/canonical.py, docs/corpus.md and "
               "/home/someone/dm/notes.py\n")
    target.write_text(planted + text, encoding="utf-8")
    assert [d for d in dangling(tmp_path) if d not in before] == [
        "model/symmetry.py:1: /home/someone/dm/notes.py (a development machine's path)",
        "model/symmetry.py:1: research/attack.md", "model/symmetry.py:1: model/canonical.py",
        "model/symmetry.py:1: domain.md"]
