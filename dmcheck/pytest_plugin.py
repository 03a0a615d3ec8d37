"""A pytest plugin: a rules or engine repository's scenario files run as tests (docs/ci.md).

Installed with dmcheck (entry point `pytest11`), it does nothing until a project names its scenarios,
in its pytest configuration or on the command line:

    [tool.pytest.ini_options]
    testpaths = ["tests", "scenarios"]               # pytest must visit the scenarios' folder
    dmcheck_scenarios = ["scenarios/**/*.yaml"]     # glob patterns, relative to the rootdir
    dmcheck_command = "check"                        # explore (default: the expectations) or check
    dmcheck_options = "--rules 2024-06-19"           # any other options of that command

    pytest --dmcheck scenarios/rulings/              # or: a file, folder or pattern, repeatable

Each scenario file is one test, run exactly as `dmcheck COMMAND FILE` would: it passes when the command
exits 0, and a failure shows dmcheck's report (the failing check with its shortest trace). A search cut
by a limit, or a property the solver could not decide, fails too: it is no pass. YAML files that are
no scenario (card files, sweep templates, rulings files: no `attack:` key at the top) are not collected.
"""

from __future__ import annotations

import fnmatch
import glob
import io
import re
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from dmcheck.model.errors import DmcheckError

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr  # what pytest's own repr_failure may return

_SCENARIO = re.compile(r"^attack:", re.M)
_NOT_SCENARIO = re.compile(r"^(vary|statements|cards|properties):", re.M)


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("dmcheck", "dmcheck scenarios as tests")
    group.addoption("--dmcheck", action="append", default=[], metavar="PATH",
                    help="run these scenario files as tests (a file, a folder or a glob pattern; repeatable)")
    parser.addini("dmcheck_scenarios", type="args", default=[],
                  help="glob patterns (relative to the rootdir) of scenario files to run as tests")
    parser.addini("dmcheck_command", default="explore", help="explore (the expectations) or check (also the "
                                                                "rules properties)")
    parser.addini("dmcheck_options", default="", help="other options of the dmcheck command, e.g. --rules DATE")


def _patterns(config: Any) -> list[str]:
    """Absolute glob patterns of the files to collect: the ini's and --dmcheck's (a folder: its *.yaml)."""
    root = Path(str(config.rootpath))
    out = [str(root / p) for p in config.getini("dmcheck_scenarios")]
    for given in config.getoption("dmcheck"):
        path = Path(given) if Path(given).is_absolute() else Path.cwd() / given
        out.append(str(path / "*.yaml") if path.is_dir() else str(path))
    return out


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    patterns = _patterns(parent.config)
    if file_path.suffix != ".yaml" or not any(fnmatch.fnmatch(str(file_path), p) for p in patterns):
        return None
    text = file_path.read_text(encoding="utf-8", errors="replace")
    if not _SCENARIO.search(text) or _NOT_SCENARIO.search(text):
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


def pytest_configure(config: Any) -> None:
    """A path given with --dmcheck is collected too (the ini's patterns match within what pytest collects:
    its arguments or `testpaths`)."""
    for given in config.getoption("dmcheck", default=[]):
        pattern = any(c in given for c in "*?[")
        if not (glob.glob(given, recursive=True) if pattern else Path(given).exists()):
            what = "matches no file" if pattern else "is no file or folder"
            raise pytest.UsageError(f"--dmcheck {given}: {what} (from {Path.cwd()}); expected a scenario file, a "
                                    f"folder of them or a glob pattern matching some")
        base = re.split(r"[*?[]", given, maxsplit=1)[0] if pattern else given
        path = Path(base) if Path(base).exists() else Path(base).parent
        if str(path) not in config.args:
            config.args.append(str(path))


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.config.getini("dmcheck_command") or "explore")


class ScenarioError(DmcheckError):
    """A scenario that did not pass: dmcheck's report and its exit code."""


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from .main import main

        command = self.name
        argv = [command, str(self.path), "--jobs", "1", *shlex.split(self.config.getini("dmcheck_options"))]
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, out, err)
        if code != 0:
            raise ScenarioError(code, f"dmcheck {shlex.join(argv)} exited {code}", out.getvalue(), err.getvalue())

    def repr_failure(self, excinfo: Any, style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, ScenarioError):
            _, head, out, err = excinfo.value.args
            return "\n".join(part for part in (head, err.rstrip(), out.rstrip()) if part)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"dmcheck {self.name} {self.path.name}"
