"""The conform protocol (docs/conform.md) for DMSIM, the Python duel simulator of the public repository
wabisabinuki/DMSIM (MIT for its code; read at commit 686c63e). Run it with a Python DMSIM runs on (3.12 or
newer) and the path of a DMSIM checkout:

    dmcheck conform --engine "python3.12 adapters/dmsim/adapter.py --dmsim-root PATH/TO/DMSIM" --bundle B.json

It imports DMSIM from that checkout and drives it (session.py): each scenario's position is put in
DMSIM's zones with DMSIM cards built from the bundle's card definitions (card_map.py, word_map.py: none
of DMSIM's card data is read), DMSIM's attack step is played, and every choice DMSIM asks for is
offered to dmcheck as a choice label (labels.py). What cannot be given to DMSIM with the same meaning
is answered `unsupported` with the reason. No code of DMSIM is copied here: it is imported and driven.

This program needs no dmcheck (it runs beside it, under another Python), only the standard library and
the DMSIM checkout. DMSIM prints as it plays: its output goes to standard error (or nowhere), never into
the protocol's standard output.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
NAME = "wabisabinuki/DMSIM (adapter)"


class Adapter:
    def __init__(self, root: str):
        sys.path.insert(0, str(HERE))
        sys.path.insert(1, root)
        import labels
        import session
        from word_map import Unsupported

        self.labels, self.session_mod, self.Unsupported = labels, session, Unsupported
        self.session: Any = None

    def answer(self, request: dict) -> dict:
        kind = request.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": "dmcheck-conform", "version": 1, "engine": NAME}
        if kind == "setup":
            return self.setup(request)
        if kind == "choices":
            return {"type": "choices", "choices": [label for label, _ in self.offers()]}
        if kind == "apply":
            return self.apply(request.get("choice") or {})
        if kind == "state":
            over = self.offers() == []
            return {"type": "state", "terminal": over, "outcome": self.session.outcome() if over else None}
        return {"type": "error", "message": f"unknown request {kind!r}"}

    def setup(self, request: dict) -> dict:
        if self.session is not None:
            self.session.close()
            self.session = None
        try:
            self.session = self.session_mod.Session(request)
            self.offers()            # the automatic steps: an `automatic` declaration is made now
        except self.Unsupported as exc:
            if self.session is not None:
                self.session.close()
                self.session = None
            return {"type": "unsupported", "reason": str(exc)}
        return {"type": "ready"}

    def offers(self) -> list[tuple[dict, Any]]:
        """DMSIM's next question as dmcheck labels, after answering the questions that are no choice."""
        s = self.session
        while True:
            q = s.question()
            if q is None:
                return []
            found = self.labels.offers(s, q)
            if len(found) == 1 and found[0][0] is self.labels.AUTOMATIC:
                self._give(found[0][1])
                continue
            if not found:
                raise self.Unsupported(f"DMSIM offers no option dmcheck knows at {q.prompt!r}")
            return found

    def _give(self, value: Any) -> None:
        from actions.attack_action import AttackAction

        if value is self.labels.SPLIT:     # the first half of a DMSIM question: its second half comes next
            self.session.split[id(self.session.now[1])] = True
            return
        if isinstance(value, AttackAction):   # `blocked` tells of the last attack (docs/scenario-format.md)
            self.session.attacked = True
            self.session.tally.blocked = False
        self.session.answer(value)

    def apply(self, choice: dict) -> dict:
        want = _key(choice)
        for label, value in self.offers():
            if _key(label) == want:
                self._give(value)
                return {"type": "applied"}
        return {"type": "refused", "reason": "DMSIM offers no such choice here"}


def _key(label: dict) -> str:
    what = label.get("what")
    if isinstance(what, list) and label.get("decision") in ("choose_shields", "declare"):
        what = sorted(what, key=lambda v: json.dumps(v, sort_keys=True))
    return json.dumps([label.get(k) for k in ("player", "kind", "decision")] + [what], sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dmsim-root", required=True, help="a DMSIM checkout (the folder with core/ and cards/)")
    parser.add_argument("--debug", action="store_true", help="let DMSIM's own printing go to standard error")
    args = parser.parse_args()
    if sys.version_info < (3, 12):
        sys.exit(f"DMSIM needs Python 3.12 or newer; this is {sys.version.split()[0]} (start the adapter with it)")
    if not (Path(args.dmsim_root) / "core" / "game_controller.py").is_file():
        sys.exit(f"{args.dmsim_root}: not a DMSIM checkout (no core/game_controller.py)")
    protocol: TextIO = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr if args.debug else open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    adapter = Adapter(str(Path(args.dmsim_root).resolve()))
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "bye":
            break
        protocol.write(json.dumps(adapter.answer(request), ensure_ascii=False) + "\n")
        protocol.flush()
    if adapter.session is not None:
        adapter.session.close()


if __name__ == "__main__":
    main()
