"""The words a card file may use besides instructions: triggers, replacements and keywords.

Cards are data. Each ability is a trigger from TRIGGERS — or a pattern over events, of which each
word that watches an event is an alias (model/trigger_patterns.py) — or a replacement from REPLACES,
and an effect: a list of instructions, each a one-key mapping `{op: {arg: value}}`, whose words and
schemas are registered with their semantics in model/instructions/ (`card_words()`). The card
loader checks against both, so a user's card file fails with the line and the word it did not know.
"""

from __future__ import annotations

from typing import Final, Literal

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
                    "attacks, at the time `ntp_declaration_time` says (R506.3, A07, A25); one per attack (A08)",
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


# Keywords the engine reads (others, such as races and civilizations, are matched by name).
KEYWORDS = {
    "S-Trigger": "may be used for free when it comes from the shield zone in a shield check (SC2)",
    "G-Strike": "may be revealed in a shield check: one opponent creature cannot attack this turn; never fizzles",
    "S-Back:<civ>": "from the hand, discard a card of <civ> coming from the shields to summon this free (SC2)",
    "Sabaki Z": "discard a Judgement Crest that just came from the shields to cast this free (SC3)",
    "Judgement Crest": "what Sabaki Z discards",
    "Revolution 0": "coming from the shields when its owner has no shields: may be summoned free (SC3)",
    "Charger": "a spell that goes to the mana zone after it resolves",
    "Unbreakable": "this shield cannot be broken (the break does not happen; before-break still applies, Q11)",
    "Indestructible": "cannot be destroyed: the attempt happens, the card stays (R701.6a)",
    "Cannot Leave": "does not leave the battle zone (離れない): whatever would move it out leaves it there, and a "
                    "swap with it is not carried out (R701.26a, S150)",
    "Extra Break:+N": "this creature breaks N more shields (an additional break it has, such as a crossed Bajura's "
                      "Soul's); with the reading `extra_break_applies_to_effect_breaks=yes` also in the breaks its "
                      "own abilities make it do (S161)",
    "Blocker": "may block an opponent's attacking creature when untapped (R507.1)",
    "Guardman": "when an opponent's creature attacks another of its controller's creatures, this untapped creature "
                "may be tapped to take the attack instead; that is no block: no blocking creature, the attacker "
                "is not blocked, \"when it blocks\" does not trigger (R507.1a, R507.2b; model/redirection.py)",
    # cards made of several cards (model/piles.py)
    "Evolution": "an evolution creature: it lies on a creature (`under:` in a scenario), the pile has only its "
                 "characteristics and leaves the battle zone whole (801, S200, S201); an effect putting it into the "
                 "battle zone puts it onto one of its owner's creatures, or cannot put it (801.1a); never summoning "
                 "sick (801.3)",
    "Vortex Evolution": "an evolution creature on two creatures; before 2021-03-16 two of them could stay when its "
                        "top card alone left (S206)",
    "NEO": "a NEO creature (802): an effect putting it into the battle zone may put it onto one of its owner's "
           "creatures as a NEO evolution creature, or alone; with cards under it, it is an evolution creature, never "
           "summoning sick (802.2, 802.3)",
    "G-NEO": "a G-NEO creature (803): a NEO creature (803.1) which, while cards lie under it, loses them all "
             "instead of leaving the battle zone (803.2, a replacement effect: another replacement beats it, "
             "803.2a)",
    "Forbidden Release": "a forbidden pulse's forbidden release (809.1a): when the last seal leaves it, it turns "
                         "over to its forbidden creature (its `back:`)",
    "Star Evolution": "an evolution creature: when it would leave the battle zone, only its top card leaves "
                      "instead and the rest is rebuilt (813.1, a replacement effect, S204)",
    "S-MAX Evolution": "an evolution creature that needs no source (S207); its loss replacement is written as a "
                       "`replaces: own_loss` ability with `smax_loss`",
    "Power Attacker:+N": "N more power while this creature attacks; gone at the end of the attack (R510, A12c)",
    # battles, attacks and blocks, ignored abilities, S-Trigger bonuses (model/power.py, model/touch.py)
    "Slayer": "after a battle of this creature, the creature it battled is destroyed, whoever won (before "
              "2004-06-26: only when this one lost)",
    "Wins All Battles": "this creature wins every battle: no power is compared (700.5)",
    "Speed Attacker": "may attack the turn it was put into the battle zone (no summoning sickness)",
    "Link Release": "a psychic super creature that would leave the battle zone returns one of its cells (its owner's "
                    "choice) to the hyperspatial zone and the rest turn over, the same creature (806.1b, 806.2)",
    "Attacks Untapped": "this creature can attack the opponent's untapped creatures as well as his tapped ones (a "
                        "permission: a restriction on attacking beats it, R101.2)",
    "Cannot Attack": "this creature cannot attack",
    "Cannot Attack Players": "this creature can attack only creatures",
    "Cannot Block": "this creature cannot block, even with Blocker (R101.2; model/restrictions.py)",
    "Must Attack": "this creature attacks if able (a turn with no attack is not allowed while it can attack)",
    "Must Block": "this Blocker blocks if able",
    "Unblockable": "this creature cannot be blocked",
    "Evasion:power<=N": "this creature cannot be blocked by creatures with power N or less (their power then)",
    "Ignore:cost<=N": "while this creature is in the battle zone, the abilities of other creatures with cost N "
                      "or less are ignored (無視)",
    "Super S-Trigger": "an S-Trigger; used when its owner has no shields it gets its bonus (`if: {bonus: true}`)",
    "S-Trigger Plus": "an S-Trigger; used in the opponent's turn after two or more of its owner's shields were "
                      "broken that turn it gets its bonus (`if: {bonus: true}`)",
}

# the names of the keywords above, without their values (`S-Back:<civ>` is S-Back): what the engine
# asks a card about (model/touch.py `has_keyword`)
Keyword = Literal[
    "S-Trigger", "G-Strike", "S-Back", "Sabaki Z", "Judgement Crest", "Revolution 0", "Charger", "Unbreakable",
    "Indestructible", "Cannot Leave", "Extra Break", "Blocker", "Guardman", "Attacks Untapped",
    "Evolution", "Vortex Evolution", "Star Evolution",
    "NEO", "G-NEO", "Forbidden Release",
    "S-MAX Evolution", "Power Attacker", "Slayer", "Wins All Battles", "Speed Attacker", "Cannot Attack",
    "Cannot Attack Players", "Cannot Block", "Must Attack", "Must Block", "Unblockable", "Evasion", "Ignore",
    "Link Release",
    "Super S-Trigger",
    "S-Trigger Plus",
]

CANNOT_LEAVE: Final = "Cannot Leave"
LINK_RELEASE: Final = "Link Release"
IGNORED: Final = "Ignored"                    # the mark an `ignore` effect gives for the turn (State.granted)
# the keywords an effect may give that work once per copy (110.7 names Slayer, Power Attacker and Sympathy;
# of these only Slayer can be given, model/instructions/power.py GRANTABLE): given twice, had twice
STACKS: frozenset[str] = frozenset({"Slayer"})
EXTRA_BREAK: Final = "Extra Break"
POWER_ATTACKER: Final = "Power Attacker"
ATTACKS_UNTAPPED: Final = "Attacks Untapped"   # a permission (R101.2): the opponent's untapped creatures too
NEO: Final = "NEO"                            # 802: a creature that may be put as an evolution or alone
FORBIDDEN_RELEASE: Final = "Forbidden Release"   # 809.1a: a pulse turns over when its last seal leaves
G_NEO: Final = "G-NEO"                        # 803: a NEO creature that loses its under-cards instead of leaving
STAR_EVOLUTION: Final = "Star Evolution"      # 813.1 (S204): when it would leave, only its top card leaves
SMAX: Final = "S-MAX Evolution"               # S207: an evolution creature needing no source

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
SHIELD_CHECK_DECLARED = ("S-Trigger", "G-Strike", "S-Back", "Sabaki Z", "Revolution 0")
# the keywords that make a card an S-Trigger (SC2): Super S-Trigger and S-Trigger Plus are S-Triggers too
S_TRIGGERS: tuple[Keyword, ...] = ("S-Trigger", "Super S-Trigger", "S-Trigger Plus")
