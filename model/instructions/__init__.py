"""Card instructions: one module per family, each word registered once with schema, semantics, footprint.

Importing the package registers every instruction (registry.OPS); the procedure and the card loader
import it, never the other way round.
"""

from . import attack_end, attacking, breaking, declaring, destruction, effects, game_end, shield_check  # noqa: F401  (registration)
from . import pile_moves, piles  # noqa: F401  (registration: cards made of several cards, issue 23)
from . import conditions, deck, hidden, power  # noqa: F401  (registration: issue 24's words)
from .registry import OPS, card_words  # noqa: F401
