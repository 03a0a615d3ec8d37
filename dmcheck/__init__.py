"""The dmcheck application layer: the command line and its reports (thin: it calls the packages)."""

import time as _time

# When the command began, as near the process's start as Python code can see: a `--max-seconds`
# budget bounds the whole process, its imports included (dmcheck/stop.py).
STARTED = _time.monotonic()
