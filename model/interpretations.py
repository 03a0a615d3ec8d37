"""Named interpretation choices: the places where the sources disagree or are silent.

Each choice has readings, the sources behind each, and a default. A scenario picks readings with
`interpretation: {name: reading}`; the model reads them through `Interpretation`.
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


CHOICES: tuple[Choice, ...] = (
    Choice(
        name="nested_other_pending",
        question="Inside a nested break (R603.7b), which other pending effects resolve before the nested "
                 "break: every pending effect, or only those triggered inside the nested frame?",
        readings=(
            ("all", "R603.7b: after the last before-break, 'other pending effects' resolve, then the new break"),
            ("inner_only", "Q05 (S000): describes only the effects triggered by the nested before-break"),
        ),
        default="all",
        why_default="the comprehensive rules text (v1.42, 2024-06-19) is newer than the Q05 ruling "
                    "(2023-09-15) and names no restriction",
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
