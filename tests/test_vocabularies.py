"""The vocabularies declared once as Literal types match the tables the loader reads: an event kind a
scenario may name is an event the model can emit, and the reverse."""

from __future__ import annotations

from typing import get_args

from dmcheck.model.events import EventKind
from dmcheck.model.scenario_file import EVENT_KEYS
from dmcheck.model.vocabulary import KEYWORDS, Keyword


def test_event_kinds_are_the_events_a_scenario_may_name():
    assert set(get_args(EventKind)) == set(EVENT_KEYS)


def test_keywords_are_the_engine_keywords():
    """`Keyword` names each keyword of KEYWORDS by its head (`S-Back:<civ>` is `S-Back`)."""
    assert set(get_args(Keyword)) == {k.partition(":")[0] for k in KEYWORDS}
