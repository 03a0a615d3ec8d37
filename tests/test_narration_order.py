"""Narration in causal order (issue 38, item 4): each event is printed under the step that caused it.

A broken shield goes to the hand only once its player's declarations are made (R113.6a: it waits in
standby in the shield zone until then). When a declaration is a choice of its own, the move comes a
step after the break: the break's step says the shields wait in standby, and the move names the step
that broke them, instead of listing the move under the declaration as if the declaration caused it.
Checked on every outcome's trace of the rulings Q04, Q05 and Q09 (Q09 also under the rules before
2023-04-19), the traces the S000 Q&A of 2023-09-15 and 2023-10-11 walk through.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

BROKEN = re.compile(r"^(?P<player>[AB])'s shield (?P<card>.+?) is broken by ")
TO_HAND = re.compile(r"^(?P<card>.+?) \((?P<player>[AB])\)(?:, broken in step (?P<step>\d+),)? goes from "
                     r"(?:the shield zone|standby) to the hand \[SC3\]$")
WAITING = re.compile(r"^(?P<cards>.+) \((?P<player>[AB])\) wait in standby in the shield zone until ")
STEP = re.compile(r"step (\d+)")


def _traces(ruling, prefix: str, **overrides):
    _, _, graph = ruling(prefix, **overrides)
    assert graph.complete
    return [graph.trace(node) for _, _, node in graph.outcomes()]


@pytest.mark.parametrize("prefix, overrides", [("Q04", {}), ("Q05", {}), ("Q09", {}),
                                               ("Q09", {"rules": dt.date(2023, 1, 1)})])
def test_every_shield_move_is_told_under_the_step_that_broke_it(ruling, prefix, overrides):
    waited = 0
    for trace in _traces(ruling, prefix, **overrides):
        steps = trace.narrated()
        broken_at: dict[tuple[str, str], int] = {}
        waiting_at: dict[tuple[str, str], int] = {}
        for n, (_, lines) in enumerate(steps, 1):
            here = set()
            for line in lines:
                if m := BROKEN.match(line):
                    broken_at[(m["player"], m["card"])] = n
                    here.add((m["player"], m["card"]))
                if m := WAITING.match(line):
                    for card in m["cards"].split(", "):
                        waiting_at[(m["player"], card)] = n
                # nothing names a step that has not happened yet
                assert all(int(k) < n for k in STEP.findall(line)), (trace.key(), n, line)
            for line in lines:
                m = TO_HAND.match(line)
                if m is None:
                    continue
                shield = (m["player"], m["card"])
                if shield in here:           # broken and moved in one step: nothing to say
                    assert m["step"] is None, line
                    continue
                # moved later: the step that broke it is named, and said there that it waits
                assert m["step"] is not None and int(m["step"]) == broken_at[shield], (trace.key(), line)
                assert waiting_at.get(shield) == broken_at[shield], (trace.key(), shield, lines)
                waited += 1
    if prefix == "Q05":    # Aqua Surfer's S-Trigger is declared in a step of its own (SC2)
        assert waited > 0


def test_a_step_told_on_its_own_still_says_the_move_comes_from_standby():
    """The HTML page and the API tell one edge at a time: without the trace, no step number."""
    from dmcheck.model.events import ev
    from dmcheck.model.narrate import causal
    lines = causal([ev("move", "SC3", card="Vanilla#31", player="B", **{"from": "shields", "to": "hand"})])
    assert lines == ["Vanilla#31 (B) goes from standby to the hand [SC3]"]


def test_a_choice_is_not_told_twice(ruling):
    """`B declares S-Trigger of X` is not followed by `B declares the S-Trigger of X`."""
    told = 0
    for trace in _traces(ruling, "Q05"):
        for header, lines in trace.narrated():
            if header.startswith("B declares S-Trigger"):
                told += 1
                assert not any(line.startswith("B declares the S-Trigger") for line in lines)
    assert told
