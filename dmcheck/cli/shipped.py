"""The built-in examples: the scenarios, templates and rulings shipped inside the installed package.

dmcheck ships its rulings corpus and every scenario it names inside the installed package (the
repository's scenarios/ folder, installed as `dmcheck.rulings.scenarios`), so a wheel install runs the same
job as a checkout. The paths `scenarios/...` that the commands' help examples and the docs use name these
files: a FILE argument `scenarios/X` that does not exist in the current folder is read from the shipped
folder instead (`resolve_shipped`), and stderr says so. `dmcheck examples` lists and copies them
(dmcheck/commands/examples.py).
"""

from __future__ import annotations

import re
from pathlib import Path

from dmcheck.model.errors import InputError, did_you_mean

PREFIX = "scenarios/"      # how the help examples and the docs name a shipped file
PATHS_NOTE = ("\na path scenarios/... names a built-in example: when it is not in the current folder, dmcheck\n"
              "reads its installed copy ('dmcheck examples' lists them; --copy DIR copies them out)\n")


def shipped_root() -> Path:
    """The folder of the built-in corpus and scenarios: inside the installed package, or the checkout's."""
    from dmcheck.rulings.corpus import BUILTIN  # here: explore needs no corpus module at start-up
    return BUILTIN.parent.resolve()


def resolve_shipped(name: str) -> Path | None:
    """The shipped file or folder a path `scenarios/X` names, when it does not exist here (else None);
    InputError, with the closest built-in paths, when it is no built-in example either."""
    text = name.replace("\\", "/")
    if not text.startswith(PREFIX) or Path(name).exists():
        return None
    target = shipped_root() / text[len(PREFIX):]
    if target.exists() and target.resolve().is_relative_to(shipped_root()):
        return target
    raise InputError(name, None, "", "file not found, here or among dmcheck's built-in examples"
                     + did_you_mean(text, [i["path"] for i in catalogue()]) + "; `dmcheck examples` lists them")


def _kind(rel: str) -> str:
    parts = rel.split("/")
    if rel == "corpus.yaml" or parts[0] == "corpus.d":
        return "rulings corpus"
    if "cards" in parts[:-1]:
        return "card file"
    if parts[0] == "sweeps":
        return "sweep template"
    if parts[0] == "yours":
        return {"rulings.yaml": "rulings file", "properties.yaml": "properties file"}.get(parts[-1], "scenario")
    return "scenario"


_NAME = re.compile(r"^name:[ \t]*(.+?)[ \t]*$", re.M)


def _name(path: Path) -> str:
    found = _NAME.search(path.read_text(encoding="utf-8"))
    return found.group(1).strip("'\"") if found else ""


def catalogue() -> list[dict[str, str]]:
    """Every shipped YAML file: its path as the docs write it, its kind and its name, in path order."""
    root = shipped_root()
    out = []
    for path in sorted(root.rglob("*.yaml"), key=lambda p: p.relative_to(root).as_posix()):
        rel = path.relative_to(root).as_posix()
        out.append({"path": PREFIX + rel, "kind": _kind(rel), "name": _name(path)})
    return out


def shown_path(path: str | Path) -> str:
    """A file as a command the user types names it: relative to the current folder when it lies below
    it, `scenarios/X` for a built-in example (commands read those from the installed copy), else
    absolute."""
    p = Path(path).resolve()
    for base, prefix in ((Path.cwd().resolve(), ""), (shipped_root(), PREFIX)):
        if p.is_relative_to(base):
            return prefix + p.relative_to(base).as_posix()
    return str(p)


def replay_command(scenario: str | Path, rules: str, key: str, readings: dict[str, str] | None = None) -> str:
    """The command that prints a trace step by step: the scenario file, its rules date, the readings
    that are not the defaults, and the replay key (every replay key dmcheck prints comes with it)."""
    flags = "".join(f" --interpretation {k}={v}" for k, v in sorted((readings or {}).items()))
    when = f" --rules {rules}" if rules else ""
    return f"dmcheck explore {shown_path(scenario)}{when}{flags} --replay {key}"
