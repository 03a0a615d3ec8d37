"""A catalogue of rule mutations of model/: does a test (and `dmcheck verify`) notice each broken rule?

Each mutation breaks one rule the model codes (an R… rule, a shield-check step SC…, a ruling Q…, a
flow step D…, a change date, a reading) by one exact text replacement in one file. Other developers
change model/ in parallel, so a mutation whose `old` snippet does not occur exactly once is reported
STALE, never silently skipped: update its snippet.

A mutation's `rules` names the Ver.1.48 rules it breaks as model/data/rules_index.yaml lists them; for one
rule of every section with a `modelled` row, some mutation edits that row's code site and lists its test
(tests/test_mutation_sections.py checks it, and its slow test runs each).

For each mutation the script copies the repository to a temporary directory, its folders linked where
the installed package has them (`lay_out_packages`: the copy's own model/ is imported, never the
checkout's editable install), applies the replacement there (the checkout itself is never touched), and runs
  1. the mutation's fast tests: `python -m pytest -q -x -p no:cacheprovider FILES` (per-mutation timeout);
  2. for a survivor, the full run (`python -m pytest -q -x -p no:cacheprovider`, slow tests included),
     unless `--fast-only`;
  3. `python -m dmcheck verify --json`, whose summary and per-ruling verdicts are compared with the
     unmutated copy's (unless `--no-verify`).
It prints, per mutation, the test that killed it and whether `verify` noticed.

    python benchmarks/mutations.py --list
    python benchmarks/mutations.py --only R113.6c-lt --only R509.5e-off
    python benchmarks/mutations.py --jobs 1 --fast-only --json out.json

A mutation marked `equivalent` changes no behaviour the model can reach (the reason is given); it is
still run, and counted apart in the kill ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

RULINGS = "tests/test_rulings.py"
PINS = "tests/test_rule_pins.py"
FAST = (PINS, RULINGS)


@dataclass(frozen=True)
class Mutation:
    id: str
    rule: str            # the rule it breaks: R…, SC…, Q…, D…, a change date, a reading
    file: str            # relative to the repository root
    old: str             # must occur exactly once in `file`
    new: str
    tests: tuple[str, ...] = FAST   # the fast run: test files (or node ids) to run first
    equivalent: str = ""            # why no test can kill it, when none can
    # the Ver.1.48 numbers of the rules it breaks, as model/data/rules_index.yaml lists them: a `modelled`
    # row of one of them names this file's function as its code site and one of `tests` as its test
    # (tests/test_mutation_sections.py checks it for one rule of every section)
    rules: tuple[str, ...] = ()


P, T, SC, BR, DE, EF = ("model/procedure.py", "model/triggers.py", "model/instructions/shield_check.py",
                        "model/instructions/breaking.py", "model/instructions/destruction.py",
                        "model/instructions/effects.py")
RV, IN, RU = "model/data/rules_versions.yaml", "model/readings.py", "model/rules.py"
TP, DL = "model/trigger_patterns.py", "model/instructions/delayed.py"
DC, AT, GE = "model/instructions/declaring.py", "model/attack.py", "model/instructions/game_end.py"
PUBLIC = FAST + ("tests/test_public_answers.py",)
POS = "model/positions.py"   # issue 34: the positions a game reaches
RIGHT = ("tests/test_right_rules.py",)   # issue 35: rules where public rulings disagreed with the model
PW, PL, AE, LG, CA = ("model/power.py", "model/instructions/pile_moves.py", "model/attack_end.py", "model/legality.py",
                      "model/cards.py")
DK, ST, CN = "model/instructions/deck.py", "model/state.py", "model/instructions/conditions.py"
TO, PI = "model/touch.py", "model/instructions/piles.py"


# the parametrised test that runs every scenario file of a folder, its id being the file's stem
# (tests/test_mutation_sections.py reads a row's scenario file as this test's node too)
RUNNERS = {
    "scenarios/attack": "tests/test_attack.py::test_attack_ruling_expectations_hold",
    "scenarios/piles": "tests/test_piles.py::test_the_rulings_on_piles_hold",
    "scenarios/rulings": "tests/test_rulings.py::test_ruling_expectations_hold",
    "scenarios/rulings/answers": "tests/test_right_answers.py::test_answer_scenarios_hold",
    "tests/data/pins": "tests/test_rule_pins.py::test_pin_expectations_hold",
    "scenarios/flow": "tests/test_rule_pins.py::test_pin_expectations_hold",
    "scenarios/changes": "tests/test_rule_pins.py::test_pin_expectations_hold",
    "scenarios/turn": "tests/test_turn.py::test_every_turn_scenario_holds",
    "tests/data/triggers": "tests/test_event_triggers.py::test_trigger_scenarios_hold",
}


# the test that runs one scenario file of a folder
def attack(stem: str) -> str:
    return f"{RUNNERS['scenarios/attack']}[{stem}]"


def piles(stem: str) -> str:
    return f"{RUNNERS['scenarios/piles']}[{stem}]"


def ruling(stem: str) -> str:
    return f"{RUNNERS['scenarios/rulings']}[{stem}]"


def answer(stem: str) -> str:
    return f"{RUNNERS['scenarios/rulings/answers']}[{stem}]"


def turn(stem: str) -> str:
    return f"{RUNNERS['scenarios/turn']}[{stem}]"


def pin(stem: str) -> str:
    return f"{RUNNERS['tests/data/pins']}[{stem}]"


def triggers(stem: str) -> str:
    return f"{RUNNERS['tests/data/triggers']}[{stem}]"

CATALOGUE: tuple[Mutation, ...] = (
    # ---- who resolves first, and what may resolve when (procedure.eligible) --------------------------
    Mutation("R509.4a-b-nontp-first", "R509.4a-b: the turn player's pending effects resolve first", P,
             "p.controller == s.turn]", "p.controller != s.turn]",
             rules=("509.4a", "509.4b", "101.4", "605.1"), tests=FAST + (attack("A25_turn_player_first"),)),
    Mutation("R509.4a-b-no-priority", "R509.4a-b: the turn player's pending effects resolve first", P,
             "pool = tp or pool", "pool = pool or tp",
             rules=("509.4a", "509.4b")),
    Mutation("R509.5e-off", "R509.5e: nothing unrelated resolves while a shield check is in progress", P,
             "if not pool and s.checks:", "if False and not pool and s.checks:"),
    Mutation("R603.7a-nothing-before-break", "R603.7a: other pending effects resolve before the break", P,
             "pool = [p for p in s.pending if p.kind != BEFORE_BREAK]  # R603.7a",
             "pool = []  # R603.7a",
             rules=("603.7a",)),
    Mutation("R603.7b-reading-swapped", "R603.7b, reading nested_other_pending (inner_only vs all)", P,
             '.get("nested_other_pending") == "inner_only":', '.get("nested_other_pending") == "all":',
             rules=("603.7b",)),
    Mutation("R603.7b-inner-frame", "R603.7b: the nested frame's own effects count as 'inner'", P,
             "inner = [p for p in pool if p.frame >= depth]", "inner = [p for p in pool if p.frame > depth]",
             rules=("603.7b",)),
    Mutation("R509.4-outer-before-break", "R509.4: only the innermost frame's before-break effects go first", P,
             "p.kind == BEFORE_BREAK and p.frame == depth]", "p.kind == BEFORE_BREAK and p.frame >= 1]"),
    Mutation("R603.7b-resume-lost", "R603.7b: after the nested break, return to the interrupted effect", P,
             "frames=s.frames[:-1], running=frame.resume)", "frames=s.frames[:-1], running=())",
             rules=("603.7b",)),
    Mutation("2023-04-19-old-rules-do-not-wait",
             "2023-04-19 change (S001): before it, other effects wait for the break", P,
             "pool = []  # before 2023-04-19",
             "pool = [p for p in s.pending if p.kind != BEFORE_BREAK]  # before 2023-04-19"),
    Mutation("old_rules_waiting-swapped", "reading old_rules_waiting (triggered_effects vs before_break_effects)", P,
             '.get("old_rules_waiting") == "before_break_effects":',
             '.get("old_rules_waiting") == "triggered_effects":',
             tests=FAST + ("tests/test_choice_readings.py",)),
    # ---- D0/D1, Q10, Q02 --------------------------------------------------------------------------
    Mutation("D0-no-direct-attack", "D0: with no shields the attack is direct and wins", P,
             "if not shields:\n            return (Action(\"direct_attack\"",
             "if shields is None:\n            return (Action(\"direct_attack\"",
             rules=("509.1", "104.2a")),
    Mutation("D1-extra-breaks-ignored", "D1: the breaker count includes this turn's extra breaks", P,
             "return self.breaker(s, s.attacker) + effects.additional_breaks(self, s, s.attacker)",
             "return self.breaker(s, s.attacker)", tests=FAST + ("tests/test_public_answers.py",),
             rules=("701.14d",)),
    Mutation("Q10-attack-not-stopped", "Q10: every chosen shield left before the break stops the attack", BR,
             "stop_attack=s.stop_attack or frame.is_attack)", "stop_attack=s.stop_attack)",
             rules=("505.6",)),
    Mutation("Q02-charger-ignored", "Q02: Charger puts the resolved spell into the mana zone", P,
             'dest = "mana" if reading == "charger" else dest', "dest = dest",
             rules=("609.8a",), tests=FAST + (ruling("Q02_boil_charger"),)),
    # ---- triggers (R509.3, R112.3a, Q03, Q12) -----------------------------------------------------
    Mutation("R509.3-once-not-per-shield", "R509.3: a before-break ability triggers once per shield chosen", T,
             "for _ in range(n):", "for _ in range(min(n, 1)):",
             rules=("509.3", "603.7"), tests=FAST + (ruling("Q04_texas_storm"),)),
    Mutation("R509.3-break-by-spell-triggers", "R509.3: a break by a spell or ability triggers no before-break", T,
             "if not frame.by_creature:", "if frame.by_creature is None:",
             rules=("509.3",)),
    Mutation("R112.3a-no-enters-trigger", "R112.3a: a creature put into the battle zone triggers 'enters'", T,
             'for ability in index.own.get((pdef.id, what), ()):',
             'for ability in (index.own.get((pdef.id, what), ()) if what != "enters" else ()):',
             rules=("112.3a", "603.5a")),
    Mutation("Q03-first-spell-every-spell", "Q03: Kobo triggers on the first spell of the turn only", T,
             "s.spells_cast[pindex(player)] == 1", "s.spells_cast[pindex(player)] >= 1"),
    Mutation("Q12-own-dragon-any-card", "Q12: 'when another own Dragon is destroyed' needs a Dragon", TP,
             'card="other", has=("Dragon",))', 'card="other")'),
    # ---- destruction (R701.6a-b, 2022-04-08, Q12, Q14) --------------------------------------------
    Mutation("R701.6a-indestructible-ignored", "R701.6a: 'cannot be destroyed' keeps the card", DE,
             'if m.has_keyword(s, card, "cannot_be_destroyed") or card in s.guards:',
             'if m.has_keyword(s, card, "cannot_be_destroyed-no") or card in s.guards:',
             tests=FAST + ("tests/test_destruction.py",),
             rules=("700.3", "701.6a")),
    Mutation("R506.1d-protection-ignored",
             "R506.1d: 'cannot be destroyed until the end of the attack' keeps the card", DE,
             'if m.has_keyword(s, card, "cannot_be_destroyed") or card in s.guards:',
             'if m.has_keyword(s, card, "cannot_be_destroyed"):',
             tests=FAST + ("tests/test_protect.py",),
             rules=("506.1d",)),
    Mutation("R701.6a-no-attempt-event", "R701.6a: the destroy attempt happens whatever follows", DE,
             'out.append(ev("destroy", "R701.6a", card=m.label(card), player=owner))', "pass",
             tests=FAST + ("tests/test_destruction.py::test_every_destroyed_follows_its_destroy_attempt",),
             rules=("701.6a",)),
    Mutation("2022-04-08-switch-ignored", "2022-04-08 change (S003): before it only creatures are destroyed", DE,
             "if not (m.version.destroy_any_card or is_creature):", "if not is_creature:",
             tests=FAST + ("tests/test_destruction.py",)),
    Mutation("Q12-seal-has-characteristics", "Q12: a seal or a card under an evolution has no characteristics", DE,
             'characteristics = k in ("card", "aura")', 'characteristics = k in ("card", "aura", "seal", "under")',
             rules=("109.2b", "116.3"),
             tests=FAST + (piles("EV07_source_destroyed_ability_silent"), ruling("Q12b_seal_not_a_dragon"))),
    Mutation("R701.6a-destroy-replacements-ignored",
             "R701.6a: an instead-of-destruction replacement applies (Skull Moon)", DE,
             'for kind in (("self_leave", "self_destroy") if destroy else ("self_leave",)):',
             'for kind in ((("self_leave",) if destroy else ("self_leave",))):',
             rules=("609.1",)),
    Mutation("Q13-ex-life-without-its-shield", "Q13: EX Life needs its shield to replace the creature's leaving", DE,
             'return any(c in z.shields for c in z.hosted(card, "ex_life"))', 'return True'),
    Mutation("Q14-no-escape-chain", "Q14: a creature kept by Escape is destroyed again", DE,
             "if repeat:   # Q14", "if False:   # Q14"),
    Mutation("Q11a-skull-moon-needs-no-target", "Q11a: Skull Moon needs an opponent creature to destroy instead", DE,
             'return opponent_creatures   # Skull Moon', 'return True   # Skull Moon'),
    Mutation("R509.4c-attacker-left-unmarked", "R509.4c: the chosen shields still break when the attacker left", DE,
             "s = replace(s, attacker_left=True)   # R509.4c", "pass   # R509.4c",
             rules=("509.4c",)),
    # (`attacker_left` only chooses the rule a break cites, R509.4c instead of D4: the break happens
    # either way, so only a test reading the cited rule kills it)
    # ---- break replacements (D2, D4, Q11) ---------------------------------------------------------
    Mutation("D2-one-saver-many-shields", "D2: one replacement effect serves one shield only (Shield Saver)", BR,
             'if reading == "unusable" or (cid in used and reading != "unlimited"):',
             'if reading == "unusable":',
             rules=("609.3",), tests=FAST + (pin("D2_one_saver_one_shield"),)),
    Mutation("D2-castle-any-breaker", "D2: a castle protects only against an opponent creature's break", BR,
             "if castle in used or not by_opponent_creature:", "if castle in used:",
             rules=("113.4",)),
    Mutation("castle_other_shield-swapped", "reading castle_other_shield (unchosen_only vs not_used)", BR,
             '.get("castle_other_shield") == "not_used"):', '.get("castle_other_shield") == "unchosen_only"):',
             tests=FAST + ("tests/test_choice_readings.py",)),
    Mutation("Q11e-unbreakable-broken", "Q11e: a shield that cannot be broken is not broken", BR,
             "return CANNOT_BE_BROKEN", "return None"),
    Mutation("break_replacement_timing-swapped", "reading break_replacement_timing (at_break vs before_triggers)", P,
             '== "before_triggers":\n            # S002 D2-D3', '== "at_break":\n            # S002 D2-D3',
             tests=FAST + ("tests/test_replacement_timing.py",)),
    Mutation("D2-decision-order", "D2: each player decides his own replacements, turn player first", BR,
             "for c in frame.chosen\n                 for who in (s.turn, other(s.turn)))",
             # the attacker's own break replacements (A19) make it show
             "for c in frame.chosen\n                 for who in (other(s.turn), s.turn))",
             rules=("111.1", "609.8"), tests=FAST + (attack("A19_shield_burn_beats_castle"),)),
    # ---- the shield check (SC1-SC5, R113.6, R112.3b, R304.3, Q14) ---------------------------------
    Mutation("R113.6c-lt", 'R113.6c: "N or fewer shields" (<=, not <)', SC,
             "len(s.zone(check.player).shields) <= limit", "len(s.zone(check.player).shields) < limit",
             rules=("113.6c",), tests=FAST + (pin("R113.6c_two_left_counted"),)),
    Mutation("R113.6a-standby-counted", "R113.6a/SC1: standby cards are not counted", SC,
             "len(s.zone(check.player).shields) <= limit",
             "len(s.zone(check.player).shields) + len(s.zone(check.player).standby) <= limit",
             rules=("113.6a",)),
    Mutation("R113.6b-lt", 'R113.6b: "N or more spells in the graveyard" (<=, not <)', SC,
             '.get("graveyard_spells_at_least", 99) <= spells)', '.get("graveyard_spells_at_least", 99) < spells)',
             rules=("113.6b",)),
    Mutation("SC2-no-s-trigger-ignored", "SC2: 'cannot use S-Trigger' is obeyed", SC,
             'or m.restriction(check.player, "no_s_trigger") or _locked(', "or False or _locked("),
    Mutation("SC2-card-serves-twice", "SC2: no card serves two abilities", SC,
             "if not cards & used:", "if True:"),
    Mutation("R112.3b-s-back-from-standby", "R112.3b: an S-Back card arriving now cannot be used", SC,
             "for back in z.hand:", "for back in z.hand + z.standby:",
             rules=("112.3b",), tests=FAST + (ruling("R112.3b_s_back_arriving"),)),
    Mutation("SC3-revolution-0-with-shields", "SC3: Revolution 0 only when its owner has no shields", SC,
             "if not z.shields:\n        decls +=", "if True:\n        decls +=",
             rules=("112.3d",)),
    Mutation("SC4-no-fizzle", "SC4: a declared card that left the hand fizzles", SC,
             "if d.card not in z.hand:\n        out.append(ev(\"fizzle\"",
             "if False:\n        out.append(ev(\"fizzle\""),
    Mutation("SC4-g-strike-fizzles", "SC4: a G-Strike never fizzles", SC,
             'if d.kind == G_STRIKE:   # never fizzles',
             'if d.kind == G_STRIKE and d.card in z.hand:   # never fizzles'),
    Mutation("R304.3-castle-leaves-first", "R304.3: a castle leaves after its shield's S-Trigger", SC,
             "if c in s_triggers:\n                castles.append", "if False:\n                castles.append",
             rules=("304.3", "703.4k"), tests=FAST + (ruling("R304.3_castle_after_s_trigger"),)),
    Mutation("R113.6d-standby-face-up-lost", "R113.6d: a face-up shield's effect lasts in standby", SC,
             "return not any(m.card(c).has(\"Ignore casting locks\") for c in z.face_up if c in z.shields + z.standby)",
             "return not any(m.card(c).has(\"Ignore casting locks\") for c in z.face_up if c in z.shields)",
             rules=("113.6d",)),
    Mutation("Q14-uses-not-deferred", "Q14: inside an Escape chain the check's uses wait", SC,
             "if check.deferred:\n        return None", "if False:\n        return None"),
    Mutation("Q09-break-not-cancelled", "Q09: skipping the turn cancels the break", EF,
             "pending=(), frames=(), running=(), checks=(), queued=(), over=True)",
             "pending=(), running=(), checks=(), queued=())"),
    # (keeping the frames alone changes nothing: `over=True` ends the attack before any break)
    # ---- the rules timeline (change dates) -------------------------------------------------------
    Mutation("2023-04-19-date-later", "2023-04-19 change (S001) moved to 2024-01-01", RV,
             "  - date: 2023-04-19", "  - date: 2024-01-01"),
    Mutation("2023-04-19-date-earlier", "2023-04-19 change (S001) moved to 2023-01-01", RV,
             "  - date: 2023-04-19", "  - date: 2022-12-31"),
    Mutation("2022-04-08-date-later", "2022-04-08 change (S003) moved to 2022-12-01", RV,
             "  - date: 2022-04-08", "  - date: 2022-12-01",
             tests=FAST + ("tests/test_destruction.py",)),
    Mutation("change-day-itself", "a change is in force from its own date (version_on: <=, not <)", RU,
             "if version.date <= day:", "if version.date < day:"),
    # ---- the default readings --------------------------------------------------------------------
    Mutation("default-nested_other_pending", "default reading nested_other_pending=inner_only", IN,
             'default="inner_only",', 'default="all",'),
    Mutation("default-break_replacement_timing", "default reading break_replacement_timing=at_break", IN,
             'default="at_break",', 'default="before_triggers",'),
    Mutation("default-old_rules_waiting", "default reading old_rules_waiting=triggered_effects", IN,
             'default="triggered_effects",', 'default="before_break_effects",'),
    Mutation("default-charger_cast_destination", "default reading charger_cast_destination=charger", IN,
             'default="charger",', 'default="cast_destination",'),
    Mutation("default-castle_other_shield", "default reading castle_other_shield=not_used (S164)", IN,
             'default="not_used",', 'default="unchosen_only",', tests=FAST + ("tests/test_public_answers.py",)),
    # ---- public answers: swaps, effects per creature, several blockers, additional breaks, deck-out, eras ----
    Mutation("R701.26a-swap-half-done", "R701.26a (S150): a swap whose old creature is kept is not carried out", DC,
             "    failed = m.has_keyword(s, old, CANNOT_LEAVE) or (choice is not None and choice != NONE)",
             "    failed = m.has_keyword(s, old, CANNOT_LEAVE)", tests=PUBLIC,
             rules=("701.26b",)),
    Mutation("R701.26a-does-not-leave-swapped",
             "R701.26a (S150, S151): a creature that does not leave is not swapped away", DC,
             "    failed = m.has_keyword(s, old, CANNOT_LEAVE) or", "    failed = False or", tests=PUBLIC,
             rules=("701.26b",)),
    Mutation("Cannot-Leave-ignored", "'does not leave the battle zone' keeps the card where it is", DE,
             "    if m.has_keyword(s, card, CANNOT_LEAVE):\n        return s", "    if False:\n        return s",
             tests=PUBLIC,
             rules=("700.3",)),
    Mutation("2020-11-19-switch-ignored",
             "2020-11-19 change (S150): before it a failed swap applied the replacement alone", DC,
             "if choice is not None and choice != NONE and not m.version.swap_all_or_nothing:",
             "if False:", tests=PUBLIC),
    Mutation("2020-11-19-date-later", "2020-11-19 change (S150, S152) moved to 2021-01-01", RV,
             "  - date: 2020-11-19", "  - date: 2021-01-01", tests=PUBLIC),
    Mutation("110.2e-effect-on-the-player",
             "110.2e (S159): an extra break reaches the creatures there, not the player", EF,
             "    for c, k in s.extra_breaks:\n        if c == cid:",
             "    for c, k in s.extra_breaks:\n        if m.owner(c) == m.owner(cid):",
             tests=PUBLIC + ("tests/test_public_answers.py::"
                             "test_class2_an_extra_break_reaches_the_creatures_in_the_battle_zone_then",),
             rules=("110.2e",)),
    Mutation("110.2e-effects-survive-leaving",
             "110.2e (S159): a creature that left is a new one, effects on it end", DE,
             "    s = s.forget(card)\n    if card == s.attacker:", "    if card == s.attacker:", tests=PUBLIC,
             rules=("110.2e",)),
    Mutation("S160-evolution-loses-effects", "S160 (Q&A 2021-04-16): an evolution keeps the effects on its source", DC,
             "attacker=card).inherit(old, card)", "attacker=card)",
             tests=PUBLIC + ("tests/test_public_answers.py::test_class2_an_evolution_keeps_what_reached_its_source",),
             rules=("801.2",)),
    Mutation("R507.1a-one-blocker", "R507.1a (S153, 2021-09-07): several Blockers may be used at once", AT,
             "if not self.version.several_blockers or len(users) < 2:", "if True:",
             tests=PUBLIC + (attack("BL01_several_blockers_last_one_blocks"),),
             rules=("507.2",)),
    Mutation("2021-09-07-date-later", "2021-09-07 change (S153) moved to 2022-01-01", RV,
             "  - date: 2021-09-07", "  - date: 2022-01-01", tests=PUBLIC),
    Mutation("S161-own-break-no-extra",
             "S161/S162: a creature breaking by its own ability ('this') gets its additional breaks", EF,
             'if by is None or ins.get("by") == "self":', 'if by is None or ins.get("by") != "it":', tests=PUBLIC),
    Mutation("default-extra_break_applies_to_effect_breaks",
             "default reading extra_break_applies_to_effect_breaks=yes (S161)", IN,
             'default="yes",\n        why_default="the only official answer',
             'default="no",\n        why_default="the only official answer',
             tests=PUBLIC),
    Mutation("default-before_break_order", "default reading before_break_order=shields_first (R509.3, R603.7)", IN,
             'default="shields_first",', 'default="effects_first",', tests=PUBLIC),
    Mutation("S166-effects-first-ignored",
             "reading before_break_order=effects_first (S166): the shields are chosen after", P,
             "        if self.effects_first(s.attacker):", "        if False:", tests=PUBLIC),
    Mutation("LO01-deck-out-ignored", "LO01 (S167): a player whose deck is empty loses at once", P,
             "if not (s.zones[0].deck and s.zones[1].deck) and not _ending(s):",
             "if False and not (s.zones[0].deck and s.zones[1].deck) and not _ending(s):",
             tests=PUBLIC + (attack("LO01_deck_out_loses_at_once"),),
             rules=("104.2b", "703.4b")),
    Mutation("S109-one-of-two-loses", "S109: two players losing at once both lose, nobody wins", GE,
             'return _game_over(s, (lost, player), "", rule, out)', "return _game_over(s, (lost,), player, rule, out)",
             tests=PUBLIC,
             rules=("104.2c",)),
    Mutation("2022-08-10-switch-ignored",
             "2022-08-10 change (S156): before it Ninja Strike's mana is counted at the declaration", AT,
             "        if self.version.ninja_mana_on_resolution:\n            return True",
             "        if True:\n            return True",
             tests=PUBLIC),
    Mutation("2022-08-10-date-later", "2022-08-10 change (S156) moved to 2023-01-01", RV,
             "  - date: 2022-08-10", "  - date: 2023-01-01", tests=PUBLIC),
    # ---- one per section of the rules table (model/data/rules_index.yaml): each breaks the code site of a
    # `modelled` row and names that row's test, which kills it (tests/test_mutation_sections.py) -----------------
    Mutation("R105.2-tapped-creature-blocks", "105.2: a tapped creature does not block", AT,
             "for c in z.battle if c not in z.tapped and", "for c in z.battle if",
             rules=("105.2",), tests=(attack("TR05b_must_block_tapped_is_free"),)),
    Mutation("R507.2b-guardman-blocks", "507.2b: a Guardman used last makes no blocking creature", AT,
             "s = replace(s, blocked=s.blocked or way.blocks, target=last)",
             "s = replace(s, blocked=True, target=last)",
             rules=("507.2b",), tests=(attack("GM01_guardman_takes_the_attack_without_blocking"),)),
    Mutation("R114.1-draws-from-the-bottom", "114.1: a draw takes the deck's top card", EF,
             'move_cards(m, s, me, deck[:n], "deck", "hand", out)',
             'move_cards(m, s, me, deck[::-1][:n], "deck", "hand", out)',
             rules=("114.1",), tests=(ruling("Q08_emergency_typhoon"),)),
    Mutation("R115.3b-tie-has-a-winner", "115.3b: on equal powers both creatures lose", PW,
             "winners = (a,) if pa > pb else (b,) if pb > pa else ()", "winners = (a,) if pa > pb else (b,)",
             rules=("115.3b", "701.13a"), tests=(attack("A10b_battle_tie"),)),
    Mutation("R201.2-cost-misread", "201.2: a card's cost is the number printed on it", EF,
             "limit = m.card(ref).cost\n", "limit = m.card(ref).cost + 2\n",
             rules=("201.2", "605.2e"), tests=(piles("LK01_destroyed_evolution_cost"),)),
    Mutation("R301.5-no-summoning-sickness", "301.5: a creature put into the battle zone this turn cannot attack", LG,
             'return not self.has_keyword(s, c, "no_summoning_sickness")', "return False",
             rules=("301.5",), tests=(attack("LG01_summoning_sickness"),)),
    Mutation("R302.2-spell-to-the-hand", "302.2: a resolved spell goes to the graveyard", P,
             's.zone(owner).move("resolving", dest, spell)', 's.zone(owner).move("resolving", "hand", spell)',
             rules=("302.2", "605.2f"), tests=(attack("CN07_if_it_was_returned"),)),
    Mutation("R303.5-cross-gear-leaves", "303.5: a crossed cross gear stays when its creature leaves", PL,
             'if kind in STAYS:\n            z = z.add("battle", c)',
             'if kind == "weapon":\n            z = z.add("battle", c)',
             rules=("303.5",), tests=(piles("CG01_cross_gear_stays"),)),
    Mutation("R310.8-aura-left-behind", "310.8: an aura goes where its creature goes", PL,
             'dest = to if kind in FOLLOWS else "graveyard"', 'dest = to if kind == "under" else "graveyard"',
             rules=("310.8",), tests=(piles("AU02_aura_follows_to_hand"),)),
    Mutation("R316.3-sources-not-counted", "316.3: an effect moving an element moves (and counts) all its cards", PL,
             'return 1 + len(sources) if m.readings.get("pile_count") == "cards" else 1', "return 1",
             rules=("316.3",), tests=(piles("CT03_sources_counted"),)),
    Mutation("R400.5-power-change-survives-leaving", "400.5: a card that changed zones is a new object", ST,
             "powers=tuple(p for p in self.powers if p[0] != card),", "powers=self.powers,",
             rules=("400.5",),
             tests=("tests/test_touch.py::"
                    "test_power_zero_is_destroyed_before_the_next_step_and_power_changes_leave_with_the_creature",)),
    Mutation("R401.2-deck-read-from-the-bottom", "401.2: the deck keeps its order, top first", DK,
             'top = s.zone(me).deck[:ins.get("count")]\n    fits',
             'top = s.zone(me).deck[::-1][:ins.get("count")]\n    fits',
             rules=("401.2", "400.4"), tests=(attack("DK01_look_at_the_top_take_one"),)),
    Mutation("R403.4-rebuilt-from-the-bottom", "403.4: the cards under a card keep their order (the next stays)", PL,
             'nxt = next((c for c, h, k in z.links if h == old and k == "under"), None)\n    while',
             "nxt = (under(z, old) or (None,))[-1]\n    while",
             rules=("403.4", "801.4"), tests=(piles("RB01_rebuild_keeps_the_stack"),)),
    Mutation("R406.2-stacked-cards-stay", "406.2: a shield's cards are one shield: they leave together", SC,
             "for other_card in stack(z, c)[1:]:", "for other_card in stack(z, c)[1:1]:",
             rules=("406.2", "113.2"), tests=(piles("SP01_stacked_shield_one_break"),)),
    Mutation("R500.2-step-ends-with-effects-waiting", "500.2: a step ends only when nothing is left to do", P,
             "if self.eligible(s):\n                break", "if False:\n                break",
             rules=("500.2",), tests=(attack("TR02_blocked_trigger_before_the_battle"),)),
    Mutation("R505.6a-attacker-gone-attack-goes-on", "505.6a: the attack ends when its attacker left", AT,
             "if s.stop_attack or s.attacker not in s.zone(s.turn).battle:", "if s.stop_attack:",
             rules=("505.6a",), tests=(attack("A22_kaasguy_destroys_attacker"),)),
    Mutation("R506.1c-attacker-untapped", "506.1c: attacking taps the attacker", AT,
             "return s.with_zone(s.turn, replace(z, tapped=tuple(sorted(z.tapped + (s.attacker,)))))", "return s",
             rules=("506.1c", "701.2a"),
             tests=("tests/test_afterattack.py::test_the_attacker_is_tapped_in_every_end_state",)),
    Mutation("R508.1-no-battle-unblocked", "508.1: an attack on a creature is a battle, blocked or not", AT,
             'if s.target >= 0:\n            if "battle_start" in self.words:',
             'if s.target >= 0 and s.blocked:\n            if "battle_start" in self.words:',
             rules=("508.1",), tests=(attack("A10a_battle_tapped_creature"),)),
    Mutation("R509.2b-breakers-break-one", "509.2b: a multi-breaker breaks its number of shields", P,
             "return self.breaker(s, s.attacker) + effects", "return 1 + effects",
             rules=("509.2", "509.2b"), tests=(answer("G17_breaker_must_be_used"),)),
    Mutation("R510.1-no-end-of-attack-trigger", "510.1: 'at the end of the attack' abilities trigger", AE,
             'if "end_of_attack" in self.words and self.attacker_still_there(s):', "if False:",
             rules=("510.1",), tests=(attack("A12a_bolbalzak_end_of_attack"),)),
    Mutation("R511.2-granted-outlasts-the-turn", "511.2: keywords given for the turn end with it", PW,
             'if s.phase == "end_turn" and (s.powers or s.granted):', 'if s.phase == "end_turn" and s.powers:',
             rules=("511.2",), tests=(attack("TR06b_granted_blocker_ends_with_the_turn"),)),
    Mutation("R601.1h-same-shield-twice", "601.1h: one choice of several shields never picks one twice", P,
             "if all(need[k] <= len(classes[keys[k]]) for k in need):", "if True:",
             rules=("601.1h",), tests=(pin("R601.1h_two_different_shields_both_chosen"),)),
    Mutation("R605.2a-condition-inverted", "605.2a: a condition is read when the effect resolves", CN,
             'ins.get("do") if holds(m, s, task, cond) else',
             'ins.get("do") if not holds(m, s, task, cond) else',
             rules=("605.2a", "603.4"), tests=(attack("CN06_if_you_have_no_shields"),)),
    Mutation("R606.2-more-shields-than-there-are", "606.2: an effect that cannot be done in full does what it can", P,
             "counts = sorted({min(n, len(shields)) for n in self.breaker_counts(s)})",
             "counts = sorted(set(self.breaker_counts(s)))",
             rules=("606.2",), tests=(attack("A01_declaration_then_end"),)),
    Mutation("R604.2-static-works-from-any-zone", "604.2, 608.3b: a static works while its card is in its zone",
             "model/continuous.py", "return src in z.battle and m.abilities_work(s, src)",
             "return m.abilities_work(s, src)",
             rules=("604.2", "608.3b"), tests=(attack("CX02_static_ends_when_its_card_leaves"),)),
    Mutation("R703.4j-no-seal-removed", "703.4j: a Command entering removes a seal", T,
             "s = replace(s, unsealing=s.unsealing + (card,))", "s = s",
             rules=("703.4j", "116.4"), tests=(attack("SL03_command_removes_a_seal"),)),
    Mutation("R608.2a-power-change-outlasts-the-turn", "608.2a: a change 'this turn' ends with the turn", PW,
             'if s.phase == "end_turn" and (s.powers or s.granted):', 'if s.phase == "end_turn" and s.granted:',
             rules=("608.2a", "500.3"), tests=(attack("PW04_turn_power_change_ends_with_the_turn"),)),
    Mutation("R700.5-wins-all-battles-ignored", "700.5: 'wins every battle' wins whatever the powers", PW,
             "wins = [c for c in (a, b) if self.has_keyword(s, c, WINS_ALL)]", "wins = []",
             rules=("700.5", "115.3c"), tests=(attack("PW16_wins_all_battles"),)),
    Mutation("R702.3d-no-blocker-offered", "702.3d: the non-turn player picks his blockers", AT,
             "self._redirect_text(s, c, (), users)) for c in users]",
             "self._redirect_text(s, c, (), users)) for c in ()]",
             rules=("702.3d",), tests=(attack("A09_block_dai_league"),)),
    Mutation("R703.4c-zero-power-survives", "703.4c: power 0 (not only below) destroys", PW,
             "if self.power(s, c) <= 0:", "if self.power(s, c) < 0:",
             rules=("703.4c",), tests=(pin("R703.4c_power_exactly_zero"),)),
    Mutation("R810.1-twinpact-no-spell", "810.1: outside the battle zone a twinpact is a spell too", CA,
             'return self.type == "spell" or self.spell_side is not None', 'return self.type == "spell"',
             rules=("810.1",), tests=(piles("TW01_twinpact_counts_as_spell_in_graveyard"),)),
    Mutation("R813.1-star-evolution-leaves-whole", "813.1: a leaving star evolution loses its top card only", DE,
             "if m.card(card).has(STAR_EVOLUTION) and under(s.zone(owner), card):", "if False:",
             rules=("813.1",), tests=(piles("ST01_star_evolution_top_only"),)),
    Mutation("R815.1-smax-needs-a-source", "815.1: an S-MAX evolution needs no source", POS,
             "if needs_a_source(cdef) and not under(z, c):", "if cdef.is_evolution() and not under(z, c):",
             rules=("815.1",), tests=(piles("SM01_smax_replaces_the_loss"),)),
    # ---- the initial position (model/positions.py): refused when no game reaches it, put right as the rules say
    Mutation("R400.1-card-twice", "400.1: every card is in one zone", POS,
             "        if n != 1:\n            yield Problem(\"one_place\"",
             "        if n > 2:\n            yield Problem(\"one_place\"",
             rules=("400.1",),
             tests=("tests/test_positions.py::test_a_card_in_two_zones_or_in_another_players_hand_is_found",)),
    Mutation("R703.4i-initial-spell-stays",
             "302.3, 403.1, 703.4i: a spell alone in the battle zone goes to the graveyard", POS,
             "fix=lambda s, cards, p: _to_graveyard(s, cards, p.card))", "fix=lambda s, cards, p: s)",
             rules=("302.3", "403.1"), tests=(pin("R703.4i_spell_castle_aura_alone_start_in_the_graveyard"),)),
    Mutation("R815.1a-initial-two-smax-kept", "815.1a: a position with two S-MAX for one player is put right first",
             POS, "    if task in s.running:\n        return s\n", "    return s\n",
             rules=("815.1a",), tests=(pin("R815.1a_two_smax_at_the_start"),)),
    # ---- rows pinned by a scenario of their own (tests/data/pins/R*.yaml) -----------------------------------------
    Mutation("R110.4c-watcher-anywhere", "110.4c: an ability naming no zone works in the battle zone only", T,
             "if ability.zone == zone and (me != card", "if (me != card",
             rules=("110.4c",), tests=(pin("R110.4c_watcher_in_the_graveyard_is_silent"),)),
    # ---- events and delayed triggers (model/trigger_patterns.py, model/triggers.py) ----------------------
    Mutation("R607.2-delayed-does-nothing", "607.2, 603.6: a delayed ability does what it was made to do later", DL,
             'found.append((key, pattern, ins.get("do")))', "found.append((key, pattern, ()))",
             rules=("607.2", "603.6"), tests=(triggers("T08_delayed_end_of_turn"),)),
    Mutation("R603.6-delayed-stays", "603.6: a delayed ability triggers once", T,
             "return s if len(kept) == len(s.delayed) else replace(s, delayed=tuple(kept))", "return s",
             rules=("603.6",), tests=(triggers("T09_delayed_triggers_once"),)),
    Mutation("R115.2-battle-start-waits", "115.2: what a battle's start triggers resolves before the powers", AT,
             'if s.pending:\n                    return replace(s, phase="battle_start")',
             "if False:\n                    pass",
             rules=("115.2",), tests=(triggers("T06_battle_start_resolves_before_powers"),)),
    Mutation("R114.2-one-draw-event", "114.2: each card drawn is a draw", EF,
             "    for _ in range(n):\n        s, card = draws.draw_card(m, s, me, out)",
             "    for _ in range(min(n, 1)):\n        s, card = draws.draw_card(m, s, me, out)",
             rules=("114.2", "114.6a"), tests=(triggers("T01_each_card_drawn_is_an_event"),)),
    Mutation("R315.2-tamaseed-cast", "315.2: an executed tamaseed enters the battle zone", SC,
             'if kind == "spell" or d.side == "spell":',
             'if kind in ("spell", "tamaseed") or d.side == "spell":',
             rules=("315.2",), tests=(pin("R315.2_tamaseed_s_trigger_enters"),)),
    Mutation("R409.2b-charger-not-back-to-the-graveyard",
             "409.2b: Charger replaces a spell's return to the graveyard it was cast from", P,
             'as_spell().has("to_mana_after_resolving") and dest != "mana":',
             'as_spell().has("to_mana_after_resolving") and dest != "mana" and task.then != "graveyard":',
             rules=("409.2b",), tests=(pin("R409.2b_charger_cast_from_the_graveyard"),)),
    Mutation("R505.3-non-creature-attacks", "505.3: only creatures attack", LG,
             'if self.card(c).type != "creature" or c in z.tapped or c in s.cant_attack:',
             "if c in z.tapped or c in s.cant_attack:",
             rules=("505.3",), tests=(pin("R505.3_a_cross_gear_does_not_attack"),)),
    Mutation("R701.10a-search-the-top-only", "701.10a: a search looks at every card of the zone", DK,
             "fits = [c for c in s.zone(me).deck if _fits(", "fits = [c for c in s.zone(me).deck[:1] if _fits(",
             rules=("701.10a",), tests=(pin("R701.10_search_the_whole_deck_may_miss"),)),
    Mutation("R701.10b-search-must-find", "701.10b: a search of a hidden zone may find nothing", DK,
             'ins.get("optional", True):\n        opts.append((NONE, f"{me} takes no card',
             'ins.get("optional", False):\n        opts.append((NONE, f"{me} takes no card',
             rules=("701.10b",), tests=(pin("R701.10_search_the_whole_deck_may_miss"),)),
    Mutation("R703.4i-non-creature-rebuilt", "703.4i: a non-creature card left on top by the rebuild goes", PL,
             "if not stands_alone(m, c):", "if False:",
             rules=("703.4i",), tests=(pin("R703.4i_non_creature_left_on_top_goes"),)),
    Mutation("R801.4d-rebuilt-untapped", "801.4d: the rebuilt creature keeps the tapped state", PL,
             "if tapped and m.card(c).type in KEEP_TAPPED:", "if False:",
             rules=("801.4d",), tests=(pin("R801.4d_rebuilt_creature_stays_tapped"),) + RIGHT),
    Mutation("R114.6-short-draw-draws-nothing", "114.6: a draw from an empty deck does nothing, the others happen", EF,
             'n = min(n, len(deck))',
             'n = n if len(deck) >= n else 0',
             rules=("114.6",), tests=(pin("R114.6_second_draw_from_an_empty_deck"),)),
    Mutation("R303.3-cross-gear-on-a-spell", "303.3: a cross gear crosses creatures only", "model/positions.py",
             '_CARRIED = {"under": "801.1a", "aura": "310.5", "cross": "303.3", "weapon": "305.2"}',
             '_CARRIED = {"under": "801.1a", "aura": "310.5", "weapon": "305.2"}',
             rules=("303.3",), tests=("tests/test_piles.py::test_a_malformed_pile_is_bad_input",)),
    Mutation("R400.8-texas-storm-goes-on", "400.8: an effect stops when its card went elsewhere on the way", EF,
             "return s   # it did not get there",
             'return summon(m, s, me, cid, "battle", out)   # it did not get there',
             rules=("400.8",), tests=(pin("R400.8_texas_storm_creature_kept_in_place"),)),
    Mutation("R506.3a-swapped-in-attacker-triggers", "506.3a: attack abilities trigger at the declaration only", DC,
             "s = replace(s, attacker=card)   # R701.26a",
             's = m.trigger(replace(s, attacker=card), "attacks", player, card, out)   # R701.26a',
             rules=("506.3a",), tests=(pin("R506.3a_attack_trigger_only_at_the_declaration"),)),
    Mutation("R701.14c-effect-break-one-by-one", "701.14c: the shields an effect breaks go to the hand together", BR,
             "s = shield_check.start(m, s, frame.defender, tuple(breaking), out, collecting=True)",
             "s = shield_check.start(m, s, frame.defender, tuple(breaking[:1]) if not frame.is_attack else "
             "tuple(breaking), out, collecting=True)",
             rules=("701.14c",), tests=(pin("R701.14c_effect_breaks_two_shields_together"),)),
    Mutation("R505.6b-untapped-attacker-removed", "505.6b: untapping the attacker does not end its attack", AT,
             "if s.stop_attack or s.attacker not in s.zone(s.turn).battle:",
             "if s.stop_attack or s.attacker not in s.zone(s.turn).tapped:",
             rules=("505.6b",), tests=(pin("R505.6b_untapped_attacker_still_attacks"),)),
    Mutation("R609.5-replacement-without-its-event", "609.5: a replacement does nothing if its event does not happen",
             BR, "present = tuple(c for c in frame.chosen if c in z.shields)",
             "present = tuple(c for c in frame.chosen if c in z.shields or replaced(m, frame, c) is not None)",
             rules=("609.5",), tests=(pin("R609.5_decided_saver_does_nothing_without_the_break"),)),
    Mutation("R310.7a-aura-left-on-the-source", "310.7a: an invading evolution goes under the aura", DC,
             'card if h == old and k != "under" else h', "h",
             rules=("310.7a",), tests=(pin("R310.7a_invasion_goes_under_the_aura"),)),
    Mutation("R603.2b-breaks-trigger-once", "603.2b: 'when it breaks a shield' triggers once per shield broken", BR,
             "            for _ in broken:", "            for _ in broken[:1]:",
             rules=("603.2b",), tests=(attack("A17a_ash_raider_once_per_shield"),)),
    # ---- rows modelled with limits (their missing part is other rows'): the part they claim is pinned ----------
    Mutation("R603.2-effect-does-not-wait", "603.2: a triggered ability's effect waits to be resolved", T,
             "return _with_pending(s, tuple(sorted(pending + (p,))) if pending else (p,))", "return s",
             rules=("603.2", "111.2a"), tests=(ruling("Q03_kobo"),)),
    Mutation("R609.1-saver-never-applies", "609.1: a replacement waiting for its event applies when it happens", BR,
             "for cid in z.battle if savers_here else ():", "for cid in ():",
             rules=("609.1",), tests=(attack("A18_replaced_break_no_trigger"),)),
)

# ---- issue 35: rules where public rulings disagreed with the model, each fix reverted -----------------------------
CATALOGUE += (
    Mutation("703.4c-printed-zero-unchecked", "703.4c (Ver.1.48): a creature printing power 0 is destroyed too", PW,
             "and self.pool[i.card].has_power and self.pool[i.card].power <= 0\n",
             "and self.pool[i.card].has_power and self.pool[i.card].power < 0\n", tests=RIGHT),
    Mutation("ignored-ability-read-printed",
             "an ignored ability does nothing wherever it is read (the step that never ended)", DE,
             'if m.has_keyword(s, card, "cannot_be_destroyed") or card in s.guards:',
             'if m.card(card).has("cannot_be_destroyed") or card in s.guards:', tests=RIGHT),
    Mutation("603.5c-ignoring-ends-as-it-leaves",
             "603.5c: a leaving creature is judged as it was just before (an ignoring effect still counts)", DE,
             "    s = s.with_zone(owner, z)\n    if together:",
             "    s = s.with_zone(owner, z).forget(card)\n    if together:",
             tests=RIGHT),
    Mutation("507.1b-one-forced-blocker-enough", "507.1b: every Blocker forced to block is chosen", TO,
             'return tuple(a for a in acts if a.kind == "block" and must <= set(a.choice))',
             'return tuple(a for a in acts if a.kind == "block" and must & set(a.choice))', tests=RIGHT),
    Mutation("AC-one-copy-per-name", "S312: every copy of a hidden-zone card may be declared at one attack", TO,
             "if c not in found and self.usable_at_attack(s, player, c))",
             "if c not in found and self.usable_at_attack(s, player, c) and c == min(\n"
             "                                 x for x in s.zone(player).hand if self.name(x) == self.name(c)))",
             tests=RIGHT),
    Mutation("802.1-neo-never-alone", "802.1: a NEO creature may enter alone, not evolved", PI,
             "    if cdef.has(NEO):\n        opts.append((ALONE,", "    if False:\n        opts.append((ALONE,",
             rules=("802.1",), tests=(piles("EV13_neo_creature_evolves_or_not"),)),
    Mutation("R802.2-neo-evolution-not-read", "802.2, 802.4: a NEO creature with cards under it is an evolution "
             "creature", "model/piles.py",
             "return cdef.is_evolution() or (cdef.has(NEO) and bool(under(z, cid)))", "return cdef.is_evolution()",
             rules=("802.2", "802.4"), tests=(piles("NE01_neo_creature_with_cards_under_is_an_evolution"),)),
    Mutation("R803.1-g-neo-not-neo", "803.1: a G-NEO creature is a NEO creature", "model/data/keywords.yaml",
             "sets: [neo, under_cards_leave_instead]", "sets: [under_cards_leave_instead]",
             rules=("803.1",), tests=(piles("GN04_g_neo_creature_evolves_or_not"),)),
    Mutation("R803.2-g-neo-leaves-whole", "803.2: a leaving G-NEO evolution loses its under-cards instead", DE,
             "if m.card(card).has(G_NEO) and under(s.zone(owner), card):", "if False:",
             rules=("803.2",), tests=(piles("GN01_g_neo_evolution_loses_its_under_cards_instead"),)),
    Mutation("R307.1-no-forbidden-pulse", "307.1, 809.1: a forbidden pulse has a forbidden creature behind it",
             "model/cards.py", 'if raw["type"] not in _BACK_TYPE:',
             'if raw["type"] not in _BACK_TYPE or raw["type"] == FORBIDDEN_PULSE:',
             rules=("307.1", "809.1"), tests=(attack("FB01_forbidden_release_when_the_last_seal_leaves"),)),
    Mutation("R809.1a-never-released", "809.1a: a pulse whose last seal left turns over", "model/instructions/seals.py",
             "if sealed(m, s, card) or not m.card(card).has(FORBIDDEN_RELEASE)",
             "if True or not m.card(card).has(FORBIDDEN_RELEASE)",
             rules=("809.1a",), tests=(attack("FB01_forbidden_release_when_the_last_seal_leaves"),)),
    Mutation("815.1a-two-smax-kept", "815.1a: a player keeps one S-MAX evolution creature, the others return", P,
             "self.smax_rule = sum(1 for i in self.instances if self.pool[i.card].has(SMAX)) > 1",
             "self.smax_rule = False", tests=RIGHT),
    Mutation("506.3d-window-reopens", "506.3d-e, S157, S116: the non-turn player's window is before his own effects", P,
             "            s = replace(s, ntp_declared=True)\n        return s", "            pass\n        return s",
             tests=RIGHT),
    Mutation("SST-bonus-decided-at-use",
             "Q&A 2023-02-17 (S342): a Super S-Trigger's bonus is decided at its declaration", SC,
             '    if kind == "spell" or d.side == "spell":   # a twinpact',
             "    s = m.mark_bonus(replace(s, bonus=tuple(c for c in s.bonus if c != d.card)), player, d.card, out)\n"
             '    if kind == "spell" or d.side == "spell":   # a twinpact', tests=RIGHT),
    Mutation("801.1a-evolution-enters-alone", "801.1a: an evolution creature put by an effect goes onto a creature", EF,
             "    if cdef.evolution() or cdef.has(NEO):\n", "    if cdef.has(NEO):\n", tests=RIGHT),
    Mutation("801.3-evolution-sick", "801.3: an evolution creature is never summoning sick", LG,
             "if is_evolution_now(cdef, s.zone(self.owner(c)), c) or self.dragheart_super(s, c):",
             "if self.dragheart_super(s, c):", tests=RIGHT),
    Mutation("110.7-first-copy-only", "110.7, 110.2c: each copy of Power Attacker and Extra Break applies", TO,
             "return sum(values(creature(self, s, cid).keywords, head))",
             "return sum(values(creature(self, s, cid).keywords, head)[:1])",
             tests=RIGHT),
    Mutation("510.2-effects-end-first",
             "510.1-510.2: the end-of-attack abilities resolve before the attack's effects end", AE,
             '        if "end_of_attack" in self.words and self.attacker_still_there(s):\n'
             '            s = self.trigger(s, "end_of_attack"',
             '        s = self.expire_attack_effects(s, out)\n'
             '        if "end_of_attack" in self.words and self.attacker_still_there(s):\n'
             '            s = self.trigger(s, "end_of_attack"', tests=RIGHT),
    Mutation("block-sets-over-cards", "identical Blockers are one class: n of them give n sets, not 2^n", AT,
             "classes.setdefault(same(self, s, c), []).append(c)", "classes.setdefault((c,), []).append(c)",
             tests=RIGHT),
    Mutation("some-declaration-plain-s-trigger", "some-declaration applies to every S-Trigger variant (SC2)",
             "properties/builtin.py", 'if any(carries(m.card(c), "S-Trigger") or',
             'if any(m.card(c).has("S-Trigger") or', tests=RIGHT),
    # the three rules that no test pinned
    Mutation("S154-first-resolved-blocks", "S154, 507.2a: the Blocker resolved last blocks (two or three of them)", AT,
             "last, first = chosen[0], chosen[1:]", "last, first = chosen[-1], chosen[:-1]", tests=RIGHT),
    Mutation("S207-smax-discards-any-card", "S207: the S-MAX loss replacement discards a card of the same name", PI,
             "copies = sorted(c for c in z.hand if m.instances[c].card == m.instances[card].card)",
             "copies = sorted(z.hand)", tests=RIGHT),
)

# ---- issue 34: the turn around the attack (model/turn.py) -------------------------------------------------------
TU = "model/turn.py"
CATALOGUE += (
    Mutation("505.5-one-attack-only", "505.5: the turn player may attack again while a creature can", TU,
             "            if self.legal_attacks(nxt):", "            if False:",
             rules=("505.5",), tests=(turn("TN01_second_attack_by_the_untapped_creature"),)),
    Mutation("501.1-nothing-untapped", "501.1, 702.3a: the new turn player untaps his cards", TU,
             "        if not z.tapped:\n            return s", "        if True:\n            return s",
             rules=("501.1", "702.3a"), tests=(turn("TN04_next_turn_untap_start_and_draw"),)),
    Mutation("502.1-no-draw", "502.1, 702.3b: the turn player draws a card in the draw step", TU,
             '        s = s.with_zone(tp, z.move("deck", "hand", card))', "        return s",
             rules=("502.1", "702.3b"), tests=(turn("TN06_draw_step_empties_the_deck"),)),
    Mutation("502.1-draw-step-draw-unseen", "502.1, 114.2: the draw step's draw is a draw what watches draws sees",
             TU, '        return self.trigger(s, "draw", tp, card, out) if "draw" in self.words else s',
             "        return s",
             rules=("502.1", "114.2"),
             tests=("tests/test_keyword_processes.py::test_keyword_process_scenarios_hold[KP08_draw_step_draw_triggers]",)),
    Mutation("114.4-draw-step-draw-not-replaced", "114.1, 114.4: the draw step's draw meets the turn player's draw "
             "replacements", TU, "        if draws.OWN_DRAW in self.words and draws.draw_replacements(self, s, tp):",
             "        if False:", rules=("114.4", "502.1"),
             tests=("tests/test_keyword_processes.py::test_keyword_process_scenarios_hold"
                    "[KP09_draw_step_draw_meets_a_draw_replacement]",)),
    Mutation("114.2a-non-turn-player-draws-first", "114.2a: the turn player draws first, then the other",
             EF, "    for who in (other(s.turn), s.turn):", "    for who in (s.turn, other(s.turn)):",
             rules=("114.2a",), tests=("tests/test_effects6_draws.py::test_draw_replacement_scenarios_hold[DR06]",)),
    Mutation("114.2-draw-for-each-not-a-draw", "114.2, 114.4a: a draw counted by an earlier instruction is a draw",
             "model/instructions/piles.py", "    return effects.draw_n(m, s, task, n, None, out) if n else s",
             '    return effects.move_cards(m, s, task.controller, s.zone(task.controller).deck[:n], "deck", "hand", '
             'out) if n else s', rules=("114.2", "114.4a"),
             tests=("tests/test_effects6_draws.py::test_draw_replacement_scenarios_hold[DR05]",)),
    Mutation("500.5-extra-turn-ignored", "500.5: an extra turn comes right after this one", TU,
             "            if player in s.extra_turns:", "            if False:",
             rules=("500.5", "500.5a"), tests=(turn("TN05_extra_turn_comes_next"),)),
)

# ---- issue 33, item 5: characteristics as data (model/characteristics.py) --------------------------------------
CH = "model/characteristics.py"
CATALOGUE += (
    Mutation("R108.2-doubled-before-added", "108.2, 206.4: additions before multiplications", CH,
             "    return total * multiplier // divisor", "    return base * multiplier // divisor + (total - base)",
             rules=("108.2", "206.4"), tests=(attack("CH01_doubling_after_addition"),)),
    Mutation("R108.1b-negative-power-compared", "108.1b: a power below 0 is read as 0", CH,
             "return power if power > 0 else 0", "return power",
             rules=("108.1b",), tests=(attack("CH03_negative_powers_tie"),)),
    Mutation("R108.1c-minus-infinity-ignored", "108.1c: minus infinity destroys even infinite power", CH,
             "    if any(a <= -INFINITY for a in adds):\n        return -INFINITY\n"
             "    if base >= INFINITY or any(a >= INFINITY for a in adds):\n        return INFINITY\n",
             "    if base >= INFINITY or any(a >= INFINITY for a in adds):\n        return INFINITY\n"
             "    if any(a <= -INFINITY for a in adds):\n        return -INFINITY\n",
             rules=("108.1c",), tests=(attack("CH05_minus_infinity_destroys_infinite_power"),)),
    Mutation("R106.2b-multicolored-as-mono", "106.2b: two civilizations or more make a multicolored card", CH,
             "return COLOURS[min(n, 2)]", "return COLOURS[min(n, 1)]",
             rules=("106.2b",), tests=(attack("CH07_multicolored_creature"),)),
    Mutation("R202.3-name-letters-across-words", "202.3: part of a name matches whole words only", CH,
             "return bool(p) and any(w[i:i + len(p)] == p for i in range(len(w) - len(p) + 1))",
             'return "".join(p) in "".join(w)',
             rules=("202.3",), tests=(attack("CH11_part_of_a_name"),)),
    Mutation("R206.3-fixed-power-changed", "206.3: no other effect changes a fixed power", CH,
             "            return int(value)", "            pass",
             rules=("206.3",), tests=(attack("CH13_fixed_power_changes_no_more"),)),
    Mutation("R203.2-race-matched-whole", "203.2: a race named reaches every race containing it", CH,
             "return any(contains_words(r, named) for r in races)", "return named in races",
             rules=("203.2",), tests=(attack("CH06_race_part_reaches_the_race"),)),
    # ---- issue 33: keywords as data (model/keyword_table.py, model/data/keywords.yaml) ----
    Mutation("kw-params-not-resolved", "issue 33: a card's keywords set their mechanism parameters at load",
             "model/cards.py", "frozenset(self.keywords) | keyword_table.params_of(self.keywords)",
             "frozenset(self.keywords)",
             tests=("tests/test_kwdata.py::test_a_card_has_the_parameters_of_its_keywords",)),
    Mutation("kw-unknown-parameter-accepted", "issue 33: a keyword row naming no mechanism's parameter is refused",
             "model/keyword_table.py", "            if p not in PARAMETERS:", "            if False:",
             tests=("tests/test_kwdata.py::test_a_parameter_no_mechanism_reads_is_refused",)),
    Mutation("kw-guardman-as-blocker", "R507.2b: Guardman's redirection is no block (its row's parameter)",
             "model/data/keywords.yaml", "sets: [redirect_guard]", "sets: [redirect_block]", tests=FAST),
)

IGNORE = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", "*.pyc")
TIMING = {"seconds", "solver_seconds", "lines"}


def copy_repo(dest: Path) -> Path:
    """A copy of the checkout whose own code is what `python` imports there (see `lay_out_packages`)."""
    target = dest / "repo"
    shutil.copytree(ROOT, target, ignore=IGNORE, symlinks=True)
    lay_out_packages(target)
    return target


def lay_out_packages(repo: Path) -> None:
    """Link the copy's folders where the installed package has them (pyproject's package-dir: dmcheck.model
    is model/, ...), then check that `dmcheck.model` is imported from the copy.

    The virtualenv has the checkout installed in editable mode, whose import hook maps dmcheck.model to the
    CHECKOUT's model/: with PYTHONPATH=copy alone, `dmcheck` would come from the copy but `dmcheck.model` from
    the checkout, and no mutation of model/ would be applied. With dmcheck/model -> ../model in the copy, the
    ordinary path search finds the copy's module before the editable hook (appended last) is asked."""
    package_dir = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-dir"]
    where = {"dmcheck": repo / "dmcheck"}
    for name in sorted(package_dir, key=lambda n: n.count(".")):
        parent, _, last = name.rpartition(".")
        link, folder = where[parent] / last, repo / package_dir[name]
        if not link.exists():
            link.symlink_to(os.path.relpath(folder, link.parent), target_is_directory=True)
        where[name] = folder
    probe = "import importlib.util as u; print(u.find_spec('dmcheck.model').origin)"
    status, out = run(repo, ["-c", probe], 60)
    if status != "pass" or not Path(out.strip()).resolve().is_relative_to(repo.resolve()):
        raise RuntimeError(f"the copy at {repo} imports dmcheck.model from {out.strip()!r}, not from itself")


def apply(repo: Path, m: Mutation) -> str:
    """Apply `m` in `repo`; returns "" or why it is STALE."""
    path = repo / m.file
    if not path.exists():
        return f"{m.file} does not exist"
    text = path.read_text(encoding="utf-8")
    n = text.count(m.old)
    if n != 1:
        return f"the snippet occurs {n} times in {m.file}"
    mutated = text.replace(m.old, m.new)
    if path.suffix == ".py":
        try:
            compile(mutated, str(path), "exec")
        except SyntaxError as e:   # a mutation must break a rule, not the file
            return f"the mutated file does not compile: {e.msg} (line {e.lineno})"
    path.write_text(mutated, encoding="utf-8")
    return ""


def run(repo: Path, args: list[str], timeout: float) -> tuple[str, str]:
    """('pass'|'fail:N'|'timeout', output) of `python args` in `repo`, on the copy's code (`PYTHONPATH=repo`
    and the folders `lay_out_packages` linked, which every process it starts inherits too); 'fail' carries
    the exit code: 'fail:1'."""
    env = dict(os.environ, PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    try:
        p = subprocess.run([PY, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        partial = e.stdout or ""
        return "timeout", partial.decode(errors="replace") if isinstance(partial, bytes) else partial
    return ("pass" if p.returncode == 0 else f"fail:{p.returncode}"), p.stdout + p.stderr


def killer(output: str) -> str:
    """The first failing test named in pytest's short summary (or the error that stopped collection)."""
    for pattern in (r"^FAILED (\S+)", r"^ERROR (\S+)"):
        found = re.search(pattern, output, re.M)
        if found:
            return found.group(1)
    return "(pytest failed: " + (output.strip().splitlines() or ["no output"])[-1][:100] + ")"


def pytest(repo: Path, files: tuple[str, ...], timeout: float) -> tuple[str, str]:
    """('pass'|'fail'|'timeout'|'error', the killing test or why nothing ran). A test that failed or a
    collection that broke (exit 1, 2) kills; a node id that names no test (4) or a run that selected
    none (5, e.g. a test marked slow) is an error of the catalogue, never a kill. One process (`-n 0`):
    the mutations are what runs in parallel (`--jobs`)."""
    status, out = run(repo, ["-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *files], timeout)
    if status in ("fail:1", "fail:2"):
        return "fail", killer(out)
    if status.startswith("fail"):
        return "error", f"pytest ran no test (exit {status[5:]}): " + (out.strip().splitlines() or [""])[-1][:100]
    return status, ""


def verify_view(repo: Path, timeout: float) -> dict | str:
    """What verify says, timings left out: the summary and each ruling's verdict (or a failure text)."""
    status, out = run(repo, ["-m", "dmcheck", "verify", "--json"], timeout)
    if status == "timeout":
        return "verify timed out"
    try:
        report = json.loads(out[:out.rindex("}") + 1])
    except ValueError:
        return "verify crashed: " + (out.strip().splitlines() or ["no output"])[-1][:120]
    summary = {k: v for k, v in report.get("summary", {}).items() if k not in TIMING}
    verdicts = {r.get("ref", r.get("id")): r.get("verdict") for r in report.get("rulings", [])}
    return {"summary": summary, "verdicts": verdicts}


def verify_diff(base: dict | str, now: dict | str) -> str:
    """'' when verify says the same as on the unmutated copy, else a short description."""
    if isinstance(now, str):
        return now
    if isinstance(base, str):
        return "(no baseline)"
    changed = [ref for ref, v in now["verdicts"].items() if base["verdicts"].get(ref) != v]
    keys = [k for k in now["summary"] if now["summary"][k] != base["summary"].get(k)]
    if not changed and not keys:
        return ""
    return ", ".join(([f"verdicts of {', '.join(changed[:4])}" + ("…" if len(changed) > 4 else "")] if changed else [])
                     + ([f"summary {', '.join(keys)}"] if keys else []))


def one(m: Mutation, opts, base) -> dict:
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="dmcheck-mut-") as tmp:
        repo = copy_repo(Path(tmp))
        stale = apply(repo, m)
        row = {"id": m.id, "rule": m.rule, "file": m.file, "equivalent": bool(m.equivalent)}
        if stale:
            return row | {"result": "STALE", "why": stale, "seconds": round(time.time() - start, 1)}
        files = tuple(f for f in m.tests if (repo / f.split("::")[0]).exists())   # a file not written yet
        status, by, stage = "skipped", "", "none"
        if not opts.no_tests:
            status, by = pytest(repo, files or FAST[1:], opts.timeout)
            stage = "fast"
        if status == "pass" and not opts.fast_only:
            status, by = pytest(repo, (), opts.full_timeout)
            stage = "full"
        result = {"fail": "KILLED", "timeout": "TIMEOUT", "pass": "SURVIVED", "skipped": "NOT-RUN",
                  "error": "ERROR"}[status]
        row |= {"result": result, "stage": stage, "killed_by": by}
        if not opts.no_verify:
            row["verify"] = verify_diff(base, verify_view(repo, opts.verify_timeout))
        row["seconds"] = round(time.time() - start, 1)
        return row


def line(row: dict) -> str:
    if row["result"] == "STALE":
        return f"STALE     {row['id']:<36} {row['why']}"
    what = row["killed_by"] or ("equivalent (see the catalogue)" if row["equivalent"] else "-")
    noticed = "" if "verify" not in row else ("  verify: " + (row["verify"] or "same"))
    return f"{row['result']:<9} {row['id']:<36} [{row['stage']}] {what}{noticed}  ({row['seconds']} s)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutations (and whether each applies) and exit")
    ap.add_argument("--only", action="append", default=[], help="run this mutation id (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="mutations run at once (default 1)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds for a mutation's fast tests")
    ap.add_argument("--full-timeout", type=float, default=1800, help="seconds for a survivor's full run")
    ap.add_argument("--verify-timeout", type=float, default=600)
    ap.add_argument("--fast-only", action="store_true", help="no full test run for survivors")
    ap.add_argument("--no-verify", action="store_true", help="do not run dmcheck verify")
    ap.add_argument("--no-tests", action="store_true", help="run only dmcheck verify (the tests' column is NOT-RUN)")
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    opts = ap.parse_args(argv)
    ids = {m.id for m in CATALOGUE}
    assert len(ids) == len(CATALOGUE), "mutation ids must be unique"
    unknown = [i for i in opts.only if i not in ids]
    if unknown:
        print(f"unknown mutation: {', '.join(unknown)}", file=sys.stderr)
        return 2
    chosen = [m for m in CATALOGUE if not opts.only or m.id in opts.only]
    if opts.list:
        for m in chosen:
            text = (ROOT / m.file).read_text(encoding="utf-8") if (ROOT / m.file).exists() else ""
            state = "ok" if text.count(m.old) == 1 else f"STALE ({text.count(m.old)} occurrences)"
            print(f"{m.id:<36} {state:<10} {m.file:<36} {m.rule}" + ("  [equivalent]" if m.equivalent else ""))
        return 0
    base: dict | str = "(not run)"
    if not opts.no_verify:
        with tempfile.TemporaryDirectory(prefix="dmcheck-mut-") as tmp:
            base = verify_view(copy_repo(Path(tmp)), opts.verify_timeout)
        print(f"baseline verify: {'ok' if isinstance(base, dict) else base}", flush=True)
    rows = []
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        for row in pool.map(lambda m: one(m, opts, base), chosen):
            rows.append(row)
            print(line(row), flush=True)
    report(rows)
    if opts.json:
        Path(opts.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0 if all(r["result"] == "KILLED" or r.get("equivalent") for r in rows) else 1


def report(rows: list[dict]) -> None:
    run_rows = [r for r in rows if r["result"] != "STALE"]
    real = [r for r in run_rows if not r["equivalent"] and r["result"] != "NOT-RUN"]
    killed = [r for r in real if r["result"] == "KILLED"]
    stale = len(rows) - len(run_rows)
    print(f"\nkilled {len(killed)} of {len(real)} non-equivalent mutations"
          f" ({len(run_rows) - len(real)} equivalent, {stale} stale)")
    seen = [r for r in run_rows if "verify" in r and not r["equivalent"]]
    if seen:
        print(f"verify noticed {sum(1 for r in seen if r['verify'])} of {len(seen)}")
    for r in real:
        if r["result"] != "KILLED":
            print(f"  {r['result'].lower()}: {r['id']} ({r['rule']})")



# ---- cards with a zone of their own: psychic creatures (issue 34 items 2-3: 117, 407, 805) and GR creatures
# (118, 408, 701.30a, 811), one return rule for both (model/homes.py) ------------------------------------------
HS = "model/instructions/hyperspatial.py"
PSY = "tests/test_psychic.py::"
GR = "tests/test_gr.py::"
CATALOGUE += (
    Mutation("R805.4b-811.2b-stays-outside", "117.1, 805.4b, 118.1, 811.2b: a psychic or GR creature put elsewhere "
             "returns at once", P,
             "return homes.return_strays(self, s, found, out)   # 117.1, 805.4b, 118.1, 811.2b", "return None",
             rules=("117.1", "805.4b", "118.1", "811.2b"),
             tests=(attack("PS02_bounced_psychic_returns_to_hyperspatial"),
                    attack("GR02_destroyed_gr_creature_returns_to_super_gr"),
                    attack("GR03_returned_gr_creature_goes_under_the_pile"))),
    Mutation("R407.1-408.1-anything-at-home", "407.1, 408.1: the hyperspatial zone holds psychic creatures only, "
             "the super GR zone GR creatures only", POS,
             "                if cards.card(c).home != home.zone:", "                if False:",
             rules=("407.1", "408.1", "118.2"),
             tests=(PSY + "test_the_loader_refuses_a_card_that_is_no_psychic_in_the_hyperspatial_zone",
                    GR + "test_the_loader_refuses_a_card_that_is_no_gr_creature_in_the_super_gr_zone")),
    Mutation("R805.4a-cost-limit-ignored", "805.4a: an effect puts a psychic creature within its limits", HS,
             "cands = [c for c in s.zone(me).hyperspatial if m.card(c).cost <= limit]",
             "cands = list(s.zone(me).hyperspatial)",
             rules=("805.4a",),
             tests=(PSY + "test_put_from_hyperspatial_offers_only_the_psychic_creatures_within_the_cost",)),
    Mutation("R118.1-returns-on-top", "118.1: a returning GR creature goes under the super GR pile, not on it",
             "model/state.py", "        items[_ZONE[zone]] += (card,)",
             "        items[_ZONE[zone]] = (card,) + items[_ZONE[zone]]",
             rules=("118.1", "408.2"),
             tests=(GR + "test_a_gr_creature_put_elsewhere_goes_to_the_bottom_of_its_owners_super_gr_zone",
                    attack("GR03_returned_gr_creature_goes_under_the_pile"))),
    Mutation("R701.30a-summons-the-bottom", "701.30a: GR summon takes the top card of the super GR zone",
             "model/instructions/gr.py", "summon(m, s, task.controller, pile[0], \"super_gr\", out, summoned=True)",
             "summon(m, s, task.controller, pile[-1], \"super_gr\", out, summoned=True)",
             rules=("701.30a", "408.2", "811.2a"),
             tests=(attack("GR01_gr_summon_puts_the_top_card_and_it_enters"),)),
    Mutation("R805.6-awakened-face-sick", "805.6: an awakened psychic creature is not summoning sick", HS,
             "    return replace(s, entered=entered) if s.entered != entered and not hyper else s", "    return s",
             rules=("805.6", "805.5"),
             tests=(attack("PS07_awakened_psychic_is_not_summoning_sick"),)),
    Mutation("R805.1c-806.1-no-link", "805.1c, 806.1: an awakening link makes one psychic super creature", HS,
             "    if top not in s.zone(me).battle or top not in m.faces or partners is None:", "    if True:",
             rules=("805.1c", "806.1"),
             tests=(attack("PS09_linked_super_creature_leaves_as_one_and_its_cards_go_home"),)),
)

# ---- draghearts (305, 306, 807): weapons and fortresses put from the hyperspatial zone, a lone weapon sent home ------
PSY_FLIP = "tests/test_psychic_flip.py::"
CATALOGUE += (
    Mutation("R117.2-lone-weapon-stays", "117.2, 305.3: a weapon left alone in the battle zone goes home",
             "model/homes.py",
             "if m.card(c).type in ALONE\n              or m.card(c).cell)", "if m.card(c).cell)",
             rules=("117.2", "305.3"),
             tests=(piles("DH01_weapon_goes_home_when_its_creature_is_destroyed"),
                    piles("DH02_weapon_does_not_follow_its_bounced_creature"))),
    Mutation("R806.1a-lone-cell-stays", "806.1a, 703.4g: a psychic cell alone in the battle zone goes home",
             "model/homes.py", "              or m.card(c).cell)", ")",
             rules=("806.1a", "703.4g"),
             tests=(PSY_FLIP + "test_a_psychic_cell_left_alone_returns_to_the_hyperspatial_zone_between_steps",)),
    Mutation("R806.1b-no-link-release", "806.1b: a super creature with link release does not leave whole",
             "model/instructions/destruction.py",
             "    if m.card(card).has(LINK_RELEASE) and under(s.zone(owner), card):",
             "    if False and under(s.zone(owner), card):",
             rules=("806.1b",), tests=(attack("PS11_link_release_returns_one_cell_and_turns_the_rest_over"),)),
    Mutation("R306.2-no-fortress-put", "306.1, 306.2: an effect puts a fortress alone into the battle zone", HS,
             'return s.with_zone(me, z.move("hyperspatial", "battle", c))', "return s",
             rules=("306.1", "306.2"), tests=(piles("DH03_dragner_puts_a_weapon_or_a_fortress"),)),
    Mutation("R807.4a-dragheart-cost-limit-ignored", "807.4a: an effect puts a dragheart within its limits", HS,
             "and m.card(c).cost <= limit\n", "\n",
             rules=("807.4a",), tests=(piles("DH03_dragner_puts_a_weapon_or_a_fortress"),)),
    Mutation("R807.1a-dragsolution-untaps", "807.1a: a dragheart that dragsolves keeps its tapped state", HS,
             "    s = _unequip(s, owner, card) if m.card(card).dragheart else s",
             "    s = _unequip(s, owner, card) if m.card(card).dragheart else s\n"
             "    s = s.with_zone(owner, replace(s.zone(owner), tapped=tuple(c for c in s.zone(owner).tapped "
             "if c != card)))",
             rules=("807.1a",), tests=(piles("DH09_a_tapped_fortress_dragsolves_into_a_tapped_creature"),)),
    Mutation("R807.5-arrival-with-one-face", "807.5, 807.5a: a dragheart put this turn is sick whatever face is up",
             "model/turn.py", "    return new + [m.faces[c] for c in new if c in m.faces and m.card(c).dragheart]",
             "    return new",
             rules=("807.5", "807.5a"),
             tests=(piles("DH07_a_weapon_put_this_turn_dragsolves_into_a_sick_creature"),)),
)



# ---- Gods and God links (issue 34 item 3: 202.5, 703.4e-f, 804; model/gods.py) ----------------------------------
GODS = "tests/test_gods.py::"
CATALOGUE += (
    Mutation("R804.7-linked-god-leaves-whole", "804.7, 703.4f: only one card of a leaving linked God leaves",
             "model/instructions/destruction.py",
             "    if gods.linked(s.zone(owner), card):   # 804.7", "    if False:   # 804.7",
             rules=("804.7", "703.4f"), tests=(piles("GD03_a_destroyed_linked_god_loses_one_card"),)),
    Mutation("R804.1b-first-cards-power", "804.1b: a linked God's power is its cards' together", "model/gods.py",
             "    power = min(sum(d.power for d in defs), INFINITY)", "    power = first.power",
             rules=("804.1b",), tests=(piles("GD01_linked_god_power_is_the_sum"),)),
    Mutation("R804.5-linked-god-sick", "804.5: a linked God is not summoning sick", "model/legality.py",
             "        if gods.linked(s.zone(self.owner(c)), c):\n            return False",
             "        if False:\n            return False",
             rules=("804.5",), tests=(piles("GD05_a_god_entering_links_and_may_attack"),)),
    Mutation("R804.2a-names-of-the-creature", "804.2a: a G-Link reads each card alone", "model/gods.py",
             "    return any(where == side and name in (other.name, other.ja) for name, where in g_link)",
             "    return any(where == side for name, where in g_link)",
             rules=("804.2a",), tests=(piles("GD06_g_link_reads_each_card_alone"),)),
)

# ---- the abyss zone (issue 34 item 2: 410, 701.33; model/instructions/abyss.py) --------------------------------
ABYSS = "tests/test_abyss.py::"
CATALOGUE += (
    Mutation("R410.4-abyss-card-goes-home", "410.4: a card in the abyss zone never leaves it, not even for its home",
             "model/homes.py", "for p in PLAYERS for zone in ELSEWHERE\n",
             'for p in PLAYERS for zone in ELSEWHERE + ("abyss",)\n',
             rules=("410.4",), tests=(attack("AY01_gr_creature_sent_to_the_abyss_stays_there"),
                                      ABYSS + "test_a_card_in_the_abyss_never_leaves_it_not_even_for_its_home_zone")),
    Mutation("R701.33b-abyss-stopped", "701.33b: nothing stops a card going to the abyss",
             "model/instructions/abyss.py",
             'destruction.move_out(m, s, choice[0], "abyss", out)',
             'destruction.leave(m, s, choice[0], "abyss", out)',
             rules=("701.33b",), tests=(attack("AY02_cannot_leave_does_not_stop_the_abyss"),)),
    Mutation("R410.3-abyss-ordered", "410.3: the abyss zone keeps no order", "model/state.py",
             "    abyss: Sorted[CardId] = ()", "    abyss: tuple[CardId, ...] = ()",
             rules=("410.3",), tests=(ABYSS + "test_the_abyss_zone_keeps_no_order",)),
)

# ---- the mana zone (issue 34 item 2: 400.5b, 405.1; model/mana.py) ------------------------------------------------
CATALOGUE += (
    Mutation("R405.1-multicoloured-untapped", "405.1: a multicoloured card enters the mana zone tapped",
             "model/mana.py",
             '    if colour(seen(m, z, card).civs) != "multicolored" or', "    if True or",
             rules=("405.1",), tests=(attack("MZ01_multicoloured_card_enters_the_mana_zone_tapped"),)),
    Mutation("R400.5b-tapped-mana-enters-tapped", "400.5b: a tapped mana card enters the battle zone untapped",
             "model/instructions/effects.py",
             '(z.unlink(cid) if cid in z.tapped else z).move(zone, "battle", cid)', 'z.move(zone, "battle", cid)',
             rules=("400.5b",),
             tests=("tests/test_mana.py::test_a_multicoloured_card_is_tapped_in_the_mana_zone_and_enters_the_battle_"
                    "zone_untapped",)),
)

# ---- the pending state (issue 34 item 2: 409; model/counts.py, model/instructions/effects.py cast) -----------------
CATALOGUE += (
    Mutation("R409.1c-pending-spell-counted", "409.1c: a spell being cast is not counted in the hand",
             "model/counts.py", '    return counted(s, me, "hand")\n',
             '    return counted(s, me, "hand") + len(s.zone(me).resolving)\n',
             rules=("409.1c", "409.1"), tests=(attack("PD01_a_spell_being_cast_is_not_counted_in_the_hand"),)),
)

# ---- the deck (issue 34 item 2: 401.6; model/instructions/deck.py) -------------------------------------------------
CATALOGUE += (
    Mutation("R401.6-nth-of-a-short-deck", "401.6: Nth from the top of a deck of fewer than N cards is its bottom",
             "model/instructions/deck.py", "    if len(z.deck) < n:\n", "    if False:\n",
             rules=("401.6",), tests=(attack("ND01_nth_from_the_top_of_a_short_deck_is_the_bottom"),)),
    Mutation("R400.6-one-card-of-the-zone", "400.6: an effect on a zone acts on every card in it",
             "model/instructions/whole_zone.py", "    cards = tuple(getattr(s.zone(me), src))\n",
             "    cards = tuple(getattr(s.zone(me), src))[:1]\n",
             rules=("400.6",), tests=(attack("ZN01_an_effect_on_the_hand_moves_every_card_of_it"),)),
)


# ---- hyper mode (816): a released creature is its hyper face (model/hyper.py, cards.py `_with_hyper`) -----------
CATALOGUE += (
    Mutation("R816.2b-normal-power-kept", "816.2b: released hyper mode's power replaces the normal one",
             "model/cards.py",
             '    merged.update({k: hyper[k] for k in ("power", "breaker", "modelled", "omitted") if k in hyper})',
             '    merged.update({k: hyper[k] for k in ("breaker", "modelled", "omitted") if k in hyper})',
             rules=("816.2b",), tests=(attack("HM03_hyper_power_replaces_the_normal_power"),)),
    Mutation("R816.2c-released-again", "816.2c: released hyper mode is not released again",
             "model/instructions/hyper_mode.py", "    if face is None or not m.card(face).hyper:",
             "    if face is None:",
             rules=("816.2c",), tests=(attack("HM05_released_hyper_mode_is_not_released_again"),)),
    Mutation("R816.3-released-elsewhere", "816.3: hyper mode is off outside the battle zone", "model/hyper.py",
             "                 if m.card(c).hyper)", "                 if False)",
             rules=("816.3",), tests=(attack("HM06_hyper_mode_ends_when_it_leaves"),)),
)


# ---- King Cells (814): cells combined into one King creature (model/kings.py) ---------------------------------
CATALOGUE += (
    Mutation("R814.1-read-as-a-cell", "814.1: the combined King Cells are their King creature", "model/kings.py",
             "    return m.pool[m.pool.resolve(cell.king)]", "    return cell",
             rules=("814.1",), tests=(attack("KC01_king_creature_breaks_as_the_king"),)),
)


# ---- issue 34: dragheart super creatures (808) and cells (806.1d; model/instructions/hyperspatial.py) ----------
CATALOGUE += (
    Mutation("R808.1-no-dragheart-cell", "808.1: a dragheart fortress's back face may be a dragheart cell",
             "model/cards.py", '_CELL_FRONTS = ("psychic_creature", "dragheart_weapon", "dragheart_fortress")',
             '_CELL_FRONTS = ("psychic_creature",)',
             rules=("808.1",), tests=(piles("DX01_a_dragheart_super_creature_linked_this_turn_may_attack"),)),
    Mutation("R808.1a-super-sick", "808.1a: a dragheart super creature is never summoning sick", "model/legality.py",
             "        if is_evolution_now(cdef, s.zone(self.owner(c)), c) or self.dragheart_super(s, c):",
             "        if is_evolution_now(cdef, s.zone(self.owner(c)), c):",
             rules=("808.1a",), tests=(piles("DX01_a_dragheart_super_creature_linked_this_turn_may_attack"),)),
    Mutation("R808.1b-no-cell-escape", "808.1b: cell escape returns one card and turns the rest over",
             "model/instructions/hyperspatial.py",
             "    return split(m, s, task.controller, task.source, choice, \"hyperspatial\", out, "
             "(\"R808.1b\", \"cell_escape\"))",
             "    return s",
             rules=("808.1b",), tests=(piles("DX02_cell_escape_returns_one_card_and_turns_the_rest_over"),)),
    Mutation("R808.1c-cell-with-a-cost", "806.1d, 808.1c: a cell alone has cost 0", "model/cards.py",
             '("cost", "a cell alone has cost 0 (806.1d, 808.1c); expected `cost: 0`", cell.get("cost") != 0),',
             '("cost", "a cell alone has cost 0 (806.1d, 808.1c); expected `cost: 0`", False),',
             rules=("806.1d", "808.1c"),
             tests=("tests/test_dhsuper.py::test_the_loader_refuses_a_cell_with_a_cost_or_a_dragheart_cell_with_a_race",)),
)


# ---- issue 34: a creature of three cards split while attacking (806.2a, 804.4a) ---------------------------------
CATALOGUE += (
    Mutation("R806.2a-fixed-attacker", "806.2a: the attacking player picks the split creature that attacks on",
             "model/instructions/hyperspatial.py",
             "    return _cells_options(m, s, task, ins.get(\"card\"), attack=True)",
             "    return _cells_options(m, s, task, ins.get(\"card\"))",
             rules=("806.2a",), tests=(piles("PS12_a_split_psychic_super_creature_attacker_picks_who_attacks"),)),
    Mutation("R804.4a-fixed-attacker", "804.4a: the attacking player picks the part of a split God that attacks on",
             "model/gods.py", "    keeper = chosen if chosen in heads else head if head in heads else heads[0]",
             "    keeper = head if head in heads else heads[0]",
             rules=("804.4a",), tests=(piles("GD10_a_split_god_of_three_attacker_picks_who_attacks"),)),
)


# ---- issue 34: a cell has its super creature's civilizations (806.1f, 808.1e) -----------------------------------
CATALOGUE += (
    Mutation("R808.1e-cell-own-civilizations", "806.1f, 808.1e: a cell has its super creature's civilizations",
             "model/instructions/selection.py",
             "    top = top_of(s.zone(m.owner(cid)), cid) if m.card(cid).cell else cid", "    top = cid",
             rules=("806.1f", "808.1e"),
             tests=("tests/test_dhsuper.py::test_a_cell_has_the_civilizations_of_its_super_creature",
                    "tests/test_dhsuper.py::test_a_psychic_cell_has_the_civilizations_of_its_super_creature")),
)


# ---- issue 34: a God linking between two rows (804.3a; model/instructions/god_links.py) -------------------------
CATALOGUE += (
    Mutation("R804.3a-left-state-only", "804.3a: a God linking between a tapped and an untapped God is tapped",
             "model/instructions/god_links.py",
             "    tapped = left in z.tapped or right in z.tapped or card in z.tapped",
             "    tapped = left in z.tapped or card in z.tapped",
             rules=("804.3a",), tests=(piles("GD11_a_god_linking_between_a_tapped_and_an_untapped_god_is_tapped"),)),
    Mutation("R804.3a-no-link-between", "804.3a: a God may link between the ends of two rows",
             "model/instructions/god_links.py",
             "             for a in places if a[2] == gods.RIGHT "
             "for b in places if b[2] == gods.LEFT and b[0] != a[0]]",
             "             for a in places if a[2] == gods.RIGHT for b in places if False]",
             rules=("804.3a",), tests=(piles("GD11_a_god_linking_between_a_tapped_and_an_untapped_god_is_tapped"),)),
)


# ---- issue 34/33: the charge step, the main step and mana payment (model/main_step.py, model/payment.py) ---------
MSP = "model/main_step.py"
PAY = "model/payment.py"


def mainstep(stem: str) -> str:
    return f"tests/test_mainstep.py::test_every_main_step_scenario_holds[{stem}]"


CATALOGUE += (
    Mutation("R112.2a-one-card-all-civilizations", "112.2a: a multicoloured mana card pays one civilization only", PAY,
             "    return any(all(civ in card_civs[i] for civ, i in zip(civs, chosen))",
             "    return any(all(any(civ in cc for cc in card_civs) for civ in civs)",
             rules=("112.2a", "601.1d", "107.2"),
             tests=(mainstep("MS02_one_mana_card_pays_one_civilization"),
                    "tests/test_mainstep.py::test_one_mana_card_pays_one_civilization")),
    Mutation("R112.2c-overpaying", "112.2c: no more mana cards are tapped than the cost", PAY,
             "    return max(cost, len(civs))", "    return max(cost, len(civs)) + 1",
             rules=("112.2c",), tests=(mainstep("MS04_no_overpaying_tapped_mana_pays_nothing"),)),
    Mutation("R105.6-tapped-mana-pays", "105.6: a tapped mana card cannot be tapped again to pay", PAY,
             "    untapped = [c for c in z.mana if c not in z.tapped]", "    untapped = list(z.mana)",
             rules=("105.6", "105.3"), tests=(mainstep("MS04_no_overpaying_tapped_mana_pays_nothing"),)),
    Mutation("R112.2b-no-cost-change", "112.2b, 601.1e: cost changes in force change the cost paid", MSP,
             "        return max(0, printed + cost_change(self, s, cid)) if self.statics else printed",
             "        return printed",
             rules=("112.2b", "601.1e", "601.1a"),
             tests=(mainstep("MS08_cost_reduction_fixed_before_paying"),)),
    Mutation("R503.2-two-charges", "503.2: one charge in the charge step", MSP,
             '            s = replace(s, phase="main")   # 503.2',
             '            s = replace(s, phase="charge")   # 503.2',
             rules=("503.2",), tests=(mainstep("MS01_charge_step_one_card_or_none"),
                                      "tests/test_mainstep.py::test_the_charge_step_allows_one_charge_only")),
    Mutation("R503.1-no-charge-offered", "503.1: the turn player may charge a card of his hand", MSP,
             "                    for c in distinct(self, s, s.zone(tp).hand)]",
             "                    for c in distinct(self, s, s.zone(tp).hand)][:0]",
             rules=("503.1",), tests=(mainstep("MS01_charge_step_one_card_or_none"),
                                      "tests/test_mainstep.py::test_the_charge_step_offers_no_charge_too")),
    Mutation("R504.1-nothing-executed", "504.1: the turn player executes cards in the main step", MSP,
             '        return tuple(acts) + (Action("end_main"', '        return () + (Action("end_main"',
             rules=("504.1",), tests=(mainstep("MS03_civilizations_paid_then_the_amount"),
                                      "tests/test_mainstep.py::test_only_the_named_cards_are_executed")),
    Mutation("R301.1-no-summon", "301.1, 504.1: a creature of the hand is summoned in the main step", MSP,
             '            if cdef.type == "creature":\n                out.append((cid, "summon"))',
             '            if False:\n                out.append((cid, "summon"))',
             rules=("301.1", "504.1", "601.1g"), tests=(mainstep("MS03_civilizations_paid_then_the_amount"),)),
)


# ---- issue 34/33: choosing a name, a race, a civilization or a number (model/instructions/choosing.py) ---------
CATALOGUE += (
    Mutation("R106.3-colourless-chosen", "106.3: a chosen civilization is one of the five, never colourless",
             "model/instructions/choosing.py",
             "        return CIVILIZATIONS                      # 106.3",
             '        return (*CIVILIZATIONS, "colorless")      # 106.3',
             rules=("106.3",),
             tests=("tests/test_names.py::test_a_chosen_civilization_is_one_of_the_five_never_colourless",)),
    Mutation("R108.1a-negative-number", "108.1a: a chosen number is never negative",
             "model/instructions/choosing.py", "        return tuple(range(0, most + 1))",
             "        return tuple(range(-1, most + 1))",
             rules=("108.1a",), tests=("tests/test_names.py::test_a_chosen_number_is_never_negative",)),
    Mutation("R203.4-part-of-a-race", "203.4: a chosen race is a whole race, never a part of one",
             "model/instructions/choosing.py",
             "        return tuple(sorted({r for c in cards for r in m.pool[c].race_names()}))",
             "        return tuple(sorted({w for c in cards for r in m.pool[c].race_names()"
             " for w in (r, r.split()[0])}))",
             rules=("203.4",), tests=("tests/test_names.py::test_a_chosen_race_is_a_whole_race_that_exists",)),
    Mutation("R202.2-choice-not-read", "202.2: the name named is what the rest of the effect reads",
             "model/instructions/choosing.py",
             "    rest = tuple(Instr(i.op, substitute(i.args, value)) for i in top.program[top.pc:])",
             "    rest = top.program[top.pc:]",
             rules=("202.2",), tests=(attack("NM01_name_one_face_of_a_psychic_creature"),)),
    Mutation("R805.7-faces-not-named", "805.7: either face of a double-sided card may be named",
             "model/instructions/choosing.py",
             "    cards = {m.instances[i].card for i in range(len(m.instances))}",
             "    cards = {m.instances[i].card for i in range(len(m.instances)) if i not in m.faces}",
             rules=("805.7", "807.6", "809.4"),
             tests=("tests/test_names.py::test_naming_a_psychic_creature_names_one_face",)),
    Mutation("R202.3a-part-of-a-name-matched", "202.3a: a named card is matched by its whole name",
             "model/instructions/selection.py",
             '    if "name_is" in want and want["name_is"] not in card_names(m, s, cid):',
             '    if "name_is" in want and not any(contains_words(n, want["name_is"]) for n in card_names(m, s, cid)):',
             rules=("202.3a",), tests=(attack("NM05_a_named_card_matches_its_whole_name"),)),
    Mutation("R200.3c-face-down-read", "200.3c: a double-sided card specified is read by its face up",
             "model/instructions/selection.py", "    return _fits(m, s, cid, want, kind)   # 200.3c",
             "    return _fits(m, s, m.faces.get(cid, cid), want, kind)   # 200.3c",
             rules=("200.3c",), tests=(attack("NM01_name_one_face_of_a_psychic_creature"),)),
    Mutation("R809.2-pulse-face-only", "809.2: a forbidden card outside the battle zone is read as either face",
             "model/instructions/selection.py", "    return cid not in s.zone(m.owner(cid)).battle\n",
             "    return False\n",
             rules=("809.2",), tests=(attack("NM07_a_forbidden_card_in_the_deck_is_read_as_either_face"),)),
)

# ---- issue 34/33: Zero Dragon (701.31a, 812; model/instructions/zero_dragon.py, selection.py either_face) --------
CATALOGUE += (
    Mutation("R701.31a-three-nebulas", "701.31a: Zero Dragon's birth takes the ceremony and four nebulas",
             "model/instructions/zero_dragon.py", "NEBULAS = 4   # 701.31a", "NEBULAS = 3   # 701.31a",
             rules=("701.31a",), tests=(attack("ZD02_no_birth_with_three_nebulas"),)),
    Mutation("R812.1a-ceremony-not-turned", "812.1a: the ceremony turns over into the Zero Dragon creature",
             "model/instructions/zero_dragon.py", "    s = flip(m, s, top, out, _KIND)\n", "",
             rules=("812.1a", "311.1"), tests=(attack("ZD01_zero_dragon_birth_makes_one_creature_of_five_cards"),)),
    Mutation("R812.2-ceremony-face-only", "812.2: a Zero Dragon card outside the battle zone is read as either face",
             "model/instructions/selection.py", 'EITHER_FACE = frozenset({"forbidden_pulse", "ceremony", "nebula"})',
             'EITHER_FACE = frozenset({"forbidden_pulse"})',
             rules=("812.2",), tests=(attack("ZD03_a_zero_dragon_card_in_the_deck_is_read_as_either_face"),)),
)


# ---- issue 34/33: cards made of several cards (801.4a-b rebuild, 818 超魂X; model/instructions/pile_moves.py,
# model/super_soul.py) -------------------------------------------------------------------------------------------
CATALOGUE += (
    Mutation("R801.4a-only-creatures-stand", "801.4a: a tamaseed right under the top that left can stand alone",
             "model/instructions/pile_moves.py", '    return cdef.type in STANDING and not cdef.cell and not cdef.king',
             '    return cdef.type == "creature" and not cdef.cell and not cdef.king',
             rules=("801.4a", "801.4b"), tests=(piles("RB05_a_tamaseed_right_under_stays"),
                                                piles("RB06_cards_that_cannot_stand_go_until_one_can"))),
    Mutation("R818.1b-nothing-from-under", "818.1b: a creature gets the 超魂X of the cards under it",
             "model/super_soul.py", "    if not souls_x:\n        return record\n",
             "    if True:\n        return record\n",
             rules=("818.1b", "818.1c"), tests=(attack("SX01_a_creature_gets_the_super_soul_blocker_under_it"),
                                                attack("SX04_a_soul_icon_in_super_soul_is_given"))),
    Mutation("R818.1a-part-not-own", "818.1a: 超魂X abilities are the card's own", "model/cards.py",
             '        merged[k] = list(raw.get(k, [])) + list(soul.get(k, []))',
             '        merged[k] = list(raw.get(k, []))',
             rules=("818.1a",), tests=(attack("SX03_a_super_soul_blocker_is_the_cards_own"),)),
    Mutation("R801.4c-effects-lost", "801.4c: the card left by the rebuild keeps the effects on the creature",
             "model/instructions/pile_moves.py", "    s = s.inherit(old, new) if new >= 0 else s.forget(old)",
             "    s = s.forget(old)", rules=("801.4c",),
             tests=(piles("RB07_the_rebuilt_creature_keeps_the_effects_on_it"),)),
    Mutation("R801.2b-tapped-only-if-all", "801.2b: one tapped source makes the evolution creature tapped",
             "model/instructions/piles.py", "([card] if any(b in z.tapped for b in bases) else [])",
             "([card] if all(b in z.tapped for b in bases) else [])", rules=("801.2b",),
             tests=(piles("EV15_a_tapped_and_an_untapped_source_make_a_tapped_creature"),)),
    Mutation("R801.1b-one-order", "801.1b: several sources go under in the order their owner chooses",
             "model/instructions/piles.py", "    for order in permutations(sources):\n",
             "    for order in (sources,):\n", rules=("801.1b",),
             tests=(piles("EV14_several_sources_stack_in_the_owners_order"),)),
    Mutation("R813.1b-forbidden-star-needs-a-source", "813.1b: a forbidden star evolution creature needs no source",
             "model/cards.py", "        if self.has(SMAX) or self.has(FORBIDDEN_STAR):\n",
             "        if self.has(SMAX):\n",
             rules=("813.1b",), tests=(piles("FS01_a_forbidden_star_evolution_needs_no_source"),)),
    Mutation("R817.2-dream-unbarred", "817.2: no second same-name Dream element of the same owner",
             "model/instructions/effects.py", "    if dream.barred(m, s, cid):", "    if False:",
             rules=("817.2",), tests=(attack("DM01_no_second_same_name_dream_creature"),)),
    Mutation("R701.23b-seal-to-hand", "701.23b: a seal removed for a Command goes to the graveyard",
             "model/instructions/seals.py", '    z = z.remove("attached", seal).unlink(seal).add("graveyard", seal)',
             '    z = z.remove("attached", seal).unlink(seal).add("hand", seal)',
             rules=("701.23a", "701.23b"), tests=(attack("SL07_a_seal_removed_for_a_command_is_in_the_graveyard"),)),
    Mutation("R701.24a-seal-from-the-bottom", "701.24a: sealing puts the top card of the deck",
             "model/instructions/seals.py", "    top = z.deck[0]\n", "    top = z.deck[-1]\n",
             rules=("701.24a",), tests=(attack("SL06_sealed_at_the_attack_cannot_block"),)),
)


# ---- issue 34: the deck's order, cards put under, face-down mana, the pending state (401, 403.4a, 405.4, 409) ------
_Z4 = "tests/test_zones4.py::"
CATALOGUE += (
    Mutation("R401.4-one-bottom-order", "401.4: the owner orders cards put on the deck bottom together",
             "model/instructions/effects.py", "    for order in permutations(cards):\n",
             "    for order in [tuple(cards)]:\n",
             rules=("401.4",), tests=(_Z4 + "test_the_owner_orders_cards_put_on_the_deck_bottom_together",)),
    Mutation("R401.7-bottom-kept-by-shuffle", "401.7: cards added to a deck as a whole are not on its bottom",
             "model/instructions/deck.py", "    return s.with_zone(player, replace(z, deck=order, deck_added=0))",
             "    return s.with_zone(player, replace(z, deck=order))",
             rules=("401.7",), tests=(_Z4 + "test_a_deck_added_to_as_a_whole_has_no_card_put_on_its_bottom",)),
    Mutation("R403.4a-under-the-top", "403.4a: a card put under a battle-zone card goes to the bottom of its pile",
             "model/instructions/under.py", "    below = chain[-1] if chain else host\n",
             "    below = host\n",
             rules=("403.4a",),
             tests=(_Z4 + "test_a_card_put_under_a_battle_zone_card_goes_to_the_bottom_of_its_pile",)),
    Mutation("R405.4-face-down-read-as-its-face", "405.4: a face-down mana card has no colour and no card type",
             "model/mana.py", "    if card in z.face_down:\n        return FACE_DOWN\n", "",
             rules=("405.4",), tests=(_Z4 + "test_a_face_down_mana_card_is_a_colourless_card_with_no_card_type",)),
    Mutation("R409.1c-held-counted", "409.1a, 409.1c: a card pending on its way to the battle zone is not counted",
             "model/counts.py", "    return len(cards) - (sum(1 for c in z.held if c in cards) if z.held else 0)",
             "    return len(cards)",
             rules=("409.1a",), tests=(_Z4 + "test_a_creature_put_into_the_battle_zone_pends_first",)),
    Mutation("R409.1f-pend-one-at-a-time", "409.1f: cards entering together all pend before the first enters",
             "model/instructions/pending_entry.py",
             "    s = s.with_zone(player, replace(z, held=tuple(sorted(z.held + tuple(c for c, _ in cards)))))\n",
             "    s = s.with_zone(player, replace(z, held=tuple(sorted(z.held + tuple(c for c, _ in cards[:1])))))\n",
             rules=("409.1f",), tests=(_Z4 + "test_creatures_put_together_all_pend_then_enter_one_by_one",)),
    Mutation("R605.4-looked-at-cards-kept-on-top", "605.4: looked-at deck cards stay apart from the card used",
             "model/instructions/effects.py",
             '    s = move_cards(m, s, me, rest, "deck", "deck_bottom", out)\n    if use < 0:\n',
             "    if use < 0:\n",
             rules=("605.4",), tests=(_Z4 + "test_looked_at_deck_cards_are_apart_from_the_effect_of_the_card_used",)),
    Mutation("R409.1e-cast-one-pending", "409.1e: several spells one effect casts all pend before the first is cast",
             "model/instructions/pending_entry.py",
             "    s = s.with_zone(me, replace(z, held=tuple(sorted(z.held + tuple(choice)))))\n",
             "    s = s.with_zone(me, replace(z, held=tuple(sorted(z.held + tuple(choice[1:])))))\n",
             rules=("409.1e",), tests=(_Z4 + "test_spells_cast_together_all_pend_then_resolve_one_by_one",)),
    Mutation("R409.2-still-pending", "409.2: a pending card that did not move stops pending",
             "model/instructions/pending_entry.py",
             "    s = s.with_zone(me, replace(z, held=tuple(c for c in z.held if c != card)))\n"
             "    return effects.summon(",
             "    return effects.summon(",
             rules=("409.2",), tests=(_Z4 + "test_a_pending_card_that_cannot_enter_stays_as_it_was",)),
)


# ---- issue 33: replacing a draw (114.4, 609.6; model/instructions/draws.py) ------------------------------------
CATALOGUE += (
    Mutation("R114.4a-draws-not-offered", "114.4a: each draw of several meets the drawer's replacements",
             "model/instructions/draws.py",
             "    return not by_replacement(task) and bool(draw_replacements(m, s, task.controller))",
             "    return False",
             rules=("114.4", "114.4a", "609.6", "609.6a"),
             tests=(attack("DR01_each_draw_of_several_replaced_in_turn"),)),
    Mutation("R114.4b-replaced-draw-binds", "114.4b: a replaced draw binds no card for the follow-up",
             "model/instructions/draws.py", "        out.append(ev(\"replace\", \"R609.6\", replaced=\"draw\"",
             "        s = _bind_below(s, ins.get(\"bind\"), s.zone(me).deck[0]) if ins.get(\"bind\") else s\n"
             "        out.append(ev(\"replace\", \"R609.6\", replaced=\"draw\"",
             rules=("114.4b", "609.6b"),
             tests=(attack("DR03_a_follow_up_on_a_replaced_draw_does_nothing"),)),
)


# ---- issue 33: abilities with modes (700.2; model/instructions/modes.py) -----------------------------------------
CATALOGUE += (
    Mutation("R700.2b-controller-always-chooses", "700.2b: the player the text names chooses the mode",
             "model/instructions/modes.py",
             '    return other(task.controller) if ins.get("by") == "opponent" else task.controller',
             "    return task.controller",
             rules=("700.2b", "700.2c"),
             tests=("tests/test_effects6_modes.py::test_the_opponent_chooses_when_the_text_says_so",)),
    Mutation("R700.2a-first-mode-only", "700.2a: every mode is offered on resolution", "model/instructions/modes.py",
             '    return [((k,), f"{who} chooses mode {k + 1} of {task.ability}") '
             'for k in range(len(ins.get("modes")))]',
             '    return [((0,), f"{who} chooses mode 1 of {task.ability}")]',
             rules=("700.2a",), tests=(attack("MO01_the_mode_is_chosen_on_resolution"),)),
)


# ---- issue 33: activated abilities (602; model/activated.py) ------------------------------------------------------
CATALOGUE += (
    Mutation("R602.1-effect-without-the-act", "602.1: the tap ability's effect comes only through tapping",
             "model/activated.py", "    s = s.with_zone(owner, replace(z, tapped=tuple(sorted(z.tapped + (c,)))))\n",
             "", rules=("602.1", "602.2"),
             tests=("tests/test_effects6_activated.py::test_the_act_comes_first_and_the_effect_is_a_separate_event",)),
    Mutation("R602.3a-any-creature-taps", "602.3a: only a creature able to attack uses its tap ability",
             "model/legality.py", "        acts += tap_actions(self, s, [a for a, _ in self.legal_attacks(s)])",
             "        acts += tap_actions(self, s, [c for c in s.zone(tp).battle if c not in s.zone(tp).tapped])",
             rules=("602.3", "602.3a"), tests=(attack("AC02_a_summoning_sick_creature_cannot_use_its_tap_ability"),)),
)


# ---- issue 34/33: fields (308, 701.27a, 703.4l; model/fields.py, deploying in model/instructions/effects.py) --------
CATALOGUE += (
    Mutation("R703.4l-older-d2-field-stays", "703.4l: an older D2 field goes to the graveyard when another enters",
             "model/fields.py", "                 if c != new and is_field(m, c) and m.card(c).d2)",
             "                 if c != new and is_field(m, c) and m.card(c).d2 and False)",
             rules=("703.4l",), tests=(attack("FD01_a_newer_d2_field_ends_the_older_ones_static"),
                                        "tests/test_fields.py::test_fd01_fails_when_the_older_d2_field_stays")),
    Mutation("R308.1-no-deploying-in-the-main-step", "308.1: the turn player may deploy a field in his main step",
             "model/main_step.py", '                out.append((cid, "deploy"))   # 308.1',
             "                pass   # 308.1",
             rules=("308.1",), tests=("tests/test_fields.py::test_the_field_scenarios_hold",)),
    Mutation("R308.2-deployed-field-stays-out", "308.2, 701.27a: a deployed field enters the battle zone",
             "model/instructions/effects.py", "    return enter(m, s, player, cid, zone, out)\n",
             "    return s\n", rules=("308.2", "701.27a"),
             tests=("tests/test_fields.py::test_the_field_scenarios_hold",)),
    Mutation("R701.27a-s-trigger-field-summoned", "701.27a: a field used for its S-Trigger is deployed, not summoned",
             "model/instructions/shield_check.py", '    if kind == "field":   # 308.2, 701.27a',
             "    if False:   # 308.2, 701.27a", rules=("701.27a",),
             tests=(attack("FD01_a_newer_d2_field_ends_the_older_ones_static"),)),
    Mutation("R819.1a-back-side-not-deployable", "819.1a: either side of a WD field may be deployed, that side upright",
             "model/main_step.py", '                    out.append((cid, "deploy_back"))',
             "                    pass", rules=("819.1a",),
             tests=("tests/test_fields.py::test_the_wd_field_scenarios_hold",)),
    Mutation("R819.1b-read-as-psychic-flip", "701.28a, 819.1b: a WD field changing sides is turned upside down",
             "model/instructions/hyperspatial.py", '    if new.type == "field":   # 819.1b',
             "    if False:   # 819.1b", rules=("819.1b", "701.28a"),
             tests=("tests/test_fields.py::test_the_wd_field_scenarios_hold",)),
    Mutation("R301.3-field-with-power-loads", "301.3, 308: the loader refuses a field with power or a breaker",
             "model/cards.py", '             for key in ("power", "breaker") if kind == "field" and key in raw]',
             '             for key in () if kind == "field" and key in raw]', rules=("308",),
             tests=("tests/test_fields.py::test_the_loader_refuses_what_a_field_cannot_be",)),
)


_TWIN_NAME_SITE = ("    if side is None or cid in s.zone(m.owner(cid)).battle:\n"
                   "        return names(m, s, cid) + card.also_named")
# ---- issue 33: reading a card (200-208, 810.4; model/payment.py, model/instructions/effects.py, selection.py) -------
CATALOGUE += (
    Mutation("R207.1-one-mana-a-card", "207.1: a mana card makes the mana of its mana number", "model/payment.py",
             "    return sum(mana_number(m, s, c) for c in cards)", "    return len(cards)",
             rules=("207.1",), tests=("tests/test_ch2.py::test_every_reading_scenario_holds",)),
    Mutation("R207.3-colorless-symbol-pays-a-civilization", "207.3: a colorless mana symbol names no civilization",
             "model/payment.py", "    card_civs = [m.card(c).civs() for c in cards]",
             "    card_civs = [m.card(c).civs() or ('Light', 'Water', 'Darkness', 'Fire', 'Nature') for c in cards]",
             rules=("207.3",), tests=("tests/test_ch2.py::test_every_reading_scenario_holds",)),
    Mutation("R201.2a-reduced-cost-read", "201.2a: an effect reads the printed cost, not the cost paid", EF,
             "if m.card(c).is_spell() and m.card(c).as_spell().cost <= limit",
             "if m.card(c).is_spell() and m.cost_to_pay(s, c, m.card(c).as_spell().cost) <= limit",
             rules=("201.2a",), tests=("tests/test_ch2.py::test_a_cost_or_less_effect_reads_the_printed_cost",)),
    Mutation("R810.4-joined-name-in-the-battle-zone", "810.4: in the battle zone a twinpact has its creature's name",
             "model/instructions/selection.py", _TWIN_NAME_SITE,
             "    if side is None:\n        return names(m, s, cid) + card.also_named", rules=("810.4",),
             tests=("tests/test_ch2.py::test_a_twinpact_name_joins_both_sides_outside_the_battle_zone",)),
    Mutation("R810.4-creature-name-everywhere", "810.4: outside the battle zone a twinpact's name joins both sides",
             "model/instructions/selection.py", _TWIN_NAME_SITE,
             "    if True:\n        return names(m, s, cid) + card.also_named", rules=("810.4",),
             tests=("tests/test_ch2.py::test_a_twinpact_name_joins_both_sides_outside_the_battle_zone",)),
    Mutation("R206.2a-own-plus-power-everywhere", "206.2a: outside the battle zone a + power is the printed number",
             "model/continuous.py",
             "        if st.change == POWER and reaches(m, s, src, st, cid) and works(m, s, src, st):",
             "        if st.change == POWER and reaches(m, s, src, st, cid):", rules=("206.2a",),
             tests=("tests/test_ch2.py::test_a_plus_power_is_the_printed_number_outside_the_battle_zone",)),
    Mutation("R202.4-no-added-name", "202.4: a card has the names its text adds besides its own", CA,
             'also_named=tuple(str(n) for n in raw.get("also_named", []))', "also_named=()", rules=("202.4",),
             tests=("tests/test_ch2.py::test_a_card_with_an_added_name_has_both",)),
    Mutation("R208.1a-no-printed-icon", "208.1a: an effect may read an icon printed on a card", CA,
             'souls=tuple(str(x) for x in raw.get("souls", [])),', "", rules=("208.1a",),
             tests=("tests/test_ch2.py::test_an_effect_reads_a_printed_icon",)),
    Mutation("R201.1b-psychic-played-from-hyperspace-unchecked", "201.1b: a psychic is not executed from the "
             "hyperspatial zone", "model/scenario_file.py", "        if name in homed and name not in hand:",
             "        if False:", rules=("201.1b",),
             tests=("tests/test_ch2.py::test_a_psychic_creature_is_never_executed_from_the_hyperspatial_zone",)),
    Mutation("R207.2-printed-mana-number-only", "207.2: an effect may change a card's mana number",
             "model/continuous.py", "    return max(set_to) if set_to else printed", "    return printed",
             rules=("207.2",), tests=("tests/test_ch2.py::test_an_effect_changes_the_mana_number",)),
)


# ---- issue 34/33: Gachinko Judge (701.21, 201.2c; model/instructions/gachinko.py) ---------------------------------
CATALOGUE += (
    Mutation("R701.21a-shown-card-stays-on-top", "701.21a: each shown card goes to its deck's bottom",
             "model/instructions/gachinko.py",
             '            s = s.with_zone(p, s.zone(p).move("deck", "deck_bottom", top))\n', "",
             rules=("701.21a",),
             tests=("tests/test_kp7_gachinko.py::test_gachinko_judge_shows_and_bottoms_each_top_card",)),
    Mutation("R701.21b-tie-lost", "701.21b: a cost at least the opponent's wins (a tie is the user's)",
             "model/instructions/gachinko.py", "(theirs is None or mine >= theirs)",
             "(theirs is None or mine > theirs)",
             rules=("701.21b",),
             tests=("tests/test_kp7_gachinko.py::test_gachinko_judge_user_wins_with_a_cost_at_least_his_opponents",)),
    Mutation("R201.2c-user-picks-every-cost", "201.2c: the revealer, not the user, picks a two-cost card's cost",
             "model/instructions/gachinko.py", '    return _player(s, task, ins.get("who"))',
             "    return task.controller", rules=("701.21c", "201.2c"),
             tests=("tests/test_kp7_gachinko.py::test_gachinko_judge_two_cost_card_is_priced_by_its_revealer",)),
)


# ---- issue 34/33: who chooses a discarded card (701.7b; model/instructions/effects.py) ----------------------------
CATALOGUE += (
    Mutation("R701.7b-discarder-always-chooses", "701.7b: an effect may name another player to choose the discard",
             "model/instructions/effects.py",
             '    return task.controller if ins.get("chooser") == "controller" else discarder(task, ins)',
             "    return discarder(task, ins)", rules=("701.7b",),
             tests=("tests/test_kp7_discard.py::test_the_discarder_chooses_unless_the_effect_names_another",)),
)


# ---- issue 34/33: swapping two whole zones (701.26c; model/instructions/whole_zone.py) ----------------------------
CATALOGUE += (
    Mutation("R701.26c-swap-one-way", "701.26c: a whole-zone swap moves the second zone's cards too",
             "model/instructions/whole_zone.py", "    return effects.move_cards(m, s, me, second, b, a, out)",
             "    return s", rules=("701.26c",),
             tests=("tests/test_kp7_zones.py::test_a_whole_zone_swap_moves_every_card_both_ways_even_from_an_empty_zone",)),
)


# ---- issue 34/33: showing a searched card (701.10c; model/instructions/deck.py) -----------------------------------
CATALOGUE += (
    Mutation("R701.10c-search-always-shows", "701.10c: a searched card is shown only when the effect says so",
             "model/instructions/deck.py", '        if ins.get("reveal", False):', "        if True:",
             rules=("701.10c",),
             tests=("tests/test_kp7_zones.py::test_a_searched_card_is_shown_only_when_the_effect_says_so",)),
)


# ---- issue 34/33: choosing a seal, one card of a multi-card object (116.3a, 109.2a; model/instructions/seals.py) ---
CATALOGUE += (
    Mutation("R116.3a-no-seal-offered", "116.3a: an effect choosing a battle-zone card may choose a seal",
             "model/instructions/seals.py",
             "              for c in distinct(m, s, seals, key=lambda c: _host(s, m, c))]                # 116.3a",
             "              for c in ()]", rules=("116.3a",),
             tests=("tests/test_kp7_seal_choice.py",)),
    Mutation("R109.2a-whole-pile-leaves", "109.2a: only the chosen seal moves, not the creature under it",
             "model/instructions/seals.py", "    if card not in z.attached:\n",
             "    if True:\n        card = _host(s, m, card) if card in z.attached else card\n", rules=("109.2a",),
             tests=("tests/test_kp7_seal_choice.py",)),
)



# ---- issue 33: a seal chosen as a card (200.3b; model/instructions/selection.py blank_fits) ----------------------
CATALOGUE += (
    Mutation("R200.3b-seal-read-printed", "200.3b: a seal chosen as a card has cost 0 and nothing else",
             "model/instructions/selection.py",
             "    return isinstance(low, int) and isinstance(high, int) and low <= 0 <= high", "    return False",
             rules=("200.3b",),
             tests=("tests/test_seal_blank.py::test_a_seal_is_chosen_as_a_card_of_cost_0_with_nothing_else",)),
)

# ---- zones where free-execution abilities and statics work (110.4d, 604.3; model/continuous.py execute_from) ------
ZA = ("tests/test_zone_abilities.py",)
CATALOGUE += (
    Mutation("R110.4d-ninja-hand-only", "110.4d: a Ninja Strike is used from any zone its card can be executed from",
             AT, "        return found + self.ninjas_elsewhere(s, ntp) if self.elsewhere else found",
             "        return found", rules=("110.4d",), tests=ZA),
    Mutation("R110.4d-summon-from-hand-only", "110.4d: a Ninja Strike declared in the mana zone summons from there",
             "model/instructions/attacking.py",
             '    where = m.execution_zone(s, card) if m.elsewhere else ("hand" if card in s.zone(me).hand else "")',
             '    where = "hand" if card in s.zone(me).hand else ""', rules=("110.4d",), tests=ZA),
    Mutation("R110.4d-nothing-opened", "110.4d: an execute_from static opens the mana zone to the cards it reaches",
             "model/touch.py", "        return tuple(z for z in continuous.ELSEWHERE\n",
             "        return tuple(z for z in ()\n", tests=ZA),
    Mutation("R110.4d-any-card-opened", "110.4d: only the cards an execute_from reaches may be executed from the zone",
             "model/continuous.py", "and _reaches_in(m, s, src, st, cid, zone) for src, st in m.statics):",
             "for src, st in m.statics):", rules=("110.4d",), tests=ZA),
    Mutation("R604.3-executable-never-works", "604.3: a static works where its card can be executed from",
             "model/continuous.py", "        return bool(execution_zone(m, s, src))", "        return False",
             rules=("604.3",), tests=ZA),
    Mutation("R604.3-execute-from-executable-accepted",
             "604.3: an execute_from working from zone: executable is refused",
             "model/continuous.py", "        if st.change == EXECUTE and st.zone == EXECUTABLE:", "        if False:",
             tests=ZA),
)

if __name__ == "__main__":
    sys.exit(main())
