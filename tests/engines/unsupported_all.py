"""An engine that supports no scenario: every setup is answered `unsupported` (a run that checks nothing)."""

from common import Engine


class SupportsNothing(Engine):
    name = "supports-nothing"

    def __init__(self):
        self.entries, self.cards, self.game = {}, {}, None


if __name__ == "__main__":
    SupportsNothing().serve()
