"""One rules bug: where both players' effects wait, the non-turn player's resolve first (R509.4a says the
turn player's go first)."""

from common import Engine, main


class NonTurnPlayerFirst(Engine):
    name = "tp-order-bug"

    def offer(self, game):
        turn = game.entry["position"]["turn"]
        choices = super().offer(game)
        waiting = [p for p in game.here["state"].get("pending", []) if p["controller"] != turn]
        if waiting and choices and all(c["kind"] == "resolve" and c["player"] == turn for c in choices):
            return [{"player": p["controller"], "kind": "resolve", "decision": "resolve", "what": [p],
                     "text": f"{p['controller']} resolves {p['ability']}"} for p in waiting]
        return choices


if __name__ == "__main__":
    main(NonTurnPlayerFirst)
