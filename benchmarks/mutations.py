"""A catalogue of rule mutations of model/: does a test (and `dmcheck verify`) notice each broken rule?

Each mutation breaks one rule the model codes (an R… rule, a shield-check step SC…, a ruling Q…, a
flow step D…, a change date, a reading) by one exact text replacement in one file. Other developers
change model/ in parallel, so a mutation whose `old` snippet does not occur exactly once is reported
STALE, never silently skipped: update its snippet.

For each mutation the script copies the repository to a temporary directory, applies the
replacement there (the checkout itself is never touched), and runs
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


P, T, SC, BR, DE, EF = ("model/procedure.py", "model/triggers.py", "model/instructions/shield_check.py",
                        "model/instructions/breaking.py", "model/instructions/destruction.py",
                        "model/instructions/effects.py")
RV, IN, RU = "model/data/rules_versions.yaml", "model/interpretations.py", "model/rules.py"
DC, AT, GE = "model/instructions/declaring.py", "model/attack.py", "model/instructions/game_end.py"
PUBLIC = FAST + ("tests/test_public_answers.py",)

CATALOGUE: tuple[Mutation, ...] = (
    # ---- who resolves first, and what may resolve when (procedure.eligible) --------------------------
    Mutation("R509.4a-b-nontp-first", "R509.4a-b: the turn player's pending effects resolve first", P,
             "p.controller == s.turn]", "p.controller != s.turn]"),
    Mutation("R509.4a-b-no-priority", "R509.4a-b: the turn player's pending effects resolve first", P,
             "pool = tp or pool", "pool = pool or tp"),
    Mutation("R509.5e-off", "R509.5e: nothing unrelated resolves while a shield check is in progress", P,
             "if not pool and s.checks:", "if False and not pool and s.checks:"),
    Mutation("R603.7a-nothing-before-break", "R603.7a: other pending effects resolve before the break", P,
             "pool = [p for p in s.pending if p.kind != BEFORE_BREAK]  # R603.7a",
             "pool = []  # R603.7a"),
    Mutation("R603.7b-reading-swapped", "R603.7b, reading nested_other_pending (inner_only vs all)", P,
             '.get("nested_other_pending") == "inner_only":', '.get("nested_other_pending") == "all":'),
    Mutation("R603.7b-inner-frame", "R603.7b: the nested frame's own effects count as 'inner'", P,
             "inner = [p for p in pool if p.frame >= depth]", "inner = [p for p in pool if p.frame > depth]"),
    Mutation("R509.4-outer-before-break", "R509.4: only the innermost frame's before-break effects go first", P,
             "p.kind == BEFORE_BREAK and p.frame == depth]", "p.kind == BEFORE_BREAK and p.frame >= 1]"),
    Mutation("R603.7b-resume-lost", "R603.7b: after the nested break, return to the interrupted effect", P,
             "frames=s.frames[:-1], running=frame.resume)", "frames=s.frames[:-1], running=())"),
    Mutation("2023-04-19-old-rules-do-not-wait",
             "2023-04-19 change (S001): before it, other effects wait for the break", P,
             "pool = []  # before 2023-04-19",
             "pool = [p for p in s.pending if p.kind != BEFORE_BREAK]  # before 2023-04-19"),
    Mutation("old_rules_waiting-swapped", "reading old_rules_waiting (triggered_effects vs before_break_effects)", P,
             '.get("old_rules_waiting") == "before_break_effects":',
             '.get("old_rules_waiting") == "triggered_effects":',
             tests=FAST + ("tests/test_interpretation_choices.py",)),
    # ---- D0/D1, Q10, Q02 --------------------------------------------------------------------------
    Mutation("D0-no-direct-attack", "D0: with no shields the attack is direct and wins", P,
             "if not shields:\n            return (Action(\"direct_attack\"",
             "if shields is None:\n            return (Action(\"direct_attack\""),
    Mutation("D1-extra-breaks-ignored", "D1: the breaker count includes this turn's extra breaks", P,
             "return self.breaker(s, s.attacker) + effects.additional_breaks(self, s, s.attacker)",
             "return self.breaker(s, s.attacker)", tests=FAST + ("tests/test_public_answers.py",)),
    Mutation("Q10-attack-not-stopped", "Q10: every chosen shield left before the break stops the attack", BR,
             "stop_attack=s.stop_attack or frame.is_attack)", "stop_attack=s.stop_attack)"),
    Mutation("Q02-charger-ignored", "Q02: Charger puts the resolved spell into the mana zone", P,
             'dest = "mana" if reading == "charger" else dest', "dest = dest"),
    # ---- triggers (R509.3, R112.3a, Q03, Q12) -----------------------------------------------------
    Mutation("R509.3-once-not-per-shield", "R509.3: a before-break ability triggers once per shield chosen", T,
             "for _ in range(n):", "for _ in range(min(n, 1)):"),
    Mutation("R509.3-break-by-spell-triggers", "R509.3: a break by a spell or ability triggers no before-break", T,
             "if not frame.by_creature:", "if frame.by_creature is None:"),
    Mutation("R112.3a-no-enters-trigger", "R112.3a: a creature put into the battle zone triggers 'enters'", T,
             'if what in SELF:', 'if what in SELF and what != "enters":'),
    Mutation("Q03-first-spell-every-spell", "Q03: Kobo triggers on the first spell of the turn only", T,
             "s.spells_cast[pindex(player)] == 1)", "s.spells_cast[pindex(player)] >= 1)"),
    Mutation("Q12-own-dragon-any-card", "Q12: 'when another own Dragon is destroyed' needs a Dragon", T,
             'and cid != card and cdef.has("Dragon"))', "and cid != card)"),
    # ---- destruction (R701.6a-b, 2022-04-08, Q12, Q14) --------------------------------------------
    Mutation("R701.6a-indestructible-ignored", "R701.6a: 'cannot be destroyed' keeps the card", DE,
             'if m.has_keyword(s, card, "Indestructible") or card in s.guards:',
             'if m.has_keyword(s, card, "Indestructible-no") or card in s.guards:',
             tests=FAST + ("tests/test_destruction.py",)),
    Mutation("R506.1d-protection-ignored",
             "R506.1d: 'cannot be destroyed until the end of the attack' keeps the card", DE,
             'if m.has_keyword(s, card, "Indestructible") or card in s.guards:',
             'if m.has_keyword(s, card, "Indestructible"):',
             tests=FAST + ("tests/test_protect.py",)),
    Mutation("R701.6a-no-attempt-event", "R701.6a: the destroy attempt happens whatever follows", DE,
             'out.append(ev("destroy", "R701.6a", card=m.label(card), player=owner))', "pass",
             tests=FAST + ("tests/test_destruction.py",)),
    Mutation("2022-04-08-switch-ignored", "2022-04-08 change (S003): before it only creatures are destroyed", DE,
             "if not (m.version.destroy_any_card or is_creature):", "if not is_creature:",
             tests=FAST + ("tests/test_destruction.py",)),
    Mutation("Q12-seal-has-characteristics", "Q12: a seal or a card under an evolution has no characteristics", DE,
             'characteristics = k in ("card", "aura")', 'characteristics = k in ("card", "aura", "seal", "under")'),
    Mutation("R701.6a-destroy-replacements-ignored",
             "R701.6a: an instead-of-destruction replacement applies (Skull Moon)", DE,
             'for kind in (("self_leave", "self_destroy") if destroy else ("self_leave",)):',
             'for kind in ((("self_leave",) if destroy else ("self_leave",))):'),
    Mutation("Q13-ex-life-without-its-shield", "Q13: EX Life needs its shield to replace the creature's leaving", DE,
             'return any(c in z.shields for c in z.hosted(card, "ex_life"))', 'return True'),
    Mutation("Q14-no-escape-chain", "Q14: a creature kept by Escape is destroyed again", DE,
             "if repeat:   # Q14", "if False:   # Q14"),
    Mutation("Q11a-skull-moon-needs-no-target", "Q11a: Skull Moon needs an opponent creature to destroy instead", DE,
             'return opponent_creatures   # Skull Moon', 'return True   # Skull Moon'),
    Mutation("R509.4c-attacker-left-unmarked", "R509.4c: the chosen shields still break when the attacker left", DE,
             "s = replace(s, attacker_left=True)   # R509.4c", "pass   # R509.4c"),
    # (`attacker_left` only chooses the rule a break cites, R509.4c instead of D4: the break happens
    # either way, so only a test reading the cited rule kills it)
    # ---- break replacements (D2, D4, Q11) ---------------------------------------------------------
    Mutation("D2-one-saver-many-shields", "D2: one replacement effect serves one shield only (Shield Saver)", BR,
             'if reading == "unusable" or (cid in used and reading != "unlimited"):',
             'if reading == "unusable":'),
    Mutation("D2-castle-any-breaker", "D2: a castle protects only against an opponent creature's break", BR,
             "if castle in used or not by_opponent_creature:", "if castle in used:"),
    Mutation("castle_other_shield-swapped", "reading castle_other_shield (unchosen_only vs not_used)", BR,
             '.get("castle_other_shield") == "not_used"):', '.get("castle_other_shield") == "unchosen_only"):',
             tests=FAST + ("tests/test_interpretation_choices.py",)),
    Mutation("Q11e-unbreakable-broken", "Q11e: a shield that cannot be broken is not broken", BR,
             "return CANNOT_BE_BROKEN", "return None"),
    Mutation("break_replacement_timing-swapped", "reading break_replacement_timing (at_break vs before_triggers)", P,
             '== "before_triggers":\n            # S002 D2-D3', '== "at_break":\n            # S002 D2-D3',
             tests=FAST + ("tests/test_replacement_timing.py",)),
    Mutation("D2-decision-order", "D2: each player decides his own replacements, turn player first", BR,
             "for c in frame.chosen\n                 for who in (s.turn, other(s.turn)))",
             # the attacker's own break replacements (A19) make it show
             "for c in frame.chosen\n                 for who in (other(s.turn), s.turn))"),
    # ---- the shield check (SC1-SC5, R113.6, R112.3b, R304.3, Q14) ---------------------------------
    Mutation("R113.6c-lt", 'R113.6c: "N or fewer shields" (<=, not <)', SC,
             "len(s.zone(check.player).shields) <= limit", "len(s.zone(check.player).shields) < limit"),
    Mutation("R113.6a-standby-counted", "R113.6a/SC1: standby cards are not counted", SC,
             "len(s.zone(check.player).shields) <= limit",
             "len(s.zone(check.player).shields) + len(s.zone(check.player).standby) <= limit"),
    Mutation("R113.6b-lt", 'R113.6b: "N or more spells in the graveyard" (<=, not <)', SC,
             '.get("graveyard_spells_at_least", 99) <= spells)', '.get("graveyard_spells_at_least", 99) < spells)'),
    Mutation("SC2-no-s-trigger-ignored", "SC2: 'cannot use S-Trigger' is obeyed", SC,
             'or m.restriction(check.player, "no_s_trigger")', "or False"),
    Mutation("SC2-card-serves-twice", "SC2: no card serves two abilities", SC,
             "if not cards & used:", "if True:"),
    Mutation("R112.3b-s-back-from-standby", "R112.3b: an S-Back card arriving now cannot be used", SC,
             "for back in z.hand:", "for back in z.hand + z.standby:"),
    Mutation("SC3-revolution-0-with-shields", "SC3: Revolution 0 only when its owner has no shields", SC,
             "if not z.shields:\n        decls +=", "if True:\n        decls +="),
    Mutation("SC4-no-fizzle", "SC4: a declared card that left the hand fizzles", SC,
             "if d.card not in z.hand:\n        out.append(ev(\"fizzle\"",
             "if False:\n        out.append(ev(\"fizzle\""),
    Mutation("SC4-g-strike-fizzles", "SC4: a G-Strike never fizzles", SC,
             'if d.kind == "G-Strike":   # never fizzles',
             'if d.kind == "G-Strike" and d.card in z.hand:   # never fizzles'),
    Mutation("R304.3-castle-leaves-first", "R304.3: a castle leaves after its shield's S-Trigger", SC,
             "if c in s_triggers:\n                castles.append", "if False:\n                castles.append"),
    Mutation("R113.6d-standby-face-up-lost", "R113.6d: a face-up shield's effect lasts in standby", SC,
             "if c in z.shields + z.standby)", "if c in z.shields)"),
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
             "    failed = m.has_keyword(s, old, CANNOT_LEAVE)", tests=PUBLIC),
    Mutation("R701.26a-does-not-leave-swapped",
             "R701.26a (S150, S151): a creature that does not leave is not swapped away", DC,
             "    failed = m.has_keyword(s, old, CANNOT_LEAVE) or", "    failed = False or", tests=PUBLIC),
    Mutation("Cannot-Leave-ignored", "'does not leave the battle zone' keeps the card where it is", DE,
             "    if m.has_keyword(s, card, CANNOT_LEAVE):\n        return s", "    if False:\n        return s",
             tests=PUBLIC),
    Mutation("2020-11-19-switch-ignored",
             "2020-11-19 change (S150): before it a failed swap applied the replacement alone", DC,
             "if choice is not None and choice != NONE and not m.version.swap_all_or_nothing:",
             "if False:", tests=PUBLIC),
    Mutation("2020-11-19-date-later", "2020-11-19 change (S150, S152) moved to 2021-01-01", RV,
             "  - date: 2020-11-19", "  - date: 2021-01-01", tests=PUBLIC),
    Mutation("110.2e-effect-on-the-player",
             "110.2e (S159): an extra break reaches the creatures there, not the player", EF,
             "    for c, k in s.extra_breaks:\n        if c == cid:",
             "    for c, k in s.extra_breaks:\n        if m.owner(c) == m.owner(cid):", tests=PUBLIC),
    Mutation("110.2e-effects-survive-leaving",
             "110.2e (S159): a creature that left is a new one, effects on it end", DE,
             "    s = s.forget(card)\n    if card == s.attacker:", "    if card == s.attacker:", tests=PUBLIC),
    Mutation("S160-evolution-loses-effects", "S160 (Q&A 2021-04-16): an evolution keeps the effects on its source", DC,
             "attacker=card).inherit(old, card)", "attacker=card)", tests=PUBLIC),
    Mutation("R507.1a-one-blocker", "R507.1a (S153, 2021-09-07): several Blockers may be used at once", AT,
             "if not self.version.several_blockers or len(blockers) < 2:", "if True:", tests=PUBLIC),
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
             "if False and not (s.zones[0].deck and s.zones[1].deck) and not _ending(s):", tests=PUBLIC),
    Mutation("S109-one-of-two-loses", "S109: two players losing at once both lose, nobody wins", GE,
             'return _game_over(s, (lost, player), "", rule, out)', "return _game_over(s, (lost,), player, rule, out)",
             tests=PUBLIC),
    Mutation("2022-08-10-switch-ignored",
             "2022-08-10 change (S156): before it Ninja Strike's mana is counted at the declaration", AT,
             "        if self.version.ninja_mana_on_resolution:\n            return True",
             "        if True:\n            return True",
             tests=PUBLIC),
    Mutation("2022-08-10-date-later", "2022-08-10 change (S156) moved to 2023-01-01", RV,
             "  - date: 2022-08-10", "  - date: 2023-01-01", tests=PUBLIC),
)

# ---- issue 35: rules where public rulings disagreed with the model, each fix reverted -----------------------------
RIGHT = ("tests/test_right_rules.py",)
PW, TO, LE, AE, PI, PM = ("model/power.py", "model/touch.py", "model/legality.py", "model/attack_end.py",
                          "model/instructions/piles.py", "model/instructions/pile_moves.py")
CATALOGUE += (
    Mutation("703.4c-printed-zero-unchecked", "703.4c (Ver.1.48): a creature printing power 0 is destroyed too", PW,
             "and self.pool[i.card].has_power and self.pool[i.card].power <= 0)",
             "and self.pool[i.card].has_power and self.pool[i.card].power < 0)", tests=RIGHT),
    Mutation("ignored-ability-read-printed",
             "an ignored ability does nothing wherever it is read (the step that never ended)", DE,
             'if m.has_keyword(s, card, "Indestructible") or card in s.guards:',
             'if m.card(card).has("Indestructible") or card in s.guards:', tests=RIGHT),
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
    Mutation("815.1a-two-smax-kept", "815.1a: a player keeps one S-MAX evolution creature, the others return", P,
             "self.smax_rule = sum(1 for i in self.instances if self.pool[i.card].has(SMAX)) > 1",
             "self.smax_rule = False", tests=RIGHT),
    Mutation("506.3d-window-reopens", "506.3d-e, S157, S116: the non-turn player's window is before his own effects", P,
             "            s = replace(s, ntp_declared=True)\n        return s", "            pass\n        return s",
             tests=RIGHT),
    Mutation("SST-bonus-decided-at-use",
             "Q&A 2023-02-17 (S342): a Super S-Trigger's bonus is decided at its declaration", SC,
             '    if m.card(d.card).type == "spell" or d.side == "spell":   # a twinpact',
             "    s = m.mark_bonus(replace(s, bonus=tuple(c for c in s.bonus if c != d.card)), player, d.card, out)\n"
             '    if m.card(d.card).type == "spell" or d.side == "spell":   # a twinpact', tests=RIGHT),
    Mutation("801.1a-evolution-enters-alone", "801.1a: an evolution creature put by an effect goes onto a creature", EF,
             "    if cdef.evolution() or cdef.has(NEO):\n", "    if cdef.has(NEO):\n", tests=RIGHT),
    Mutation("801.3-evolution-sick", "801.3: an evolution creature is never summoning sick", LE,
             "if cdef.is_evolution() or (cdef.has(NEO)", "if False or (cdef.has(NEO)", tests=RIGHT),
    Mutation("110.7-first-copy-only", "110.7, 110.2c: each copy of Power Attacker and Extra Break applies", TO,
             "return sum(values(self.card(cid).keywords, head))",
             "return sum(values(self.card(cid).keywords, head)[:1])",
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
             "blocker, first = chosen[0], chosen[1:]", "blocker, first = chosen[-1], chosen[:-1]", tests=RIGHT),
    Mutation("801.4d-rebuilt-untapped", "801.4d: a rebuilt creature keeps the tapped state", PM,
             "        if tapped:\n            z = replace(z, tapped=tuple(sorted(z.tapped + (c,))))   # 801.4",
             "        if False:\n            z = replace(z, tapped=tuple(sorted(z.tapped + (c,))))   # 801.4",
             tests=RIGHT),
    Mutation("S207-smax-discards-any-card", "S207: the S-MAX loss replacement discards a card of the same name", PI,
             "copies = sorted(c for c in z.hand if m.instances[c].card == m.instances[card].card)",
             "copies = sorted(z.hand)", tests=RIGHT),
)

IGNORE = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", "*.pyc")
TIMING = {"seconds", "solver_seconds", "lines"}


def copy_repo(dest: Path) -> Path:
    target = dest / "repo"
    shutil.copytree(ROOT, target, ignore=IGNORE, symlinks=True)
    return target


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


# `python -m MODULE ARGS` with the copy's packages imported: an editable install of this checkout maps
# `dmcheck.model` (and the others) to this checkout's folders whatever PYTHONPATH says, so the copy's are put
# first (benchmarks/checkout.py) before the module runs
BOOT = ("import runpy, sys; sys.path.insert(0, 'benchmarks'); import checkout; checkout.use('.'); "
        "module = sys.argv[1]; sys.argv = sys.argv[1:]; runpy.run_module(module, run_name='__main__', alter_sys=True)")


def run(repo: Path, args: list[str], timeout: float) -> tuple[str, str]:
    """('pass'|'fail'|'timeout', output) of `python args` (`-m MODULE ...`) in `repo`, on the copy's code."""
    env = dict(os.environ, PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    if args[:1] == ["-m"]:
        args = ["-c", BOOT, *args[1:]]
    try:
        p = subprocess.run([PY, *args], cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        partial = e.stdout or ""
        return "timeout", partial.decode(errors="replace") if isinstance(partial, bytes) else partial
    return ("pass" if p.returncode == 0 else "fail"), p.stdout + p.stderr


def killer(output: str) -> str:
    """The first failing test named in pytest's short summary (or the error that stopped collection)."""
    for pattern in (r"^FAILED (\S+)", r"^ERROR (\S+)"):
        found = re.search(pattern, output, re.M)
        if found:
            return found.group(1)
    return "(pytest failed: " + (output.strip().splitlines() or ["no output"])[-1][:100] + ")"


def pytest(repo: Path, files: tuple[str, ...], timeout: float) -> tuple[str, str]:
    # one process (`-n 0`): pytest-xdist's workers would import the installed checkout, not the copy
    status, out = run(repo, ["-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", *files], timeout)
    return status, (killer(out) if status == "fail" else "")


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
        result = {"fail": "KILLED", "timeout": "TIMEOUT", "pass": "SURVIVED", "skipped": "NOT-RUN"}[status]
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


if __name__ == "__main__":
    sys.exit(main())
