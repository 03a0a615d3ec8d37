"""Card instructions: one module per family, each word registered once with schema, semantics, footprint.

Importing the package registers every instruction (registry.OPS); the procedure and the card loader
import it, never the other way round.
"""

from . import (  # noqa: F401  (registration)  # noqa: F401  (registration: cards made of several cards, issue 23)  # noqa: F401  (registration: issue 24's words)
    attack_end,
    attacking,
    breaking,
    conditions,
    deck,
    declaring,
    destruction,
    effects,
    game_end,
    hidden,
    pile_moves,
    piles,
    power,
    shield_check,
)
from .registry import OPS, card_words  # noqa: F401
