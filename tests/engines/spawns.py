"""A correct engine that starts a helper process of its own, as an adapter running an engine in another
interpreter would, and appends both process ids to the file named by $DMCHECK_TEST_PIDS. Its second
argument says how it misbehaves: `none`; `hang` (never answers `choices`); `crash` (dies on its first
apply, its helper left running); `slow` (takes 0.15 s over each answer)."""

import os
import subprocess
import sys
import time

from common import Engine


class Spawns(Engine):
    name = "spawns-a-helper"

    def __init__(self, bundle_path, mode):
        super().__init__(bundle_path)
        self.mode = mode
        helper = subprocess.Popen(["sleep", "600"])    # in the engine's own process group
        with open(os.environ["DMCHECK_TEST_PIDS"], "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n{helper.pid}\n")

    def answer(self, request):
        kind = request.get("type")
        if self.mode == "slow" and kind not in ("hello",):
            time.sleep(0.15)
        if self.mode == "hang" and kind == "choices":
            time.sleep(3600)
        if self.mode == "crash" and kind == "apply":
            raise RuntimeError("engine bug: no such card")
        return super().answer(request)


if __name__ == "__main__":
    Spawns(sys.argv[1], sys.argv[2]).serve()
