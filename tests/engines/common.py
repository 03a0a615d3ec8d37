"""What the test engines share: the conform protocol loop, and a game driven by a bundle's own data.

These engines stand in for a real one in tests/test_conform.py. They never import dmcheck: the correct
one walks the bundle it is given (its states, choices and outcomes), and each deviant one changes that
walk in one place, the way an engine with one rules bug would behave. Run as
`python ENGINE.py BUNDLE.json`; it reads one JSON request per line on stdin and answers on stdout.
"""

from __future__ import annotations

import json
import sys

FIELDS = ("player", "kind", "decision", "what")


class Game:
    """One scenario run being played: the bundle entry, the node reached, the nodes passed."""

    def __init__(self, entry: dict, cards: dict):
        self.entry, self.cards = entry, cards
        self.node = 0
        self.path = [0]
        self.notes: dict = {}          # what a deviant engine remembers along the way

    @property
    def here(self) -> dict:
        return self.entry["nodes"][self.node]

    def zones(self, node: int | None = None) -> dict:
        """The zones of a node: the position's, with the node's changed zones laid over them."""
        base = json.loads(json.dumps(self.entry["position"]["zones"]))
        changed = self.entry["nodes"][self.node if node is None else node]["state"]["zones"]
        for player, zones in changed.items():
            base.setdefault(player, {}).update(zones)
        return base

    def outcome(self) -> dict | None:
        index = self.here.get("outcome")
        return None if index is None else dict(self.entry["outcomes"][index]["outcome"])


class Engine:
    """A correct engine: offers the bundle's choices, applies them, reports the bundle's outcomes.
    Deviant engines override `offer`, `apply` or `report`."""

    name = "bundle-engine"
    protocol = ("dmcheck-conform", 1)

    def __init__(self, bundle_path: str):
        with open(bundle_path, encoding="utf-8") as f:
            data = json.load(f)
        self.entries = {e["id"]: e for e in data["scenarios"]}
        self.cards = data["cards"]
        self.game: Game | None = None

    def offer(self, game: Game) -> list[dict]:
        return [{k: c[k] for k in FIELDS + ("text",)} for c in game.here["choices"]]

    def apply(self, game: Game, choice: dict) -> bool:
        for c in game.here["choices"]:
            if all(c[k] == choice.get(k) for k in FIELDS) and c["to"] is not None:
                game.node = c["to"]
                game.path.append(game.node)
                return True
        return False

    def report(self, game: Game) -> dict:
        out = game.outcome()
        return {"type": "state", "terminal": out is not None, "outcome": out}

    def answer(self, request: dict) -> dict | None:
        kind = request.get("type")
        if kind == "hello":
            return {"type": "hello", "protocol": self.protocol[0], "version": self.protocol[1], "engine": self.name}
        if kind == "setup":
            entry = self.entries.get(request.get("scenario"))
            if entry is None:
                return {"type": "unsupported", "reason": "not in my bundle"}
            self.game = Game(entry, self.cards)
            return {"type": "ready"}
        if kind == "choices":
            return {"type": "choices", "choices": self.offer(self.game)}
        if kind == "apply":
            ok = self.apply(self.game, request.get("choice") or {})
            return {"type": "applied"} if ok else {"type": "refused", "reason": "not a choice here"}
        if kind == "state":
            return self.report(self.game)
        return None

    def serve(self) -> None:
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("type") == "bye":
                return
            reply = self.answer(request)   # a str is written as it is (a garbage engine's answer)
            sys.stdout.write((reply if isinstance(reply, str) else json.dumps(reply)) + "\n")
            sys.stdout.flush()


def main(engine_class: type) -> None:
    engine_class(sys.argv[1]).serve()
