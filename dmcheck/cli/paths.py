"""The paths a command reads and writes, checked once for every command before any work.

- No output may be one of the command's inputs (`dmcheck export q.yaml --out q.yaml` would replace the
  scenario with the bundle), nor another output: compared by the file they lead to, through symbolic
  and hard links, a folder given as input standing for its YAML files.
- Every output can be written, and is a file: a FIFO would block the command until somebody reads it.
- An input that is a FIFO, a device or a socket is refused from its status, never opened.
- The paths written *inside* files (a scenario's `cards:`, a rulings file's `scenarios:`) may lead only
  into the current folder, the folder of each file named on the command line (a folder named there),
  dmcheck's installed examples and the folders of `--allow-path DIR`, and never to an output: the
  confinement handed to the model's one reading function (model/yamlio.py `Confinement`).
"""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dmcheck.model.errors import InputError
from dmcheck.model.yamlio import Confinement, file_problem

from .shipped import shipped_root

# every flag that names a file dmcheck writes (attribute, flag); `sweep` checks its default --db itself
OUTPUT_FLAGS = (("graph", "--graph"), ("html", "--html"), ("sarif", "--sarif"), ("junit", "--junit"),
                ("write_baseline", "--write-baseline"), ("db", "--db"), ("log", "--log"), ("out", "--out"))
# flags that name a folder dmcheck writes into (attribute, flag): export --out DIR/, examples --copy DIR
FOLDER_FLAGS = (("copy", "--copy"),)
# every flag or argument that names a file (or a folder of them) dmcheck reads, which no output may overwrite
INPUT_FLAGS = ("files", "file", "template", "properties", "rulings", "baseline", "bundle")


def add_allow_path(p: argparse.ArgumentParser) -> None:
    """`--allow-path DIR`, on every command."""
    p.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                   help="a folder the paths written inside files (a scenario's cards:, a rulings file's "
                        "scenarios:) may lead into, beside the current folder, the folders of the files named "
                        "here and dmcheck's examples (repeatable; docs/limits.md)")


def _values(args: argparse.Namespace, name: str) -> list[str]:
    value = getattr(args, name, None)
    return [value] if isinstance(value, str) else [str(v) for v in value or []]


def inputs(args: argparse.Namespace) -> list[str]:
    """Every path named on the command line for reading, as given (after the built-in examples' paths)."""
    return [item for name in INPUT_FLAGS for item in _values(args, name)]


def _identities(path: str) -> set:
    """What a path leads to: its resolved name and, for a file that exists, its device and inode (a hard
    link has another name)."""
    found: set = {os.path.realpath(path)}
    try:
        st = os.stat(path)
        found.add((st.st_dev, st.st_ino))
    except (OSError, ValueError):
        pass
    return found


def _input_files(path: str) -> Iterator[str]:
    """A file named as input, or the YAML files of a folder named so (what the commands read of it)."""
    if os.path.isdir(path):
        yield from (str(p) for p in sorted(Path(path).glob("*.yaml")) if p.is_file())
    else:
        yield path


def check_paths(args: argparse.Namespace) -> None:
    """Inputs, outputs and `--allow-path`, before any work (see the module docstring)."""
    seen: dict[Any, str] = {}
    for item in inputs(args):
        problem = file_problem(Path(item))
        if problem.startswith("is a") and problem != "is a directory":     # a FIFO, a device, a socket
            raise InputError(item, None, "", problem.replace("a regular file", "a file to read (a regular file)"))
        for file in _input_files(item):
            for identity in _identities(file):
                seen.setdefault(identity, "an input file")
    for attribute, flag in OUTPUT_FLAGS + FOLDER_FLAGS:
        value = getattr(args, attribute, None)
        if value is None:
            continue
        if attribute == "copy" or (attribute == "out" and _names_folder(value)):
            check_folder(flag, value)
            continue
        check_output(flag, value, database=(attribute == "db"))
        device = os.path.exists(value) and not os.path.isfile(value)     # /dev/null takes any number
        for identity in _identities(value):
            if identity in seen and not device:
                raise InputError(flag, None, "", f"{value} is also {seen[identity]}; expected a file of its own")
        for identity in _identities(value):
            seen[identity] = f"written by {flag}"
    for folder in getattr(args, "allow_path", None) or []:
        if not os.path.isdir(folder):
            raise InputError("--allow-path", None, "", f"{folder} is not a folder; expected a folder that exists")


def check_not_inputs(flag: str, paths: list[str], args: argparse.Namespace) -> None:
    """Files about to be written into a folder output (`export --out DIR/`) are none of the inputs."""
    read = {identity for item in inputs(args) for file in _input_files(item) for identity in _identities(file)}
    for path in paths:
        if _identities(path) & read:
            raise InputError(flag, None, "", f"{path} is also an input file; expected a file of its own")


def _names_folder(value: str) -> bool:
    """Whether `export --out` names a folder: an existing one, or a name ending in a slash."""
    return os.path.isdir(value) or value.endswith(("/", "\\"))


def check_folder(flag: str, value: str) -> None:
    """A folder to write files into: one that exists (not a file), or one whose parent does."""
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise InputError(flag, None, "", f"{value.rstrip('/')} is a file; expected a folder to write into (or a "
                                         f"new folder's name)")
    parent = path if path.is_dir() else path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(flag, None, "", f"cannot write into {value}: no permission to create files in {parent}; "
                                         f"expected a folder dmcheck may write")


def check_output(flag: str, value: str, database: bool = False) -> None:
    """An output path is refused unless a file can be written there (a database also needs its folder:
    SQLite writes its journal beside it)."""
    path = Path(value)
    if not value.strip():
        raise InputError(flag, None, "", "expected a file name to write, got nothing")
    if path.is_dir():
        raise InputError(flag, None, "", f"{value} is a directory; expected a file name to write")
    folder = path.parent
    if not folder.exists():
        raise InputError(flag, None, "", f"the folder {folder} does not exist; expected a file in an existing folder")
    if not folder.is_dir():
        raise InputError(flag, None, "", f"{folder} is not a folder; expected a file in an existing folder")
    problem = _unwritable(path, database)
    if problem:
        raise InputError(flag, None, "", f"cannot write {value}: {problem}; expected a file dmcheck may write")


def _unwritable(path: Path, database: bool) -> str:
    """Why the file cannot be written ('' when it can): tried for real, as permissions, a read-only
    file system or a special folder (/proc) all stop a write that os.access may let through. A FIFO or a
    socket is refused from its status (opening a FIFO waits for a reader), and so is any device as a
    database."""
    folder_needed = database or not path.exists()
    if folder_needed and not os.access(path.parent, os.W_OK | os.X_OK):
        return f"no permission to create files in {path.parent}"
    if path.exists():
        mode = path.stat().st_mode
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (database and not stat.S_ISREG(mode)):
            return f"it is {file_problem(path).removeprefix('is ').split(';')[0]}, not a file"
        if not os.access(path, os.W_OK):
            return "no permission to write it"
        try:
            with open(path, "a", encoding="utf-8"):
                return ""
        except OSError as exc:
            return f"it cannot be opened for writing ({exc.strerror or exc})"
    try:
        with open(path, "x", encoding="utf-8"):
            pass
        path.unlink()
    except OSError as exc:
        return f"no file can be created in {path.parent} ({exc.strerror or exc})"
    return ""


def confinement(args: argparse.Namespace) -> Confinement:
    """Where the paths inside this command's files may lead (model/yamlio.py reads them under it)."""
    roots = [Path.cwd().resolve(), shipped_root()]
    for item in inputs(args):
        path = Path(item)
        roots.append((path if path.is_dir() else path.parent).resolve())
    roots += [Path(folder).resolve() for folder in getattr(args, "allow_path", None) or []]
    written = {}
    for attribute, flag in OUTPUT_FLAGS:
        value = getattr(args, attribute, None)
        if value is not None and not (attribute == "out" and _names_folder(value)):
            written[os.path.realpath(value)] = flag
    return Confinement(tuple(dict.fromkeys(roots)), written)
