"""Ctrl-C while the `dmcheck` command is still starting (its modules being imported, its command line
parsed): nothing has begun, so nothing is reported; the process ends at once with exit 130 (as
dmcheck/cli/exits.py's INTERRUPTED), never with a traceback from the middle of an import.

The entry point (dmcheck/__main__.py) calls `starting()` before it imports anything else of dmcheck;
dmcheck/main.py calls `begun()` as the command begins, and from then on Ctrl-C is the command's
(dmcheck/cli/stop.py: what was finished is reported). Only the standard library is imported here.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

INTERRUPTED = 130    # dmcheck/cli/exits.py Exit.INTERRUPTED, not imported: that module loads much more


def _leave(signum: int, frame: Any) -> None:
    os._exit(INTERRUPTED)


def starting() -> None:
    """Ctrl-C from now until `begun()` ends the process quietly (the main thread only can set it)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _leave)


def begun() -> None:
    """The command has begun: Ctrl-C raises KeyboardInterrupt again, for the command to report."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is _leave:
        signal.signal(signal.SIGINT, signal.default_int_handler)
