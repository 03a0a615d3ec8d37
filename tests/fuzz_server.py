"""A fork server for the fuzzing test (tests/test_fuzz_files.py): dmcheck imported once, then each case run
in a forked child with a memory limit and a time limit, so that thousands of cases cost a fork each, not
a Python start-up, and none can take the test's own process down.

Requests and answers are JSON lines on stdin and stdout. A request is {"argv": [...], "seconds": S,
"memory": BYTES, "empty_corpus": bool}; the answer {"code": exit code or null, "traceback": text or "",
"hang": bool, "signal": the signal that ended the child or null, "seconds": wall time}. The child runs
`dmcheck.main.main(argv)` with its output captured; `empty_corpus` replaces verify's built-in corpus by
no statement (a fuzzed rulings file or baseline is then all the work). Its memory limit is RLIMIT_AS at
what the child holds when it starts plus `memory`; its time limit is enforced here (SIGKILL).
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import sys
import time
import traceback


def _child(request: dict, write: int) -> None:
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):     # the protocol's pipes are the server's: what the child prints goes nowhere
        os.dup2(quiet, fd)
    vsize = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vsize + request["memory"], resource.RLIM_INFINITY))
    if request.get("empty_corpus"):
        import dmcheck.rulings.verify as V
        from dmcheck.rulings.corpus import Corpus
        V.builtin_corpus = lambda: Corpus(())
    from dmcheck.main import main
    out, err = io.StringIO(), io.StringIO()
    answer: dict = {"code": None, "traceback": ""}
    try:
        answer["code"] = int(main(request["argv"], out, err))
    except SystemExit as exc:           # argparse: a flag it cannot parse
        answer["code"] = exc.code if isinstance(exc.code, int) else 2
    except BaseException:               # noqa: BLE001 - what escapes dmcheck's main is the finding
        answer["traceback"] = traceback.format_exc()[-6000:]
    text = err.getvalue() + out.getvalue()
    if not answer["traceback"] and "Traceback (most recent call last)" in text:
        answer["traceback"] = text[-6000:]
    answer["stderr"] = err.getvalue()[-2000:]
    os.write(write, json.dumps(answer).encode())


def _run(request: dict) -> dict:
    read, write = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            _child(request, write)
        finally:
            os._exit(0)
    os.close(write)
    hang = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - start > request["seconds"]:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            hang, status = True, 0
            break
        time.sleep(0.005)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    answer = json.loads(data) if data else {"code": None, "traceback": ""}
    answer.update(hang=hang, seconds=round(time.monotonic() - start, 3),
                  signal=os.WTERMSIG(status) if not hang and os.WIFSIGNALED(status) else None)
    return answer


def _warm() -> None:
    """What every case would make first (the built-in card pool, the corpus, compiled schemas), made once
    here and inherited; nothing that makes a Z3 context (a child's Z3 starts as a process's does)."""
    from dmcheck.main import main
    from dmcheck.rulings.corpus import builtin_corpus
    builtin_corpus()
    scenario = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios", "rulings",
                            "Q09_the_watch.yaml")
    for argv in (["explore", scenario, "--jobs", "1"], ["cards"], ["export", scenario]):
        main(argv, io.StringIO(), io.StringIO())


def serve() -> None:
    _warm()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        print(json.dumps(_run(json.loads(line))), flush=True)


if __name__ == "__main__":
    serve()
