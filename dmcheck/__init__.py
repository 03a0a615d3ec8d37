"""dmcheck: the command line, its reports, and the Python API (`import dmcheck`; docs/api.md).

The API's names are imported on first use, so that `dmcheck --help` loads none of them.
"""

from __future__ import annotations

import importlib
import time as _time
from typing import Any

# When the command began, as near the process's start as Python code can see: a `--max-seconds`
# budget bounds the whole process, its imports included (dmcheck/cli/stop.py).
STARTED = _time.monotonic()

_HOME = {**dict.fromkeys(("Choice", "DmcheckError", "Exploration", "InputError", "Outcome", "Replay", "Scenario",
                          "State", "Step", "Verdict", "explore", "load", "replay"), "api"),
         **dict.fromkeys(("Run", "corpus_runs", "export_bundle", "read_bundle"), "engines.bundle"),
         **dict.fromkeys(("EngineReport", "Finding", "check_engine"), "engines.runner"),
         "EngineFailure": "engines.process"}
__all__ = ["Choice", "DmcheckError", "EngineFailure", "EngineReport", "Exploration", "Finding", "InputError", "Outcome",
           "Replay", "Run", "Scenario", "State", "Step", "Verdict", "check_engine", "corpus_runs", "explore",
           "export_bundle", "load", "read_bundle", "replay"]


def __getattr__(name: str) -> Any:
    """An API name, imported from its module the first time it is asked for."""
    if name not in _HOME:
        raise AttributeError(f"module 'dmcheck' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
