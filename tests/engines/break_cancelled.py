"""One rules bug: when the attacking creature leaves the battle zone before its break, the break is
cancelled (R509.4c and Q06 say the chosen shields are still broken)."""

from common import Engine, main


class BreakCancelled(Engine):
    name = "break-cancelled-bug"

    def apply(self, game, choice):
        if not super().apply(game, choice):
            return False
        attacker = game.entry["position"]["attack"]["attacker"]
        turn = game.entry["position"]["turn"]
        frames = game.here["state"].get("frames", [])
        if frames and not frames[0]["broken"] and attacker not in game.zones()[turn].get("battle", []):
            game.notes["cancelled"] = True
        return True

    def report(self, game):
        answer = super().report(game)
        out = answer["outcome"]
        if out is not None and game.notes.get("cancelled"):
            defender = "B" if game.entry["position"]["turn"] == "A" else "A"
            start = len(game.entry["position"]["zones"][defender].get("shields", []))
            answer["outcome"] = {"winner": out["winner"], "shields_broken": 0,
                                 "shields": dict(out["shields"], **{defender: start})}
        return answer


if __name__ == "__main__":
    main(BreakCancelled)
