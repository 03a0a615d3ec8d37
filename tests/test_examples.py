"""`dmcheck examples` and the built-in example paths: listed, copied out, and found from any folder.

The repository's scenarios/ folder is what a wheel ships (as `rulings.scenarios`); every path
`scenarios/...` that a command's help gives must name one of its files, and must work from a folder
that has no scenarios/ of its own: such a path is read from the shipped copy (stderr says so). The
slow test builds the wheel, installs it in a fresh environment outside the checkout and runs the
help examples there.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, output, scenario_output

from dmcheck.main import main, parser
from dmcheck.model.yamlio import load_yaml

SHIPPED = ROOT / "scenarios"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def help_examples() -> list[list[str]]:
    """Every example command line of every command's --help (continuation lines joined)."""
    sub = next(a for a in parser()._actions if a.dest == "command")
    lines = []
    for command in sub.choices.values():
        text = command.epilog.split("examples", 1)[1].split("\n\n", 1)[0].replace("\\\n", " ")
        lines += [shlex.split(line, comments=True) for line in text.splitlines() if line.strip().startswith("dmcheck ")]
    return lines


def test_the_list_is_every_shipped_yaml_file_with_its_kind():
    code, out, _ = run("examples", "--json")
    doc = output(out)
    assert code == 0 and Path(doc["root"]) == SHIPPED.resolve()
    paths = {"scenarios/" + p.relative_to(SHIPPED).as_posix() for p in SHIPPED.rglob("*.yaml")}
    assert [e["path"] for e in doc["examples"]] == sorted(paths)
    kinds = {e["path"]: e["kind"] for e in doc["examples"]}
    assert kinds["scenarios/rulings/Q09_the_watch.yaml"] == "scenario"
    assert kinds["scenarios/sweeps/kakumeijin_nested.yaml"] == "sweep template"
    assert kinds["scenarios/corpus.yaml"] == kinds["scenarios/corpus.d/attack.yaml"] == "rulings corpus"
    assert kinds["scenarios/rulings/cards/answers.yaml"] == "card file"
    q09 = next(e for e in doc["examples"] if e["path"].endswith("Q09_the_watch.yaml"))
    assert q09["name"] == load_yaml(SHIPPED / "rulings" / "Q09_the_watch.yaml")["name"]
    code, out, _ = run("examples", "rulings/Q0*", "sweeps/")
    listed = re.findall(r"^  (scenarios/\S+)", out, re.M)
    assert code == 0 and listed and all(re.match(r"scenarios/(rulings/Q0|sweeps/)", p) for p in listed)


def test_a_copied_subset_brings_the_files_it_reads_and_runs_there(tmp_path, monkeypatch):
    scenario = SHIPPED / "rulings" / "Q11e_cannot_be_broken.yaml"
    cards = load_yaml(scenario)["cards"]
    assert cards                                             # the test means something: it reads a card file
    code, out, _ = run("examples", "--copy", str(tmp_path / "ex"), "rulings/Q11e_cannot_be_broken.yaml")
    assert code == 0
    copied = {p.relative_to(tmp_path / "ex").as_posix() for p in (tmp_path / "ex").rglob("*") if p.is_file()}
    expected = {"rulings/Q11e_cannot_be_broken.yaml"} | {
        (scenario.parent / c).resolve().relative_to(SHIPPED).as_posix() for c in cards}
    assert copied == expected
    monkeypatch.chdir(tmp_path)
    code, out, err = run("explore", "ex/rulings/Q11e_cannot_be_broken.yaml", "--json")
    assert code == 0 and scenario_output(out)["file"] == "ex/rulings/Q11e_cannot_be_broken.yaml"
    # a second copy of the same files is fine; a file changed since is never overwritten
    assert run("examples", "--copy", "ex", "rulings/Q11e_cannot_be_broken.yaml")[0] == 0
    (tmp_path / "ex" / "rulings" / "Q11e_cannot_be_broken.yaml").write_text("name: mine\n")
    code, _, err = run("examples", "--copy", "ex", "rulings/Q1*")
    assert code == 2 and "Q11e_cannot_be_broken.yaml" in err and "other contents" in err
    assert not (tmp_path / "ex" / "rulings" / "Q12_kirifuda_dragon.yaml").exists()   # nothing copied
    code, _, err = run("examples", "rulings/Q99*")
    assert code == 2 and "rulings/Q99*" in err and "names no built-in example" in err


def test_a_built_in_path_works_from_a_folder_without_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("explore", "scenarios/rulings/Q09_the_watch.yaml", "--json")
    assert code == 0 and Path(scenario_output(out)["file"]) == SHIPPED / "rulings" / "Q09_the_watch.yaml"
    assert "scenarios/rulings/Q09_the_watch.yaml is not in this folder" in err
    code, out, err = run("explore", "scenarios/rulings/Q09_the_wach.yaml")
    assert code == 2 and "did you mean 'scenarios/rulings/Q09_the_watch.yaml'" in err
    # a file of the user's own with that path is theirs: read as it is
    mine = tmp_path / "scenarios" / "rulings"
    mine.mkdir(parents=True)
    (mine / "Q09_the_watch.yaml").write_text((SHIPPED / "rulings" / "Q06_winter_spiral.yaml").read_text())
    code, out, err = run("explore", "scenarios/rulings/Q09_the_watch.yaml", "--json")
    assert code == 0 and scenario_output(out)["scenario"].startswith("Q06") and not err


def test_every_help_example_path_names_a_shipped_file():
    named = [arg for line in help_examples() for arg in line if arg.startswith("scenarios/")]
    assert len(named) > 10
    for arg in named:
        assert (SHIPPED / arg.removeprefix("scenarios/")).exists(), arg


def test_the_default_database_of_a_built_in_template_is_written_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("sweep", "scenarios/sweeps/shield_saver_timing.yaml", "--max-seconds", "0.001", "--json")
    assert code == 3 and (tmp_path / "shield_saver_timing.sqlite").is_file()
    assert not (SHIPPED / "sweeps" / "shield_saver_timing.sqlite").exists()


# ---- from a wheel, outside the checkout -------------------------------------------------------------
CHEAP = ("explore", "check", "diff", "export", "examples", "cards")   # verify and sweep run for minutes: CI runs verify


@pytest.mark.slow
def test_the_help_examples_work_from_a_wheel_installed_elsewhere(tmp_path):
    dist, venv, work = tmp_path / "dist", tmp_path / "venv", tmp_path / "work"
    work.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(ROOT)],
                   check=True, cwd=tmp_path)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    (wheel,) = dist.glob("*.whl")
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    exe = str(venv / "bin" / "dmcheck")

    def dm(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([exe, *args], cwd=work, env=env, capture_output=True, text=True, timeout=600)

    listed = json.loads(dm("examples", "--json").stdout)
    assert Path(listed["root"]).is_relative_to(venv) and len(listed["examples"]) > 100
    assert dm("sweep", "scenarios/sweeps/kakumeijin_nested.yaml", "--max-seconds", "0.001").returncode == 3
    assert (work / "kakumeijin_nested.sqlite").is_file()
    ran = 0
    # the examples command last: its `--copy scenarios` would hide the installed copy from the others
    for line in sorted(help_examples(), key=lambda line: line[1] == "examples"):
        if line[1] not in CHEAP or "--corpus" in line:
            continue
        args = line[1:line.index(">")] if ">" in line else line[1:]
        done = dm(*args)
        assert done.returncode in (0, 1), (line, done.stderr)
        assert "not found" not in done.stderr and "Traceback" not in done.stderr, (line, done.stderr)
        ran += 1
    assert ran >= 12
    done = dm("explore", "scenarios/rulings/Q09_the_watch.yaml")    # copied by the examples' example
    assert done.returncode == 0 and "not in this folder" not in done.stderr      # the copy is read now
