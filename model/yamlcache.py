"""Parsed YAML kept between runs: a file whose text was parsed and checked before is not parsed again.

ruamel's round-trip parser (the one that keeps line numbers for error messages) is pure Python: it
was a quarter of `verify`'s CPU and half a second of every command's start (the built-in card pool).
A document that parsed and passed the checks of yamlio.load_yaml is stored, pickled, under the hash
of its text; the same text later is unpickled instead (a hundredth of the time). Only successful
parses are stored, so every error is still found and reported by the parser itself.

The cache lives in `$DMCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/dmcheck`, else `~/.cache/dmcheck`;
`DMCHECK_CACHE_DIR=off` turns it off. Unpickling runs code named by the file, so an entry is read
only from a folder and a file owned by this user and writable by nobody else; anything else (an
unreadable, corrupt or foreign entry, a folder that cannot be made) is ignored, and the file parsed.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

FORMAT = 2   # raise when what load_yaml checks or returns changes (2: a tag must fit its node)


def _folder() -> Path | None:
    chosen = os.environ.get("DMCHECK_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dmcheck"


@lru_cache(maxsize=1)
def _ruamel() -> str:
    """ruamel's version, looked up once (a metadata look-up costs milliseconds, and every read asks)."""
    try:
        return metadata.version("ruamel.yaml")
    except metadata.PackageNotFoundError:   # pragma: no cover - a dependency
        return "?"


def _key(text: str) -> str:
    return hashlib.sha256(f"{FORMAT}\0{_ruamel()}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()


def _trusted(path: Path) -> bool:
    """Owned by this user and writable by nobody else (the folder too)."""
    try:
        for p in (path.parent, path):
            st = p.stat()
            if st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return False
    except OSError:
        return False
    return True


def get(text: str) -> Any:
    """The stored parse of `text`, or None."""
    folder = _folder()
    if folder is None:
        return None
    path = folder / f"{_key(text)}.pickle"
    if not path.is_file() or not _trusted(path):
        return None
    try:
        return pickle.loads(path.read_bytes())
    except Exception:   # a corrupt or stale entry: parse again (and store it anew)
        return None


def put(text: str, value: Any) -> None:
    """Store the parse of `text`; any failure only means the next run parses again."""
    folder = _folder()
    if folder is None:
        return
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, folder / f"{_key(text)}.pickle")   # whole or not at all, also with two writers
    except Exception:
        return


def read(name: str) -> Any:
    """Another stored value (`name`: a file name in the cache folder), with the same trust rules as a
    parse; None when there is none or it cannot be trusted (verify's results: rulings/cache.py)."""
    folder = _folder()
    if folder is None:
        return None
    path = folder / name
    if not path.is_file() or not _trusted(path):
        return None
    try:
        return pickle.loads(path.read_bytes())
    except Exception:
        return None


def write(name: str, value: Any) -> bool:
    """Store a value under `name`, whole or not at all; False when the cache is off or cannot be written."""
    folder = _folder()
    if folder is None:
        return False
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, folder / name)
        return True
    except Exception:
        return False


def where() -> Path | None:
    """The cache folder, or None when the cache is off."""
    return _folder()
