"""The open choices and their readings: the places where the sources disagree or are silent.

Each choice has readings, the sources behind each, and a default. A scenario picks readings with
its `interpretation: {name: reading}` key; the model reads them through `Readings`, only at the
point where the readings would act differently. `sets_aside` names, per reading, the statements
of the rulings corpus (scenarios/corpus.yaml, `ID@SOURCE`) that the model does not follow under
that reading: `dmcheck verify` leaves them out when it checks the model's traces against the
corpus, and reports them beside each contradiction they take part in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


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
            ("at_break", "the rules: R509.3 of v1.42 (2024-06-19, S001) and R603.7 as added on 2023-09-14 "
                         "(official change log, S165) make the before-break abilities trigger when the shields "
                         "are chosen, leaving no step for replacement decisions before them; S001's rulings "
                         "(Q11, English wiki, undated): a break replacement happens after the before-break "
                         "effects, a Saver destroyed by a before-break cannot protect, a Dragon W-breaker's "
                         "shield addition still happens for a saved shield"),
            ("before_triggers", "S002 (dmwiki ダイレクトアタックステップ, revision 2024-03-07) D2-D3, citing rule "
                                "609.9: decide each chosen shield's replacement first; the shields really "
                                "broken fix the number of before-break triggers"),
        ),
        default="at_break",
        why_default="the official rules text (R603.7 of 2023-09-14, R509.3 of v1.42, 2024-06-19) is the most "
                    "authoritative and most recent source; S001's rulings agree. S002 is a wiki page whose "
                    "step D2 cites 609.9 (2023-04-10, S168), which says how several replacements are decided "
                    "but not that this happens before the before-break abilities trigger: the record is split",
        sets_aside=(
            ("at_break", ("D3@S002",)),
            ("before_triggers", ("R509.3@S000", "R509.3@S001", "R603.7@S000", "R603.7@S001", "R603.7@S165",
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
            ("before_break_effects", "the project's first English digest of S001: before the change the "
                                     "before-break abilities resolved after the shields were broken, without "
                                     "interruption"),
        ),
        default="triggered_effects",
        why_default="the source wins over a digest of it, and S001 names the before-break "
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
                 "at the moment the attack triggers, before anything resolves? (D-1)",
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
            ("not_used", "S164 (dmwiki ブレイク置換効果, revision 2024-01-14): when a castle's shield A and "
                         "another shield B are broken together, the castle may put B into the hand instead, "
                         "and A is not broken; S002 D2 (revision 2024-03-07) forbids only a shield another "
                         "castle already used"),
            ("unchosen_only", "no source: the earlier default of this project (a chosen shield goes to the "
                              "hand anyway, so taking it would protect the castle's shield at no cost)"),
        ),
        default="not_used",
        why_default="the only source that speaks of it (S164, 2024-01-14) lets the castle take a shield "
                    "chosen for the same break, and S002's D2 (2024-03-07) excludes only a used one",
        sets_aside=(("unchosen_only", ("CS01@S164",)),),
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
        question="When an ability has a creature break shields itself (Texas Storm's 'it breaks one', an "
                 "attack trigger 'this creature breaks one'), does the creature break its additional breaks "
                 "('breaks one more shield', Kankuro Blaster, a crossed Bajura's Soul) more?",
        readings=(
            ("yes", "S161 (official Q&A of 2023-06-23: Tidal & Burn crossed with Bajura's Soul breaks two "
                    "shields with its own 'break one' ability, since the creature itself breaks); S162 "
                    "(dmwiki 効果ブレイク, revision 2025-09-29, quoting rule 701.14d and an older official FAQ, "
                    "qa_old/37975); S163 (dmwiki ブロック貫通, revisions 2021-09-16 and 2022-12-20: Bajura's "
                    "Soul adds to a block-piercing break)"),
            ("no", "S031 (dmarchive 'Breaker' 2018-09-10, 'additional break' 2018-08-17): breaker abilities "
                   "and additional breaks act on the creature's break when its attack succeeds; read so, a "
                   "break made by another ability does not use them"),
        ),
        default="yes",
        why_default="the only official answer on the question (S161, 2023-06-23) and the rule the most recent "
                    "wiki revision quotes (701.14d, S162, 2025-09-29) give the additional break to such a "
                    "break; S031 (2018) speaks of breaker abilities, which never apply to it (Q04). A count "
                    "already chosen never changes (Q07)",
        sets_aside=(("yes", ("BK02@S031",)), ("no", ("AB01@S161", "AB02@S162"))),
    ),
)


CHOICES = CHOICES + (
    Choice(
        name="invasion_condition_rechecked",
        question="An Invasion was declared when a creature meeting its condition attacked; when it resolves, "
                 "must the attacking creature (perhaps another Invasion creature by now) still meet that "
                 "condition? (D-2)",
        readings=(
            ("no", "S121 (dmwiki 侵略, revision 2024-04-24): after The Red attacks and Onsoku Gatling invades "
                   "first, Red Zone (fire Command) still goes on top, though Gatling is no fire Command"),
            ("yes", "S116 (dmwiki 使用宣言, 2020-07-19): only the 'when ...' part must hold at the declaration, the "
                    "rest is checked when the ability resolves; read with the model's rule that conditions are "
                    "checked on resolution, the creature condition would be checked again. No source applies this "
                    "to Invasion"),
        ),
        default="no",
        why_default="S121 is the only source that speaks of Invasion itself and gives the worked example; S116 "
                    "speaks of declarations in general, and the Invasion condition belongs to its 'when' part",
        sets_aside=(("yes", ("A06@S121",)), ("no", ("A06r@S116",))),
    ),
)


CHOICES = CHOICES + (
    Choice(
        name="before_break_order",
        question="A creature with a before-break ability (Master Breaker, Kakumeijin) breaks for its attack: "
                 "are the shields chosen first and the abilities triggered by that choice, or do the "
                 "abilities resolve first and the shields get chosen after?",
        readings=(
            ("shields_first", "R509.3 (v1.42, 2024-06-19, S001; quoted 2023-04-21 by S000) and R603.7 (added "
                              "2023-09-14, S165): the abilities trigger when the shields are chosen; S000's "
                              "Q&A of 2023 (Q04-Q07) choose the shields first"),
            ("effects_first", "S166 (official Q&A on Master Breaker, Johnny the Beginning, 2017, as dmwiki "
                              "quotes it): when the attack is not blocked, destroy a creature first, then "
                              "choose the shields to break"),
        ),
        default="shields_first",
        why_default="the current rules text (R509.3, R603.7) and every ruling since 2023 choose the shields "
                    "first; no source dates when the 2017 answer stopped applying, so it cannot be an era",
        sets_aside=(("shields_first", ("MB01@S166",)),
                    ("effects_first", ("R509.3@S000", "R509.3@S001", "R603.7@S000", "R603.7@S001", "R603.7@S165"))),
    ),
    Choice(
        name="pile_count",
        question="An effect counts the cards it moved ('for each card returned'); it moved an evolution "
                 "creature: do the cards under it count, or only the creature's own card?",
        readings=(
            ("cards", "316.3 (S217, Takara Tomy rules update of 2023-04-10): an effect choosing an element "
                      "affects every card it is made of, so the sources are moved by the effect itself "
                      "(its example puts an evolution's sources into the graveyard with it)"),
            ("top_only", "the official answer of 2022-09-20 (S209): an aura that followed its creature into "
                         "the deck is not counted, being moved by the aura rule (310.8), not by the effect; "
                         "read widely, cards that follow a creature by a rule (801) are not counted either"),
        ),
        default="cards",
        why_default="316.3 says the effect itself affects every card of the element, its sources included; "
                    "the aura answer rests on 310.8a, which has no counterpart for sources",
        sets_aside=(("cards", ("CT03r@S209",)), ("top_only", ("CT03@S217",))),
    ),
)
# the rest of the attack (model/touch.py): where a public source leaves a point of the rest of the attack open
CHOICES = CHOICES + (
    Choice(
        name="s_trigger_plus_count",
        question="S-Trigger Plus: among 'two or more of your shields broken this turn', do the shields now being "
                 "put into the hand by the break that checks it count?",
        readings=(
            ("counts_current", "dmwiki 'S・トリガー・プラス' (revision 2024-02-22, S316), its first reading: the "
                               "shields being added to the hand now count in the turn's breaks"),
            ("excludes_current", "the same page's second reading: a break is complete only when the shield has "
                                 "reached the hand (rule 701.14a), so they are not yet counted"),
        ),
        default="counts_current",
        why_default="the model's break (D4) happens before the shield check moves the cards (SC3), as rule 509's "
                    "order has it; the page itself leaves the question open",
        sets_aside=(("counts_current", ("STP01r@S316",)), ("excludes_current", ("STP01@S316",))),
    ),
)


class ReadingsLike(Protocol):
    """What the model asks of its readings: a `Readings`, or one that notes which choices were
    looked up (rulings/operational.py)."""

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]: ...   # sorted (name, reading) pairs

    def get(self, name: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Readings:
    """The reading chosen for each choice, as sorted (name, reading) pairs."""

    pairs: tuple[tuple[str, str], ...]

    def get(self, name: str) -> str:
        for key, value in self.pairs:
            if key == name:
                return value
        raise KeyError(name)

    @classmethod
    def make(cls, chosen: dict[str, str] | None = None) -> Readings:
        chosen = dict(chosen or {})
        out = []
        for choice in CHOICES:
            out.append((choice.name, chosen.pop(choice.name, choice.default)))
        if chosen:
            raise KeyError(next(iter(chosen)))
        return cls(tuple(sorted(out)))


def choice_named(name: str) -> Choice | None:
    return next((c for c in CHOICES if c.name == name), None)
