"""A scenario as plain data: the position before the attack, the rules version, what must come out.

Built by `scenario_file.load_scenario` from a YAML file (docs/scenario-format.md), or directly by
tests and benchmarks. Card names are already resolved to pool ids here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from .cards import CardPool
from .main_plan import MainPlan

ZONE_KEYS = ("battle", "hand", "mana", "graveyard", "deck", "shields", "hyperspatial", "super_gr", "abyss")


@dataclass(frozen=True)
class PlayerSetup:
    battle: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    mana: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    deck: tuple[str, ...] = ("vanilla",) * 10
    shields: tuple[str, ...] = ("vanilla",) * 5
    hyperspatial: tuple[str, ...] = ()   # psychic creatures only (R407.1)
    super_gr: tuple[str, ...] = ()       # GR creatures only (R408.1), top first (a face-down pile, R408.2)
    abyss: tuple[str, ...] = ()          # cards sent to the abyss (R410.1), in no order (R410.3)
    # cards on other cards: (zone, index in that zone, kind, pool id); kinds: aura, seal, under and
    # ex_life on a battle-zone creature, castle on a shield; ("shields", i, "face_up", "") marks a
    # face-up shield
    extras: tuple[tuple[str, int, str, str], ...] = ()


@dataclass(frozen=True)
class Expectation:
    """One `expect` item: a kind and its value with names resolved; `raw` is what the file said."""

    kind: str      # always | never | sometimes | in_order | possible_order | never_order
    value: Any     # an outcome pattern (dict) or a list of event patterns
    raw: Any
    line: int | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    turn: str
    players: dict[str, PlayerSetup]
    attacker: str            # pool id of the attacking creature
    attacker_index: int      # which of the turn player's battle-zone cards of that id (0-based)
    defender: str
    pool: CardPool
    rules: dt.date | None = None
    readings: dict[str, str] = field(default_factory=dict)
    source: tuple[str, ...] = ()
    expect: tuple[Expectation, ...] = ()
    file: str = "<scenario>"
    # continuous restrictions on a player: {"B": {"no_s_trigger": True, "locked_types": ("spell",)}}
    restrictions: dict[str, dict] = field(default_factory=dict)
    # the whole attack (docs/scenario-extensions.md): the attacked creature (pool id, "" for the
    # player) and its index among the defender's tapped creatures of that id; how far to explore
    target: str = ""
    target_index: int = 0
    until: str = "end_attack"   # how far the game is played (model/turn_plan.py UNTIL)
    attacks: int | None = None  # the most attacks declared this turn (None: the default of `until`)
    main: MainPlan | None = None  # the charge and main steps played before the attack (model/main_plan.py)
