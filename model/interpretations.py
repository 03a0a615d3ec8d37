"""Named interpretation choices: the places where the sources disagree or are silent.

Each choice has readings, the sources behind each, and a default. A scenario picks readings with
`interpretation: {name: reading}`; the model reads them through `Interpretation`, only at the
point where the readings would act differently. `sets_aside` names, per reading, the statements
of the rulings corpus (scenarios/corpus.yaml, `ID@SOURCE`) that the model does not follow under
that reading: `dmcheck verify` leaves them out when it checks the model's traces against the
corpus, and reports them beside each contradiction they take part in.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Choice:
    name: str
    question: str
    readings: tuple[tuple[str, str], ...]   # (reading, the sources behind it)
    default: str
    why_default: str
    sets_aside: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (reading, corpus statements not followed)

    def set_aside(self, reading: str) -> tuple[str, ...]:
        return next((refs for r, refs in self.sets_aside if r == reading), ())


CHOICES: tuple[Choice, ...] = (
    Choice(
        name="nested_other_pending",
        question="Inside a nested break (R603.7b), which other pending effects resolve before the nested "
                 "break: every pending effect, or only those triggered inside the nested frame?",
        readings=(
            ("all", "R603.7b: after the last before-break, 'other pending effects' resolve, then the new break"),
            ("inner_only", "Q05 (S000): describes only the effects triggered by the nested before-break"),
        ),
        default="inner_only",
        why_default="read as 'every pending effect', R603.7b lets an effect triggered in the outer frame "
                    "resolve while an outer before-break effect still waits, against R509.4 and the orders "
                    "of Q03-Q05 (`dmcheck verify` finds these minimal conflicts); 'inner_only' agrees with "
                    "all of them, and R603.7b's own example has nothing else pending",
    ),
    Choice(
        name="break_replacement_timing",
        question="When are break replacements (Shield Saver, Hustle Castle, 'cannot be broken') decided: "
                 "when the break happens, after the before-break effects, or right after the shields are "
                 "chosen, before the before-break abilities trigger?",
        readings=(
            ("at_break", "S001 (Q11): a break replacement happens after the before-break effects; a Saver "
                         "destroyed by a before-break cannot protect; a Dragon W-breaker's shield addition "
                         "still happens for a saved shield; 'cannot be broken' still gets its before-break"),
            ("before_triggers", "S002 D2-D3 (rule 609.9): decide each chosen shield's replacement first; the "
                                "shields really broken fix the number of before-break triggers"),
        ),
        default="at_break",
        why_default="R509.3 (v1.42, 2024-06-19) makes before-break abilities trigger when the shields are "
                    "chosen, leaving no step for replacement decisions before them; S001's rulings agree, "
                    "while S002 is a wiki summary of an older rules text",
        sets_aside=(
            ("at_break", ("D3@S002",)),
            ("before_triggers", ("R509.3@S000", "R509.3@S001", "R603.7@S000", "R603.7@S001",
                                 "Q11c@S001", "Q11d@S001", "Q11e@S001", "Q11f@S001")),
        ),
    ),
    Choice(
        name="old_rules_waiting",
        question="Before the 2023-04-19 change (S001), what waited until the chosen shields were broken: the "
                 "abilities triggered while the before-break effects resolved, or the before-break effects "
                 "themselves?",
        readings=(
            ("triggered_effects", "S001: its sentence on the old rules follows the bullet on abilities triggered "
                                  "before the break, and says apart that the before-break abilities could not "
                                  "be interrupted"),
            ("before_break_effects", "domain.md's digest of S001: before the change the before-break abilities "
                                     "resolved after the shields were broken, without interruption"),
        ),
        default="triggered_effects",
        why_default="the seed wins over the digest (domain.md says so), and S001 names the before-break "
                    "abilities only to say they could not be interrupted",
    ),
    Choice(
        name="charger_cast_destination",
        question="A spell with Charger cast by an effect that says where the spell goes afterwards "
                 "(Kakumeijin: the bottom of the deck): where does it go?",
        readings=(
            ("charger", "Q02 (S000, 2023-09-15): Kakumeijin's first before-break casts Boil Charger and the "
                        "question counts the mana zone at 4 cards, which the answer accepts"),
            ("owner_chooses", "no source ranks the two 'instead of the graveyard' places; as with replacement "
                              "effects (D2, S002) the player concerned decides — Q02's case is one choice"),
            ("cast_destination", "S000's walk-through of R603.7b puts the spell Kakumeijin cast at the bottom "
                                 "of the deck; read literally the casting effect's own clause wins"),
        ),
        default="charger",
        why_default="Q02 is the only ruling on the combination and counts the spell in the mana zone; "
                    "'owner_chooses' agrees with it but adds outcomes no source describes",
        sets_aside=(("cast_destination", ("Q02@S000",)),),
    ),
    Choice(
        name="ntp_declaration_time",
        question="When an opponent's creature attacks, when does the non-turn player declare hidden-zone "
                 "abilities such as Ninja Strike: once the turn player's waiting effects have all resolved, or "
                 "at the moment the attack triggers, before anything resolves? (research/attack.md D-1)",
        readings=(
            ("after_tp_resolved", "S102 (dmwiki 攻撃(アタック)クリーチャー指定ステップ, current): the turn player "
                                  "resolves all his waiting effects, then the non-turn player declares and "
                                  "resolves; S114 (R511.1, v1.38) orders the end step the same way"),
            ("at_trigger", "S116 (dmwiki 使用宣言, revision 2020-07-19, and dmvault's summary): a declaration "
                           "is made when the ability triggers, and none can be added once any waiting "
                           "effect has begun to resolve"),
        ),
        default="after_tp_resolved",
        why_default="it is the current text of the page describing this very step, and the rules' end step "
                    "(R511.1) has the same turn-player-then-non-turn-player pattern; the declaration page "
                    "speaks of declarations in general",
        sets_aside=(("after_tp_resolved", ("A05@S116",)), ("at_trigger", ("R506.3b@S102",))),
    ),
    Choice(
        name="castle_other_shield",
        question="Hustle Castle puts another of its owner's shields into the hand instead of its shield's "
                 "break: may that other shield be one chosen for the same break?",
        readings=(
            ("unchosen_only", "a shield chosen for the break goes to the hand anyway; S002's T-break example "
                              "has each castle pick a shield apart from those the castles protect"),
            ("not_used", "S002 D2 forbids only a shield another castle already used; a chosen shield taken "
                         "this way is put into the hand instead of being broken"),
        ),
        default="unchosen_only",
        why_default="taking a shield that is about to be broken would let the castle protect its shield "
                    "at no cost, and no source shows a castle doing so",
    ),
)


CHOICES = CHOICES + (
    Choice(
        name="indestructible_saver",
        question="A Shield Saver that cannot be destroyed replaces a break by 'destroying' itself and stays: "
                 "how many of the shields chosen for one break may it protect?",
        readings=(
            ("unlimited", "S018 (old dmwiki mirror quoting an official Q&A, undated): 'cannot be destroyed' is "
                          "a fact, so the Saver (Guard Gainer with Souten's Kizuna) protects as many shields "
                          "as its owner likes"),
            ("one_per_break", "S005 (dmwiki Shield Saver, 2020-01-24) and S017 (English wiki): a Saver saves one "
                              "shield per break; protection does not let one Saver protect several shields"),
            ("unusable", "601.1a (S009, 2023-08-10 wording): an effect whose processing cannot be carried out "
                         "cannot be used; read so, 'destroy this creature' cannot be done to it. No source "
                         "states this; S020 says destroying such a creature is a legal attempt"),
        ),
        default="unlimited",
        why_default="the only official answer on the case (S018) lets it protect any number of shields; "
                    "S005/S017 speak of replacement-type protection ('stays instead'), which RP03 kills",
        sets_aside=(("unlimited", ("DS01@S017",)), ("one_per_break", ("RP04@S018",)),
                    ("unusable", ("RP04@S018", "DS01@S017"))),
    ),
    Choice(
        name="extra_break_applies_to_effect_breaks",
        question="Once an effect has made a player's creatures break more shields this turn (Kankuro "
                 "Blaster), does a later effect that has one of them break shields (Texas Storm's 'it "
                 "breaks one') break that many more?",
        readings=(
            ("no", "S031 (dmarchive 'Breaker' 2018-09-10, 'additional break' 2018-08-17): breaker "
                   "abilities and additional breaks act on the creature's break when its attack "
                   "succeeds; a break made by another ability does not use them (Q04 keeps it at one)"),
            ("yes", "issue 11 of this project quotes a rule 701.14d saying so; no public source reachable "
                    "here quotes a 701.14d (rulings.md, BK02), so this reading is unverified"),
        ),
        default="no",
        why_default="the only dated public source (S031) ties additional breaks to the attack's break; the "
                    "701.14d text could not be found. A count already chosen never changes (Q07)",
        sets_aside=(("yes", ("BK02@S031",)),),
    ),
)


CHOICES = CHOICES + (
    Choice(
        name="invasion_condition_rechecked",
        question="An Invasion was declared when a creature meeting its condition attacked; when it resolves, "
                 "must the attacking creature (perhaps another Invasion creature by now) still meet that "
                 "condition? (research/attack.md D-2)",
        readings=(
            ("no", "S121 (dmwiki 侵略, revision 2024-04-24): after The Red attacks and Onsoku Gatling invades "
                   "first, Red Zone (fire Command) still goes on top, though Gatling is no fire Command"),
            ("yes", "S116 (dmwiki 使用宣言, 2020-07-19): only the 'when ...' part must hold at the declaration, the "
                    "rest is checked when the ability resolves; read with issue 10's 'conditions are checked on "
                    "resolution', the creature condition would be checked again. No source applies this to Invasion"),
        ),
        default="no",
        why_default="S121 is the only source that speaks of Invasion itself and gives the worked example; S116 "
                    "speaks of declarations in general, and the Invasion condition belongs to its 'when' part",
        sets_aside=(("yes", ("A06@S121",)), ("no", ("A06r@S116",))),
    ),
)


# issue 24 (model/touch.py): where a public source leaves a point of the rest of the attack open
CHOICES = CHOICES + (
    Choice(
        name="s_trigger_plus_count",
        question="S-Trigger Plus: among 'two or more of your shields broken this turn', do the shields now being "
                 "put into the hand by the break that checks it count?",
        readings=(
            ("counts_current", "dmwiki 'S・トリガー・プラス' (revision 2024-02-22, S216), its first reading: the "
                               "shields being added to the hand now count in the turn's breaks"),
            ("excludes_current", "the same page's second reading: a break is complete only when the shield has "
                                 "reached the hand (rule 701.14a), so they are not yet counted"),
        ),
        default="counts_current",
        why_default="the model's break (D4) happens before the shield check moves the cards (SC3), as rule 509's "
                    "order has it; the page itself leaves the question open (issue 24)",
        sets_aside=(("counts_current", ("STP01r@S216",)), ("excludes_current", ("STP01@S216",))),
    ),
)


@dataclass(frozen=True, slots=True)
class Interpretation:
    """The reading chosen for each choice, as sorted (name, reading) pairs."""

    readings: tuple[tuple[str, str], ...]

    def get(self, name: str) -> str:
        for key, value in self.readings:
            if key == name:
                return value
        raise KeyError(name)

    @classmethod
    def make(cls, chosen: dict[str, str] | None = None) -> "Interpretation":
        chosen = dict(chosen or {})
        out = []
        for choice in CHOICES:
            out.append((choice.name, chosen.pop(choice.name, choice.default)))
        if chosen:
            raise KeyError(next(iter(chosen)))
        return cls(tuple(sorted(out)))


def choice_named(name: str) -> Choice | None:
    return next((c for c in CHOICES if c.name == name), None)
