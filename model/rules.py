"""Rules versions as data: which version is in force on a date, and its behaviour switches."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ruamel.yaml import YAML

from .errors import DmcheckError


@dataclass(frozen=True, slots=True)
class RulesVersion:
    date: dt.date
    name: str
    changes: str
    destroy_any_card: bool          # R701.6a since 2022-04-08 (S003)
    triggers_wait_for_break: bool   # before 2023-04-19 (S001)
    simultaneous_break: bool        # since 2017-03-25 (S007, S016, S008); before, one shield at a time
    swap_all_or_nothing: bool       # since 2020-11-19 (S150, S151): a swap half of which fails is not done at all
    several_blockers: bool          # since 2021-09-07 (S153, S154): several redirections chosen at once (R507.1a)
    ninja_mana_on_resolution: bool  # since 2022-08-10 (S156): Ninja Strike's mana counted when it resolves
    rebuild_keeps_stack: bool       # since 2021-03-16 (S205, S206): the card under a top that left stays, stacked
    slayer_any_battle: bool         # since DM-10 (2004-06-26, S201): Slayer destroys after any battle, not only
                                    # a lost one


class OutsideTimeline(DmcheckError, ValueError):
    """A date older than the oldest modelled era: no rules version can stand for it."""


@lru_cache(maxsize=1)
def timeline() -> tuple[RulesVersion, ...]:
    """Every rules version, oldest first."""
    text = (resources.files(__package__) / "data" / "rules_versions.yaml").read_text(encoding="utf-8")
    data = YAML(typ="safe").load(text)
    out: list[RulesVersion] = []
    switches: dict[str, bool] = {}
    for v in sorted(data["versions"], key=lambda v: v["date"]):
        # a version repeats the previous one's switches unless it names them (the oldest names all)
        switches = {**switches, **v["switches"]}
        out.append(RulesVersion(v["date"], v["name"], v["changes"], **switches))
    return tuple(out)


def version_on(day: dt.date | None) -> RulesVersion:
    """The version in force on `day` (the newest when None)."""
    versions = timeline()
    if day is None:
        return versions[-1]
    if day < versions[0].date:
        raise OutsideTimeline(f"{day.isoformat()} is older than the oldest modelled rules era "
                              f"({versions[0].name}, from {versions[0].date.isoformat()}); expected a date "
                              f"from {versions[0].date.isoformat()} on (docs/corpus.md, 'Rules eras')")
    current = versions[0]
    for version in versions:
        if version.date <= day:
            current = version
    return current


def parse_date(text: str) -> dt.date:
    """YYYY-MM-DD into a date; ValueError otherwise."""
    return dt.date.fromisoformat(str(text).strip())


def rules_date_problem(day: dt.date) -> str:
    """Why `day` cannot name a rules version ('' when it can): older than the oldest era."""
    try:
        version_on(day)
    except OutsideTimeline as e:
        return str(e)
    return ""
