"""A guardian process that ends what a sweep started once the sweep's driver is gone, SIGKILL included.

A local Ray instance is a tree of processes under the driver (its GCS server, raylet, workers and the
raylet's agents). Ray ends most of them when the driver dies, but not all: after a SIGKILL of the
driver, which no handler sees, the raylet's agents were left running. The guardian is a small
separate process (the same Python, stdlib only, in a session of its own so a Ctrl-C to the
terminal's group leaves it to finish its job) that notes the driver's descendants every half second
and, once the driver has ended however it ended, kills those still running (each checked by its start
time, so a reused pid is never hit). Linux only (it reads /proc); elsewhere there is no guardian.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = r"""
import os, signal, sys, time
driver, me = int(sys.argv[1]), os.getpid()

def stat(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return fields[0].decode(), int(fields[1]), int(fields[19])    # state, ppid, start time

seen = {}
while True:
    d = stat(driver)
    if d is None or d[0] in ("Z", "X"):
        break
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            s = stat(int(name))
            if s is not None:
                children.setdefault(s[1], []).append((int(name), s[2]))
    todo = [driver]
    while todo:
        for pid, start in children.get(todo.pop(), ()):
            if pid != me:
                seen[pid] = start
                todo.append(pid)
    time.sleep(0.5)
for pid, start in seen.items():
    s = stat(pid)
    if s is not None and s[2] == start and s[0] not in ("Z", "X"):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
"""


def start_guardian() -> subprocess.Popen | None:
    """Start the guardian of this process's descendants (None where /proc is not there to read)."""
    if not Path("/proc/self/stat").exists():
        return None
    return subprocess.Popen([sys.executable, "-c", _SCRIPT, str(os.getpid())], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
                            start_new_session=True)
