"""`dmcheck diff`: the 2023-04-19 rule change (S001) shows on Q01, Q03 and Q09; readings compare too.

From S001: before 2023-04-19 the abilities triggered during the before-break effects resolved only
after the shields were broken. So on Q09 The Watch's skip cannot save the shields any more (the
outcomes differ), and on Q01 and Q03 the enter ability and Kobo's trigger move after the break (the
outcomes stay, the orders of the procedure differ).
"""

from __future__ import annotations

import io

from conftest import RULINGS, output

from dmcheck.main import main
from dmcheck.rulings.diff import relation


def ruling(prefix: str) -> str:
    return str(next(p for p in RULINGS if p.name.startswith(prefix)))


def diff(*argv: str) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", *argv, "--json"], out, err)
    assert not err.getvalue(), err.getvalue()
    return code, output(out.getvalue())


def _order(item) -> list[str]:
    return [m for group in item["value"] for m in group]


def test_relations():
    assert relation({1}, {1}) == "equivalent" and relation({1, 2}, {1}) == "broader"
    assert relation({1}, {1, 2}) == "narrower" and relation({1}, {2}) == "incomparable"


def test_q09_old_rules_break_the_shields_the_new_rules_save():
    code, report = diff(ruling("Q09"), "--rules", "2023-01-01", "--rules", "2024-06-19")
    assert code == 1 and report["outcomes"] == "incomparable"
    old = [i["value"] for i in report["only_left"] if i["what"] == "outcome"]
    new = [i["value"] for i in report["only_right"] if i["what"] == "outcome"]
    assert any(o["turn_skipped"] and o["shields_broken"] == 2 for o in old)
    assert any(o["turn_skipped"] and o["shields_broken"] == 0 for o in new)
    for item in report["only_left"] + report["only_right"]:
        assert item["trace"]["events"] and item["trace"]["replay"]


def _after_break(order: list[str]) -> bool:
    """Whether an effect caused by a before-break effect resolves after the attack's break."""
    return "other_pending_resolved" in order and order.index("break") < order.index("other_pending_resolved")


def test_q01_and_q03_the_triggered_effects_move_after_the_break():
    for prefix in ("Q01", "Q03"):
        code, report = diff(ruling(prefix), "--rules", "2023-01-01", "--rules", "2024-06-19")
        assert code == 1 and report["outcomes"] == "equivalent" and report["orders"] == "incomparable", prefix
        old = [_order(i) for i in report["only_left"] if i["what"] == "order"]
        new = [_order(i) for i in report["only_right"] if i["what"] == "order"]
        assert old and all(_after_break(o) for o in old), prefix
        assert new and not any(_after_break(o) for o in new if "break" in o), prefix


def test_readings_compare_and_the_same_setting_twice_is_bad_input():
    code, report = diff(ruling("Q11d"), "--interpretation", "break_replacement_timing=at_break",
                        "--interpretation", "break_replacement_timing=before_triggers")
    assert code == 1 and report["outcomes"] != "equivalent"
    # S002's reading: a saved shield gets no Dragon W-breaker addition (A ends with 6 shields)
    assert any(i["value"]["shields"]["A"] == 6 for i in report["only_right"] if i["what"] == "outcome")
    # a reading that changes nothing here: equivalent, exit 0
    out = io.StringIO()
    assert main(["diff", ruling("Q01"), "--interpretation", "castle_other_shield=unchosen_only",
                 "--interpretation", "castle_other_shield=not_used"], out, io.StringIO()) == 0
    assert "result: equivalent" in out.getvalue()
    err = io.StringIO()
    assert main(["diff", ruling("Q01"), "--rules", "2024-06-19", "--rules", "2024-06-19"], io.StringIO(), err) == 2
    assert "expected two different settings" in err.getvalue()


def _outcome_lines(text: str) -> list[str]:
    return [line.split("outcome: ", 1)[1] for line in text.splitlines() if line.startswith("     outcome: ")]


def test_the_text_tells_the_outcomes_apart_by_what_differs():
    out = io.StringIO()
    main(["diff", ruling("Q11d"), "--interpretation", "break_replacement_timing=at_break",
          "--interpretation", "break_replacement_timing=before_triggers"], out, io.StringIO())
    code, report = diff(ruling("Q11d"), "--interpretation", "break_replacement_timing=at_break",
                        "--interpretation", "break_replacement_timing=before_triggers")
    shown = [i["value"] for i in report["only_left"] + report["only_right"] if i["what"] == "outcome"]
    lines = _outcome_lines(out.getvalue())
    assert len(lines) == len(shown) == 2 and lines[0] != lines[1]
    # what differs between the two is named (A's shields: 7 under S001's reading, 6 under S002's) ...
    assert f"A shields left {shown[0]['shields']['A']}" in lines[0]
    assert f"A shields left {shown[1]['shields']['A']}" in lines[1]
    # ... and what both share is not (both break one shield, neither has a winner)
    assert shown[0]["shields_broken"] == shown[1]["shields_broken"] and "shields broken" not in lines[0]
    assert "winner" not in lines[0]
    # verdicts read as the scenario file writes them, never as Python values
    text = out.getvalue()
    assert "expect always: {uses: {Kirazeus Savark/before_break: 2}, shields: {A: 7}}: left holds" in text
    assert "{'" not in text and "True" not in text
