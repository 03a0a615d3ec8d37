"""Card instructions: one module per family, each word registered once with schema, semantics, footprint.

Importing the package registers every instruction (registry.OPS); the procedure and the card loader
import it, never the other way round.
"""

from . import (  # noqa: F401  (registration: importing each module registers its words)
    abyss,
    attack_end,
    attacking,
    battle_start,
    breaking,
    choosing,
    conditions,
    deck,
    declaring,
    delayed,
    destruction,
    draws,
    effects,
    gachinko,
    game_end,
    god_links,
    gr,
    hidden,
    hyper_mode,
    hyperspatial,
    keyword_process,
    modes,
    pending_entry,
    pile_moves,
    piles,
    power,
    restrict,
    seals,
    shield_check,
    under,
    whole_zone,
    zero_dragon,
)
from .registry import OPS, card_words  # noqa: F401
