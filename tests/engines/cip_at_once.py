"""One rules bug: an S-Trigger creature's "when it enters" ability resolves at once, in the middle of
the shield check (SC5: it waits until every declared ability has been used)."""

from common import Engine, main


class CipAtOnce(Engine):
    name = "cip-at-once-bug"

    def apply(self, game, choice):
        what = choice.get("what") or [{}]
        if choice.get("decision") == "use" and isinstance(what[0], dict) and what[0].get("declare") == "S-Trigger":
            card = game.entry["position"]["cards"].get(what[0].get("card"))
            if card and game.cards[card]["type"] == "creature":
                game.notes.setdefault("entered", set()).add(what[0]["card"])
        return super().apply(game, choice)

    def offer(self, game):
        state = game.here["state"]
        entered = game.notes.get("entered", set())
        now = [p for p in state.get("pending", []) if p["source"] in entered and p["kind"] == "triggered"]
        if now and state.get("checking"):
            return [{"player": p["controller"], "kind": "resolve", "decision": "resolve", "what": [p],
                     "text": f"{p['controller']} resolves {p['ability']} at once"} for p in now]
        return super().offer(game)


if __name__ == "__main__":
    main(CipAtOnce)
