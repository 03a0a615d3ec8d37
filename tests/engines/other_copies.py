"""A correct engine that names cards its own way: where the bundle groups identical cards (`copies`), it
names the highest copies of each group instead of the lowest, and it lists the items of every choice
in reverse order. dmcheck must still find it conforming (docs/conform.md, comparing choices)."""

from common import FIELDS, Engine, main


class OtherCopies(Engine):
    name = "other-copies"

    def offer(self, game):
        groups = game.here.get("copies", [])
        out = []
        for c in super().offer(game):
            what = [self.rename(x, groups) for x in c["what"]] if isinstance(c["what"], list) else c["what"]
            if c["decision"] in ("choose_shields", "break_shields", "discard", "declare", "shield_to_hand"):
                what = list(reversed(what))
            out.append(dict({k: c[k] for k in FIELDS}, what=what))
        return out

    @staticmethod
    def rename(card, groups):
        for group in groups:
            if card in group:
                return group[len(group) - 1 - group.index(card)]
        return card


if __name__ == "__main__":
    main(OtherCopies)
