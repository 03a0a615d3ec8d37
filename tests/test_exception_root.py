"""One exception root: every exception class dmcheck defines that a user can meet derives from
`dmcheck.DmcheckError` (model/errors.py), so `except dmcheck.DmcheckError` catches whatever dmcheck raises
on purpose. The others are listed here with the reason they stand apart; a new class must be one or the other.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import dmcheck
from dmcheck.model.errors import DmcheckError

PACKAGES = ("dmcheck", "dmcheck.model", "dmcheck.explorer", "dmcheck.properties", "dmcheck.rulings")
APART = {
    # signals that never leave the module or command that raises them
    "dmcheck.cli.stop.TimeUp": "a BaseException on purpose, so that no `except Exception` swallows the time "
                               "budget; dmcheck/main.py turns it into an incomplete report",
    "dmcheck.properties.fasteval.Unsupported": "caught in the same module: the formula is left to Z3",
    "dmcheck.rulings.marco._Stop": "caught in the same module: the enumeration reports why it stopped",
    "dmcheck.explorer.limits.StepLimit": "caught by the search (explorer/bfs.py): it ends incomplete with the limit "
                                         "as its reason",
    "dmcheck.cli.stop.MemoryUp": "a BaseException like TimeUp, for the same reason: dmcheck/main.py turns it "
                                 "into an incomplete report",
    "dmcheck.rulings.farm.Lost": "caught in the same module: the main process does the dead worker's work itself",
    "dmcheck.cli.stop._Withdrawn": "raised in the main thread and caught there at once, as a command ends",
    "dmcheck.rulings.farm.Late": "caught by rulings/verify.py: the phase is reported as not finished",
    # where the root cannot be imported yet
    "dmcheck.explorer.replay.BadKey": "the explorer imports nothing of the project (docs/architecture.md); "
                                      "the API turns it into an InputError",
}


def _exception_classes() -> dict[str, type]:
    found = {}
    for package in PACKAGES:
        module = importlib.import_module(package)
        names = [package] + [m.name for m in pkgutil.walk_packages(module.__path__, package + ".")
                             if not m.name.endswith("__main__")]   # __main__ runs the command line
        for name in names:
            for cls in vars(importlib.import_module(name)).values():
                if inspect.isclass(cls) and issubclass(cls, BaseException) and cls.__module__ == name:
                    found[f"{name}.{cls.__qualname__}"] = cls
    return found


def test_every_exception_a_user_can_meet_derives_from_the_root():
    classes = _exception_classes()
    assert {"dmcheck.model.errors.InputError", "dmcheck.engines.process.EngineFailure"} <= set(classes)
    outside = sorted(name for name, cls in classes.items() if not issubclass(cls, DmcheckError) and name not in APART)
    assert outside == [], "derive these from DmcheckError, or list them in APART with the reason: " + ", ".join(outside)
    assert not [name for name in APART if name not in classes], "APART names a class that no longer exists"


def test_the_api_exports_the_root_and_what_check_engine_raises():
    assert dmcheck.DmcheckError is DmcheckError
    assert issubclass(dmcheck.InputError, dmcheck.DmcheckError)
    assert issubclass(dmcheck.EngineFailure, dmcheck.DmcheckError)
