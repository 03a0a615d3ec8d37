"""`dmcheck examples`: the built-in scenarios, templates and rulings, listed and copied out.

This command lists the files shipped with dmcheck (dmcheck/cli/shipped.py: where they are, how a path
`scenarios/...` names one) and copies them out (`--copy DIR`, all or a subset) for a user to read, run
and start their own from.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
from pathlib import Path
from typing import Any, TextIO

from dmcheck.model.errors import InputError
from dmcheck.model.yamlio import load_yaml

from ..cli.exits import HELP, Exit
from ..cli.report import document, print_json
from ..cli.shipped import PREFIX, catalogue, shipped_root

EXAMPLES = """examples:
  dmcheck examples                                # every built-in scenario, template and rulings file
  dmcheck examples 'rulings/Q0*' sweeps/          # a subset: patterns or folders of the list
  dmcheck examples --copy scenarios               # copy them all into ./scenarios/ ...
  dmcheck explore scenarios/rulings/Q09_the_watch.yaml   # ... where every help example finds them
  dmcheck examples --copy my-examples rulings/Q09_the_watch.yaml   # one scenario and the card files it reads
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `examples` to the dmcheck subcommands."""
    p = subparsers.add_parser(
        "examples", help="list the built-in scenarios, sweep templates and rulings files, or copy them out",
        description="List the scenarios, sweep templates, card files and rulings files shipped with dmcheck "
                    "(the built-in corpus and every scenario it names), or copy them into a folder. The help "
                    "examples of every command name them as scenarios/...: such a path that does not exist in "
                    "the current folder is read from the installed copy.",
        epilog=EXAMPLES + "\n" + HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("patterns", nargs="*", metavar="PATTERN",
                   help="only these: a path of the list (with or without scenarios/), a folder of it, or a "
                        "glob pattern such as 'rulings/Q0*' (quote it)")
    p.add_argument("--copy", metavar="DIR",
                   help="copy the files into DIR (created if missing), keeping their folders, with every card "
                        "file and scenario they read; a file already there with other contents is refused")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: {schema_version, command, root, examples, copied, errors}")
    p.set_defaults(run=run)
    return p


def _selected(items: list[dict[str, str]], patterns: list[str]) -> list[dict[str, str]]:
    """The items the patterns name (all without patterns); a pattern naming nothing is bad input."""
    if not patterns:
        return items
    chosen: dict[str, dict[str, str]] = {}
    for pattern in patterns:
        text = pattern.replace("\\", "/")
        text = text if text.startswith(PREFIX) else PREFIX + text
        folder = text.rstrip("/") + "/"
        hits = [i for i in items if i["path"] == text or i["path"].startswith(folder)
                or fnmatch.fnmatchcase(i["path"], text)]
        if not hits:
            raise InputError("examples", None, pattern, "names no built-in example; expected a path, folder or "
                                                        "pattern of `dmcheck examples`")
        chosen.update((i["path"], i) for i in hits)
    return [i for i in items if i["path"] in chosen]


def _needs(path: Path) -> list[Path]:
    """The shipped files a shipped file reads: a scenario's card files, a rulings file's scenarios."""
    try:
        data = load_yaml(path)
    except InputError:
        return []
    if not isinstance(data, dict):
        return []
    names = list(data.get("cards") or []) if isinstance(data.get("cards"), list) else []
    for statement in data.get("statements") or []:
        if isinstance(statement, dict):
            names += list(statement.get("scenarios") or [])
    found = [(path.parent / str(n)).resolve() for n in names if isinstance(n, str)]
    return [p for p in found if p.is_file() and p.is_relative_to(shipped_root())]


def closure(paths: list[Path]) -> list[Path]:
    """The files and everything they read, transitively, in path order."""
    seen: set[Path] = set()
    todo = list(paths)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += _needs(path)
    return sorted(seen)


def copy_out(paths: list[Path], target: Path) -> list[str]:
    """Copy shipped files into `target`, keeping their folders; refuse (before copying anything) a file
    already there with other contents, and a path inside `target` that a symbolic link leads out of it
    (the copy writes only inside the folder named). Returns the paths written or already the same,
    relative to target."""
    root = shipped_root()
    if target.exists() and not target.is_dir():
        raise InputError("--copy", None, str(target), "is a file; expected a folder to copy the examples into")
    plan = [(p, target / p.relative_to(root)) for p in paths]
    inside = target.resolve()
    for _, dest in plan:
        if not dest.resolve().is_relative_to(inside):
            raise InputError("--copy", None, str(target), f"{dest} leads out of {target} through a symbolic link; "
                                                          f"expected a folder whose paths stay inside it")
    clashes = [str(dest) for src, dest in plan if dest.exists() and (not dest.is_file()
                                                                     or dest.read_bytes() != src.read_bytes())]
    if clashes:
        raise InputError("--copy", None, str(target), f"{len(clashes)} file(s) already there with other contents "
                                                      f"(e.g. {clashes[0]}); expected a new folder, or one "
                                                      "holding the same files")
    try:
        for src, dest in plan:
            dest.parent.mkdir(parents=True, exist_ok=True)
            if not dest.exists():
                _write_new(dest, src.read_bytes())
    except OSError as exc:
        raise InputError("--copy", None, str(target), f"cannot write there ({exc.strerror or exc}); expected a "
                                                      f"folder dmcheck may write") from None
    return [dest.relative_to(target).as_posix() for _, dest in plan]


def _write_new(dest: Path, data: bytes) -> None:
    """Create `dest` with `data`, never through a symbolic link (a dangling one included)."""
    fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    items = _selected(catalogue(), args.patterns)
    copied: list[str] = []
    if args.copy:
        root = shipped_root()
        copied = copy_out(closure([root / i["path"][len(PREFIX):] for i in items]), Path(args.copy))
    if args.json:
        print_json(document("examples", root=str(shipped_root()), examples=items, copied=copied), out)
        return Exit.OK
    if args.copy:
        print(f"dmcheck examples: {len(copied)} files in {args.copy} ({len(items)} asked for, with the card files "
              "and scenarios they read)", file=out)
        return Exit.OK
    print(f"built-in examples, shipped in {shipped_root()} (dmcheck examples --copy DIR copies them out):", file=out)
    width = max((len(i["path"]) for i in items), default=0)
    for i in items:
        print(f"  {i['path']:<{width}}  {i['kind']}" + (f": {i['name']}" if i["name"] else ""), file=out)
    print(f"{len(items)} files; a path scenarios/... that is not in the current folder is read from there", file=out)
    return Exit.OK
