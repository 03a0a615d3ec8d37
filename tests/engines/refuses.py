"""An engine that offers the bundle's choices but refuses to resolve any waiting effect it offered."""

from common import Engine, main


class Refuses(Engine):
    name = "refuses"

    def apply(self, game, choice):
        return False if choice.get("kind") == "resolve" else super().apply(game, choice)


if __name__ == "__main__":
    main(Refuses)
