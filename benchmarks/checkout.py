"""Which checkout a benchmark measures: `dmcheck.model`, `dmcheck.explorer`, ... of a given folder.

The benchmarks time two checkouts side by side (this one and an older one, say `git worktree add
../base <commit>`), and the installed package is whichever one pip installed last. `use(root)` makes
the four packages of `root` the ones imported, whatever its layout: in the current layout they are installed
under `dmcheck.` (relative imports inside them); in older checkouts they were top-level packages (`model`, ...),
which are then aliased under `dmcheck.` so that one import line serves both.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from pathlib import Path

PACKAGES = ("model", "explorer", "properties", "rulings")


class _Checkout(importlib.abc.MetaPathFinder):
    """Finds `dmcheck.<package>[.<module>]` in one folder (before any installed copy)."""

    def __init__(self, root: Path):
        self.root = root
        self.old = '"dmcheck.model"' not in (root / "pyproject.toml").read_text(encoding="utf-8")

    def find_spec(self, name, path=None, target=None):
        parts = name.split(".")
        if len(parts) < 2 or parts[0] != "dmcheck" or parts[1] not in PACKAGES:
            return None
        if self.old:   # the module of the old name, under the new one too
            return importlib.util.spec_from_loader(name, _Same(".".join(parts[1:])))
        if len(parts) == 2:
            folder = self.root / parts[1]
            return importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                          submodule_search_locations=[str(folder)])
        return None   # a submodule: found through its package's __path__ (a folder of `root`)


class _Same(importlib.abc.Loader):
    """Gives the module already imported under its old name; the import system stamps the new name's
    spec on it, which exec_module undoes (the module keeps its own name, spec and path)."""

    _KEPT = ("__name__", "__spec__", "__loader__", "__package__", "__path__", "__file__", "__cached__")

    def __init__(self, old: str):
        self.old = old
        self.saved: dict = {}

    def create_module(self, spec):
        module = importlib.import_module(self.old)
        self.saved = {k: getattr(module, k) for k in self._KEPT if hasattr(module, k)}
        return module

    def exec_module(self, module) -> None:
        for key, value in self.saved.items():
            setattr(module, key, value)


def use(root: str | Path) -> None:
    """Import dmcheck's packages from `root` from now on (once per process: the first call wins)."""
    if any(isinstance(f, _Checkout) for f in sys.meta_path):
        return
    root = Path(root).resolve()
    sys.path.insert(0, str(root))
    sys.meta_path.insert(0, _Checkout(root))
