"""Docs that cannot drift (issue 38, item 8): every generated part of README.md and docs/ is what a real run
gives (docs/refresh.py), and every example command of the README runs as written from a fresh clone.

The parts that need no whole-corpus run are checked in the default run; the rest (verify, the corpus
bundle, the sweeps, the main job's time and memory) with the slow tests, as CI runs both.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.main import main

spec = importlib.util.spec_from_file_location("refresh", ROOT / "docs" / "refresh.py")
refresh = importlib.util.module_from_spec(spec)
sys.modules["refresh"] = refresh      # its dataclasses look their module up
spec.loader.exec_module(refresh)

STALE = ("{names} no longer match a real run: run `python docs/refresh.py` (docs/architecture.md, 'Docs that "
         "cannot drift')")


def _stale(found) -> str:
    return STALE.format(names=", ".join(f"{s.file.name}:{s.name}" for s in found))


def test_the_docs_show_what_a_run_gives(monkeypatch):
    monkeypatch.setenv("DMCHECK_LANG", "en")
    found = refresh.refresh(write=False, slow=False)
    assert not found, _stale(found)


@pytest.mark.slow
def test_the_docs_show_what_a_whole_corpus_run_gives(monkeypatch):
    monkeypatch.setenv("DMCHECK_LANG", "en")
    found = refresh.refresh(write=False, slow=True)
    assert not found, _stale(found)


def test_every_part_the_docs_name_exists_and_every_part_is_shown():
    used = {m["name"] for path in refresh.DOCS for m in refresh.PART.finditer(path.read_text(encoding="utf-8"))}
    assert used == set(refresh.PARTS), (used ^ set(refresh.PARTS))
    for path in refresh.DOCS:     # a marker without its end (or the reverse) is a part nobody regenerates
        text = path.read_text(encoding="utf-8")
        opened = re.findall(r"<!-- refresh:([\w.-]+) -->", text)
        closed = re.findall(r"<!-- /refresh:([\w.-]+) -->", text)
        assert sorted(opened) == sorted(closed), path.name


def test_a_stale_figure_is_found(tmp_path, monkeypatch):
    """The check can fail: a doc whose shown output a run no longer gives is named, with the part."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    wrong = readme.replace("12 states, 12 transitions", "13 states, 12 transitions", 1)
    assert wrong != readme
    (tmp_path / "README.md").write_text(wrong, encoding="utf-8")
    monkeypatch.setattr(refresh, "DOCS", [tmp_path / "README.md"])
    monkeypatch.setenv("DMCHECK_LANG", "en")
    found = refresh.refresh(write=False, slow=False)
    assert [(s.file.name, s.name) for s in found] == [("README.md", "explore-q09")]
    refresh.refresh(write=True, slow=False)
    assert "12 states, 12 transitions" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_a_timing_says_when_and_where_it_was_measured():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (measured,) = [m["body"] for m in refresh.PART.finditer(text) if m["name"] == "timing.verify"]
    assert re.search(r"about \d+ s .* and \d+ MB .* measured on \d{4}-\d\d-\d\d on \d+ cores", measured)


# ---- every example command of the README, from a fresh clone ---------------------------------------------
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_.]+\b|\[|\||\.\.\.")
NEEDS_FILES = ("explore", "check", "diff", "sweep", "export", "conform", "coverage")   # bare: a mention
SLOW = ("verify ", "explore scenarios/rulings/ ", "export --corpus ")                 # the whole corpus
INSTALL = re.compile(r"^(python3 -m venv|\.venv/bin/pip|\.venv/bin/python -m pytest)")


def examples() -> list[str]:
    """The README's example commands: each line of its `sh` blocks (split at `&&`), each `$ ` line of its
    output blocks, and each inline command written out in full (no FILE, [options] or A|B in it)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        found += [c.strip() for line in block.splitlines() for c in line.split("&&") if c.strip()]
    found += [m.strip() for m in re.findall(r"^\s*\$ (.+)$", text, re.M)]
    for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", text):
        command = " ".join(span.split())
        words = command.split()
        if words[0] == "dmcheck" and len(words) > 1 and not PLACEHOLDER.search(command) and \
                not (len(words) == 2 and words[1] in NEEDS_FILES):
            found.append(command)
    return list(dict.fromkeys(found))


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The repository's committed files, as a fresh clone has them (git archive of HEAD)."""
    folder = tmp_path_factory.mktemp("clone")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def _run(command: str, where: Path) -> tuple[int, str, str]:
    """An example as a user runs it there (`.venv/bin/dmcheck` is this dmcheck); in this process."""
    argv = shlex.split(command)
    assert argv[0] in ("dmcheck", ".venv/bin/dmcheck"), command
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(where)
    try:
        code = main(argv[1:], out, err)
    except SystemExit as exc:       # --version
        code = int(exc.code or 0)
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


def _slow(command: str) -> bool:
    return any((command.split(" ", 1)[-1] + " ").startswith(s) for s in SLOW)


def _ran(command: str, where: Path) -> None:
    code, out, err = _run(command, where)
    assert code in (0, 1) and "Traceback" not in err, f"{command}: exit {code}\n{err[-2000:]}"


def test_the_readme_examples_are_found():
    found = examples()
    for expected in ("dmcheck explore scenarios/rulings/Q09_the_watch.yaml", "dmcheck rules 509",
                     "dmcheck export scenarios/rulings/Q09_the_watch.yaml --out q09.json",
                     "dmcheck diff scenarios/rulings/Q09_the_watch.yaml --rules 2023-01-01 --rules 2024-06-19"):
        assert expected in found
    assert not [c for c in found if PLACEHOLDER.search(c) and c.startswith("dmcheck")]


def test_the_install_and_test_commands_are_the_ones_ci_runs():
    """The README's test commands are the line CI runs first (.ci/run), and CI installs the wheel in a fresh
    environment and runs the main job there: the install lines of the README are run by CI, not here."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    tests = next(line for block in re.findall(r"```sh\n(.*?)```", readme, re.S) for line in block.splitlines()
                 if "pytest" in line)
    assert tests.removeprefix("python3 -m venv .venv && ") in ci.splitlines()
    assert "pip install --quiet" in ci and "dmcheck\" verify" in ci


def test_every_readme_example_runs_as_written_from_a_fresh_clone(clone, monkeypatch):
    monkeypatch.setenv("DMCHECK_LANG", "en")
    for command in examples():
        if INSTALL.match(command) or _slow(command):
            continue
        _ran(command, clone)


@pytest.mark.slow
def test_the_readme_examples_on_the_whole_corpus_run_from_a_fresh_clone(clone, monkeypatch):
    monkeypatch.setenv("DMCHECK_LANG", "en")
    slow = [c for c in examples() if not INSTALL.match(c) and _slow(c)]
    assert any("verify" in c for c in slow)
    for command in slow:
        _ran(command, clone)
    # the quick start's last command, in the clone's own environment, as CI runs it (.ci/run)
    done = subprocess.run([sys.executable, "-m", "dmcheck", "verify", "--summary"], cwd=clone,
                          capture_output=True, text=True)
    assert done.returncode in (0, 1) and "result:" in done.stdout, done.stderr[-2000:]
