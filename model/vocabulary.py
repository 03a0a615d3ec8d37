"""The words a card file may use besides instructions: triggers, replacements and keywords.

Cards are data. Each ability is a trigger from TRIGGERS — or a pattern over events, of which each
word that watches an event is an alias (model/trigger_patterns.py) — or a replacement from REPLACES,
and an effect: a list of instructions, each a one-key mapping `{op: {arg: value}}`, whose words and
schemas are registered with their semantics in model/instructions/ (`card_words()`). The card
loader checks against both, so a user's card file fails with the line and the word it did not know.
"""

from __future__ import annotations

from typing import Final

from . import keyword_table

TRIGGERS = {
    "before_break": "before each break of this creature: one pending effect per shield chosen (R509.3, R603.7)",
    "enters": "when this creature is put into the battle zone (R112.3a for an S-Trigger creature)",
    "summoned": "when this creature is summoned (R701.3a), not when an effect puts it into the battle zone",
    "opponent_summons": "whenever an opponent summons a creature (R701.3a); not when an effect puts one",
    "opponent_creature_enters": "whenever a creature is put into an opponent's battle zone, summoned or not (R112.3a)",
    "you_draw": "whenever its controller draws a card, one trigger per card, the draw step's draw too (R114.2)",
    "you_charge": "whenever its controller charges a card from the hand into the mana zone (R701.8a)",
    "first_spell": "the first time its controller casts a spell each turn",
    "opponent_cast_or_summon": "when an opponent casts a spell or puts a creature into the battle zone",
    "destroyed": "when this card is destroyed: it reached the graveyard face up, with its characteristics (S003)",
    "own_dragon_destroyed": "when another own Dragon is destroyed (face up, with characteristics: Q12); "
                            "with `zone: graveyard` the ability watches from the graveyard",
    # the whole attack (scenarios/attack/)
    "attacks": "when this creature attacks (R506.3, A01)",
    "opponent_attacks": "when an opponent's creature attacks (R506.3; resolves after the turn player's, A22, A25)",
    "battle_win": "when this creature wins a battle; never on a tie (R508, A11)",
    "breaks": "when this creature breaks a shield: once per shield broken; a replaced break is no break (A17, A18)",
    "breaks_one_or_more": "when this creature breaks one or more shields: once per break (A17)",
    "own_creature_breaks": "whenever one of its controller's creatures breaks a shield, once per shield (A17)",
    "opponent_shield_leaves": "whenever a card leaves the opponent's shield zone by a break or a castle "
                              "going with its shield, once per card; waits for the shield check's uses (A20)",
    "ninja_strike": "Ninja Strike: declared from the hand by the non-turn player when an opponent's creature "
                    "attacks, at the time `ntp_declaration_time` says (R506.3, A07, A25); one per attack (A08); "
                    "from the mana zone too while a static `execute_from: mana` reaches its card (R110.4d)",
    "end_of_your_turn": "at the end of its controller's turn; one arriving during that step waits (R511.1, A13)",
    "start_of_your_turn": "at the start of its controller's turn, after he untapped his cards (R501.2; the "
                          "scenario must go on to the next turn: `until: next_turn_start`, model/turn.py)",
    # the turn player's hidden-zone declarations (model/declarations.py)
    "revolution_change": "Revolution Change: declared from the hand by the turn player when his creature meeting "
                         "the condition attacks, before anything resolves (R506.3, A03, A05); one per attack (A23)",
    "invasion": "Invasion: declared from the hand by the turn player when his creature meeting the condition "
                "attacks, before anything resolves; several per attack (R506.3, A05, A06)",
    "ninja_change": "Ninja Change: declared from the hand by the non-turn player with his Ninja Strike, at the "
                    "time `ntp_declaration_time` says; one per attack (A08)",
    "blocks": "when this creature blocks (R507.2-3, A26); resolves before the battle",
    "not_blocked": "when this creature attacks a player and is not blocked: no Blocker ability was used (R507.3c, A26)",
    "end_of_attack": "at the end of this creature's attack, in the end-of-attack step; not when it left the "
                     "battle zone during the attack, never after a turn skip (R510, A12)",
    # the rest of the game an attack touches (model/power.py, model/touch.py)
    "battle_lose": "when this creature loses a battle; on a tie both lose (703.4d, dmwiki 相打ち)",
    "attacked": "when this creature is attacked: at the attack's declaration, as the attack triggers (R506.3)",
    "own_attacked": "when one of its controller's creatures is attacked (R506.3)",
    "you_attacked": "when its controller is attacked (R506.3)",
    "blocked": "when this creature is blocked: once the block step is decided, before the battle (R507.3)",
    "attack_chance": "Attack Chance: a spell declared from the hand by the turn player when his creature meeting "
                     "the condition attacks, with his other declarations; any number per attack (R506.3)",
    "oni_end": "Oni End (鬼エンド): a spell declared from the hand when a creature attacks, if a player has no "
               "shields and the mana condition holds; the turn player at the trigger, the non-turn player in "
               "his Ninja Strike window (R506.3)",
    "kirifu_dash": "Kirifu Dash: declared from the hand at the end of the turn player's creature's attack if that "
                   "creature broke a shield during the attack and is still in the battle zone (R510)",
}

REPLACES = {
    "own_shield_break": "one of its controller's shields would be broken (Shield Saver; decided per shield, D2)",
    "fortified_shield_break": "the shield this castle fortifies would be broken by an opponent's creature (D2)",
    "self_break": "this creature would break a shield: its controller's replacement, decided first in his turn, "
                  "for every shield it breaks (a shield burn with `burn_shield`, A19)",
    "self_destroy": "this creature would be destroyed (R701.6a: the attempt still happens)",
    "self_leave": "this creature would leave the battle zone (EX Life)",
    "own_loss": "its controller would lose the game or the opponent would win (R104.2, A15)",
    "own_draw": "its controller would draw a card (R114.4, R609.6): offered for each card of a draw of several, "
                "its effect done before the next draw (R114.4a); what its effect draws is not replaced again",
}


# Keywords the engine reads (others, such as races and civilizations, are matched by name): rows of
# model/data/keywords.yaml (model/keyword_table.py), each naming the mechanism parameters it sets
KEYWORDS = keyword_table.KEYWORDS

# what the engine asks a card about (model/touch.py `has_keyword`, model/cards.py `CardDef.has`): a mechanism
# parameter of the keyword table (`redirect_block`), never a keyword's name; a name is still understood
Keyword = str

CANNOT_LEAVE: Final = "cannot_leave"
LINK_RELEASE: Final = "link_release"
IGNORED: Final = "Ignored"                    # the mark an `ignore` effect gives for the turn (State.granted)
# the keywords an effect may give that work once per copy (110.7 names Slayer, Power Attacker and Sympathy;
# of these only Slayer can be given, model/instructions/power.py GRANTABLE): given twice, had twice
STACKS: frozenset[str] = keyword_table.STACKS
EXTRA_BREAK: Final = "extra_breaks"
POWER_ATTACKER: Final = "attack_power"
ATTACKS_UNTAPPED: Final = "attacks_untapped_creatures"   # a permission (R101.2): the opponent's untapped too
NEO: Final = "neo"                            # 802: a creature that may be put as an evolution or alone
FORBIDDEN_RELEASE: Final = "release_when_unsealed"   # 809.1a: a pulse turns over when its last seal leaves
G_NEO: Final = "under_cards_leave_instead"    # 803: a NEO creature that loses its under-cards instead of leaving
STAR_EVOLUTION: Final = "top_card_leaves_instead"   # 813.1 (S204): when it would leave, only its top card leaves
SMAX: Final = "evolution_no_source"           # S207: an evolution creature needing no source
FORBIDDEN_STAR: Final = "evolution_source_optional"   # 813.1b: a star evolution creature needing no source
DREAM: Final = "dream_unique"                 # 817.1-817.2: a Dream card, one of a name per battle zone

# What a `declare` event's `ability` names: the shield-check keywords (SC2, SC3) and the hidden-zone
# abilities declared at an attack (R506.3). Patterns in scenarios are checked against this list.
NINJA_STRIKE = "Ninja Strike"
NINJA_CHANGE = "Ninja Change"
REVOLUTION_CHANGE = "Revolution Change"
INVASION = "Invasion"
# the trigger word of each hidden-zone ability declared at an attack, and the name its `declare` event gives
ATTACK_DECLARED = {"ninja_strike": NINJA_STRIKE, "ninja_change": NINJA_CHANGE,
                   "revolution_change": REVOLUTION_CHANGE, "invasion": INVASION,
                   "attack_chance": "Attack Chance", "oni_end": "Oni End", "kirifu_dash": "Kirifu Dash"}
# the abilities a shield check declares (SC2, SC3: model/instructions/shield_check.py); the engine's other
# keywords (Blocker, Charger, ...) are never declared, so a pattern naming them would match nothing
SHIELD_CHECK_DECLARED = tuple(keyword_table.name(p) for p in ("shield_trigger", "g_strike", "s_back", "sabaki",
                                                               "free_without_shields"))
# the parameter of the keywords that make a card an S-Trigger (SC2): Super S-Trigger and S-Trigger Plus too
S_TRIGGERS: tuple[Keyword, ...] = ("shield_trigger",)
