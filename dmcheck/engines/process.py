"""An external engine as a process speaking the conform protocol: one JSON object per line each way.

`dmcheck conform` asks, the engine answers (docs/conform.md): hello, setup, choices, apply, state,
bye. Everything that can go wrong with a process someone else wrote is caught here and turned into
an `EngineFailure` naming what was expected: a command that does not start, an answer that does not
come within the timeout (of one answer, or of the scenario run's budget), a process that exits, a line
that is not JSON or not the answer asked for. The caller decides whether that is bad input (exit 2: at
the handshake) or a finding (later).

The engine runs in a session of its own (so a Ctrl-C at the terminal reaches dmcheck only), and `close`
ends its whole process group whatever happened: an adapter's helpers or a wrapper's children go with it.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import IO, Any

from dmcheck.model.errors import DmcheckError

PROTOCOL = "dmcheck-conform"
PROTOCOL_VERSION = 1
MAX_LINE = 16 * 1024 * 1024     # an answer longer than this is garbage (no answer needs it)
POLL = 0.2                      # seconds between looks at whether a silent engine is still running
REPLIES = {"hello": {"hello"}, "setup": {"ready", "unsupported"}, "choices": {"choices"},
           "apply": {"applied", "refused"}, "state": {"state"}}


class EngineFailure(DmcheckError):
    """The engine did not answer as the protocol says: `kind` is crash, timeout, garbage or start."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class Engine:
    """One engine process: `ask` sends a request and returns the answer (a dict), or raises EngineFailure.
    `log`, when given, is told every line sent (`>`) and received (`<`)."""

    def __init__(self, command: str, timeout: float, log: Callable[[str, str], None] | None = None):
        self.command, self.timeout, self.log = command, timeout, log
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise EngineFailure("start", f"the engine command cannot be split into words: {exc}") from None
        if not argv:
            raise EngineFailure("start", "the engine command is empty")
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (the process's stderr, closed by close)
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                         bufsize=0, start_new_session=True)
        except OSError as exc:
            self.stderr.close()
            raise EngineFailure("start", f"the engine command {argv[0]!r} does not start: {exc.strerror or exc}") \
                from None
        # both are pipes (PIPE above), never None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        self.buffer = b""
        self.deadline, self.budget = math.inf, 0.0     # the scenario run's budget (`begin`)
        self.failed = False     # it crashed, hung or spoke out of protocol: the next run needs a fresh one
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.stdout, selectors.EVENT_READ)

    def begin(self, budget: float | None) -> None:
        """A scenario run starts: every answer from now on must come within `budget` seconds of now too."""
        self.budget = budget or 0.0
        self.deadline = time.monotonic() + budget if budget else math.inf

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read its answer; the answer's `type` must be one the request allows."""
        line = json.dumps(request, ensure_ascii=False, separators=(",", ":"))
        self._send(line)
        answer = self._line()
        try:
            data = json.loads(answer)
        except ValueError:
            raise EngineFailure("garbage", f"expected one JSON object per line answering {request['type']!r}, "
                                           f"got {_shown(answer)}") from None
        allowed = REPLIES.get(request["type"], set())
        if not isinstance(data, dict) or data.get("type") not in allowed:
            raise EngineFailure("garbage", f"expected an object with type {' or '.join(sorted(allowed))} "
                                           f"answering {request['type']!r}, got {_shown(answer)}")
        return data

    def _send(self, line: str) -> None:
        if self.log:
            self.log(">", line)
        try:
            self.stdin.write(line.encode("utf-8") + b"\n")
        except (BrokenPipeError, OSError):
            raise EngineFailure("crash", f"the engine stopped reading its input{self._exit_note()}") from None

    def _line(self) -> str:
        """The next line the engine writes, within the timeout."""
        deadline = min(time.monotonic() + self.timeout, self.deadline)
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                if deadline == self.deadline:
                    raise EngineFailure("timeout", f"the scenario run took more than its budget of {self.budget:g}s "
                                                   "(--scenario-budget); the engine was ended")
                raise EngineFailure("timeout", f"no answer within {self.timeout:g}s (--timeout)")
            if not self.selector.select(min(left, POLL)):
                # an engine that died while a process it started keeps the pipe open is a crash, not a hang
                if self.proc.poll() is not None:
                    raise EngineFailure("crash", f"the engine exited without answering{self._exit_note()}")
                continue
            chunk = os.read(self.stdout.fileno(), 65536)
            if not chunk:
                raise EngineFailure("crash", f"the engine closed its output{self._exit_note()}")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                raise EngineFailure("garbage", f"an answer longer than {MAX_LINE} bytes without a line end")
        line, _, self.buffer = self.buffer.partition(b"\n")
        text = line.decode("utf-8", errors="replace").strip()
        if self.log:
            self.log("<", text)
        return text

    def _exit_note(self) -> str:
        """How the process ended and the end of what it wrote on stderr, for a crash's message."""
        try:
            code = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return ""
        self.stderr.seek(0)
        tail = self.stderr.read()[-600:].decode("utf-8", errors="replace").strip()
        last = tail.splitlines()[-1] if tail else ""
        return f" (exit status {code}{'; stderr: ' + last if last else ''})"

    def close(self, graceful: bool = True) -> None:
        """End the engine: say bye and give it a second to exit when `graceful` (a healthy engine at the
        end), then end its whole process group in any case, also when that wait is interrupted (Ctrl-C)."""
        try:
            if graceful and self.proc.poll() is None:
                try:
                    self._send(json.dumps({"type": "bye"}))
                    self.stdin.close()
                    self.proc.wait(timeout=1)
                except (EngineFailure, subprocess.TimeoutExpired, OSError):
                    pass
        finally:
            self.kill()
            self.selector.close()
            self.stdout.close()
            with contextlib.suppress(OSError):
                self.stdin.close()
            self.stderr.close()

    def kill(self) -> None:
        """End every process of the engine's group (its session: the engine and whatever it started),
        and collect the engine's own exit status."""
        with contextlib.suppress(OSError):       # the group is gone already
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


def _shown(text: str) -> str:
    return repr(text if len(text) <= 120 else text[:120] + "...")


def handshake(engine: Engine) -> dict[str, Any]:
    """Hello both ways; EngineFailure (kind `protocol`) when the engine speaks another protocol or version."""
    answer = engine.ask({"type": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION})
    if answer.get("protocol") != PROTOCOL or answer.get("version") != PROTOCOL_VERSION:
        raise EngineFailure("protocol", f"expected protocol {PROTOCOL!r} version {PROTOCOL_VERSION}, got "
                                        f"{answer.get('protocol')!r} version {answer.get('version')!r}")
    return answer
