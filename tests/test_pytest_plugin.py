"""The pytest plugin (dmcheck/pytest_plugin.py): a project's scenario files run as its tests.

A made-up rules repository holds a scenario that holds (Q06), one whose expectation is wrong
(tests/data/wrong_expectation.yaml: one shield breaks, where Q06 says two) and a card file, which is
no scenario. pytest runs in that repository, in its own process, with the plugin the package installs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import entry_points

import pytest
from conftest import DATA, ROOT


def _repo(tmp_path, ini: str):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(ROOT / "scenarios" / "rulings" / "Q06_winter_spiral.yaml", folder / "q06.yaml")
    shutil.copy(DATA / "wrong_expectation.yaml", folder / "wrong.yaml")
    shutil.copy(ROOT / "scenarios" / "rulings" / "cards" / "rulings.yaml", folder / "cards.yaml")
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n" + ini)
    return tmp_path


def _pytest(repo, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args], cwd=repo,
                          capture_output=True, text=True, timeout=300)


def test_the_plugin_is_installed_with_the_package():
    assert any(e.value == "dmcheck.pytest_plugin" for e in entry_points(group="pytest11"))


def test_scenarios_named_in_the_configuration_run_as_tests(tmp_path):
    repo = _repo(tmp_path, 'testpaths = ["scenarios"]\ndmcheck_scenarios = ["scenarios/*.yaml"]\n')
    done = _pytest(repo)
    assert done.returncode == 1, done.stdout
    assert "PASSED scenarios/q06.yaml::explore" in done.stdout
    assert "FAILED scenarios/wrong.yaml::explore" in done.stdout
    assert "cards.yaml" not in done.stdout                     # a card file is no scenario
    assert "FAIL always: {shields_broken: 1}" in done.stdout and "shortest trace:" in done.stdout
    assert "1 failed, 1 passed" in done.stdout


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_a_path_on_the_command_line_and_the_check_command(tmp_path):
    repo = _repo(tmp_path, 'dmcheck_command = "check"\ndmcheck_options = "--properties props.yaml"\n')
    shutil.copy(DATA / "properties" / "false_property.yaml", repo / "props.yaml")
    done = _pytest(repo, "--dmcheck", "scenarios/q06.yaml")
    assert done.returncode == 1 and "FAILED scenarios/q06.yaml::check" in done.stdout, done.stdout
    assert "FAIL nothing-breaks" in done.stdout and "shortest counterexample" in done.stdout
    assert "1 failed" in done.stdout and "wrong.yaml" not in done.stdout
    # without any of it, the plugin collects nothing
    done = _pytest(repo, "scenarios")
    assert done.returncode == 5 and "no tests ran" in done.stdout


def test_a_missing_path_given_with_dmcheck_is_named(tmp_path):
    """Issue 36, item 10: `pytest --dmcheck nosuch/` collected the current folder and said nothing."""
    repo = _repo(tmp_path, "")
    for given, words in (("nosuch/", "is no file or folder"), ("scenarios/nope*.yaml", "matches no file")):
        done = _pytest(repo, "--dmcheck", given)
        assert done.returncode == 4, done.stdout + done.stderr
        assert f"--dmcheck {given}: {words}" in done.stderr, done.stderr
