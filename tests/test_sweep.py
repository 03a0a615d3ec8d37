"""`dmcheck sweep` (docs/sweeps.md): generation order and counts, resuming, a killed worker, bad
input, the JSON summary.

Counts are derived by hand: a zone of n names and sizes lo..hi holds sum C(n+k-1, k) multisets
(sum C(n, k) with `distinct: true`); a template generates their product. Findings are derived from
the card texts and rulings: Kakumeijin is a W-breaker (breaker 2) and nothing in these positions adds
a shield or saves one (Boil Charger has no effect of its own; Texas Storm costs 5 and cannot be cast
with 3 mana; Terror Pit's S-Trigger comes after the break, and chosen shields still break, Q06), so a
template expectation "never two shields broken" fails exactly where B starts with two shields; a
built-in `sometimes` property with no example (no nested frame: Texas Storm is never cast) is not a
finding (it says "no example in this scenario"); The Watch (Q09, S001 change of 2023-04-19) saves the
shields under the new rules only when a spell is cast by the before-break, i.e. when Boil Charger is in
the hand.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from conftest import output

from dmcheck.commands import sweep as command
from dmcheck.main import main, parser
from dmcheck.model.errors import InputError
from dmcheck.rulings.sweep.positions import count, positions, zone_count
from dmcheck.rulings.sweep.store import Store
from dmcheck.rulings.sweep.template import load_template

HEAD = """name: {name}
rules: 2024-06-19
turn: A
players:
  A: {{battle: [Kakumeijin], mana: {mana}}}
  B: {{shields: 2{battle}}}
attack: {{attacker: Kakumeijin, player: B}}
"""


def write(tmp_path: Path, body: str, name: str = "t.yaml", mana: int = 3, battle: str = "") -> Path:
    path = tmp_path / name
    path.write_text(HEAD.format(name=name, mana=mana, battle=battle) + body, encoding="utf-8")
    return path


SMALL = """vary:
  A.hand: {from: [Boil Charger, Texas Storm], size: [0, 1], distinct: true}
  B.shields: {from: [Vanilla, Terror Pit], size: [1, 2]}
"""
WATCH = """vary:
  A.hand: {from: [Boil Charger], size: [0, 1]}
  B.shields: {from: [Vanilla], size: [1, 2]}
compare: {rules: [2023-01-01, 2024-06-19]}
"""


def sweep(argv: list[str], task=None) -> tuple[int, dict, str]:
    out, err = io.StringIO(), io.StringIO()
    args = parser().parse_args(["sweep", *argv, "--json"])
    code = command.run(args, out, err, task=task)
    return code, output(out.getvalue()) if out.getvalue() else {}, err.getvalue()   # validated by the schema


# ---- generation ------------------------------------------------------------------------------------
def test_counts_by_hand(tmp_path):
    # the contract's example: 1 + 3 + 3 distinct hands of 0..2 from 3; 3 + 6 + 10 shield sets of 1..3
    t = load_template(write(tmp_path, """vary:
  A.hand: {from: [Boil Charger, Winter Spiral, Texas Storm], size: [0, 2], distinct: true}
  B.shields: {from: [Vanilla, Terror Pit, Gushat Shield], size: [1, 3]}
"""))
    assert [zone_count(v) for v in t.vary] == [7, 19]
    assert count(t) == 133
    generated = list(positions(t))
    assert len(generated) == 133 and [p.index for p in generated] == list(range(133))
    multisets = {tuple((z, tuple(sorted(c))) for z, c in p.zones) for p in generated}
    assert len(multisets) == 133     # no two positions differ only in order


def test_fixed_order(tmp_path):
    t = load_template(write(tmp_path, SMALL))
    keys = [p.key for p in positions(t)]
    shields = ["Vanilla", "Terror Pit", "Vanilla x2", "Terror Pit, Vanilla", "Terror Pit x2"]
    expected = [f"A.hand=[{hand}]; B.shields=[{s}]" for hand in ("", "Boil Charger", "Texas Storm") for s in shields]
    assert keys == expected
    assert keys == [p.key for p in positions(load_template(t.file))]     # the same on every run


# ---- a real sweep ----------------------------------------------------------------------------------
NEVER_TWO = SMALL + "expect:\n  - never: {shields_broken: 2}\n"


def test_findings_and_json_shape(tmp_path):
    code, s, _ = sweep([str(write(tmp_path, NEVER_TWO)), "--db", str(tmp_path / "r.sqlite"), "--jobs", "2"])
    assert code == 1
    assert set(s) >= {"schema_version", "positions", "done", "resumed", "violations", "differences",
                      "smallest", "seconds"}
    assert s["schema_version"] == 1 and s["positions"] == 15 and s["done"] == 15 and s["resumed"] == 0
    # 3 hands x the 3 shield sets of two cards; no built-in property is a finding
    assert s["differences"] == 0 and s["violations"] == 9
    assert [i["kind"] for i in s["smallest"]] == ["expect 1"]
    [item] = s["smallest"]
    assert item["count"] == 9 and item["cards"] == 2          # the empty hand with two shields
    assert item["position"].startswith("A.hand=[]; B.shields=[") and item["finding"]["what"] == "violation"
    with sqlite3.connect(tmp_path / "r.sqlite") as c:
        (text,) = c.execute("SELECT result FROM positions WHERE key = ?", (item["position"],)).fetchone()
    row = json.loads(text)
    assert row["verdicts"]["expect"] == ["violated"]
    assert row["scenario"]["A"]["hand"] == [] and len(row["scenario"]["B"]["shields"]) == 2
    assert row["verdicts"]["properties"] and "violated" not in row["verdicts"]["properties"].values()
    assert row["scenario"]["A"]["battle"] == ["Kakumeijin"] and len(row["scenario"]["A"]["mana"]) == 3


def test_a_difference_has_a_shortest_trace_for_each_side(tmp_path):
    code, s, _ = sweep([str(write(tmp_path, WATCH, battle=", battle: [The Watch]", mana=5)),
                        "--db", str(tmp_path / "w.sqlite"), "--jobs", "1"])
    assert code == 1 and s["positions"] == 4 and s["differences"] == 2      # the two with Boil Charger
    [item] = [i for i in s["smallest"] if i["what"] == "difference"]
    assert item["position"] == "A.hand=[Boil Charger]; B.shields=[Vanilla]" and item["count"] == 2
    old, new = item["finding"]["sides"]
    assert old["label"] == "rules 2023-01-01" and new["label"] == "rules 2024-06-19"
    # old rules: The Watch waits for the break, the shield breaks; new rules: the skip cancels the break
    assert any(o["outcome"]["turn_skipped"] and o["outcome"]["shields_broken"] == 1 for o in old["only"])
    assert any(o["outcome"]["turn_skipped"] and o["outcome"]["shields_broken"] == 0 for o in new["only"])
    for side in (old, new):
        assert all(o["trace"]["replay"] and o["trace"]["lines"] for o in side["only"])


# ---- resuming and dying workers (a fake task: the harness is under test) ----------------------------
LOG = "DMCHECK_TEST_SWEEP_LOG"


def fake_task(template, position, limits, timeout_ms) -> dict:
    """Logs each attempt; a finding where Terror Pit is among the shields; dies once on position 4."""
    log = Path(os.environ[LOG])
    with log.open("a") as f:
        f.write(f"{position.index}\n")
    if position.index == 4 and not (log.parent / "died").exists():
        (log.parent / "died").write_text("x")
        if (log.parent / "die sending").exists():
            # imported here: Ray's workers get this function by value and cannot import conftest
            from conftest import die_sending
            die_sending()
        os._exit(9)
    bad = "Terror Pit" in position.key
    return {"index": position.index, "key": position.key, "cards": position.cards,
            "zones": {z: list(n) for z, n in position.names}, "status": "finding" if bad else "ok",
            "complete": True, "states": 1, "seconds": 0.0,
            "findings": [{"kind": "fake", "what": "violation", "detail": "terror"}] if bad else []}


def attempts(log: Path) -> list[int]:
    return [int(line) for line in log.read_text().split()]


def test_a_worker_killed_while_it_sent_a_result_is_retried(tmp_path, monkeypatch, short_grace):
    """Its pool never notices (rulings/pools.py, `Watch`): the sweep ends it and retries, within seconds."""
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "die sending").write_text("x")
    start = time.monotonic()
    code, s, _ = sweep([str(write(tmp_path, SMALL)), "--db", str(tmp_path / "h.sqlite"), "--jobs", "2"], fake_task)
    assert time.monotonic() - start < 30 and (tmp_path / "died").exists()
    assert code == 1 and attempts(tmp_path / "log").count(4) == 2
    assert s["done"] == 15 and s["violations"] == 9 and not s["failed"]


def test_resume_skips_positions_done(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")                  # nobody dies here
    template, db = str(write(tmp_path, SMALL)), str(tmp_path / "r.sqlite")
    code, s, _ = sweep([template, "--db", db, "--jobs", "2"], fake_task)
    assert code == 1 and s["done"] == 15 and s["resumed"] == 0
    # shield sets with Terror Pit: 3 of the 5, for each of the 3 hands
    assert s["violations"] == 9
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM findings WHERE idx IN (2, 7, 11)")
        c.execute("DELETE FROM positions WHERE idx IN (2, 7, 11)")
    (tmp_path / "log").write_text("")
    code, s, _ = sweep([template, "--db", db, "--jobs", "2"], fake_task)
    assert sorted(attempts(tmp_path / "log")) == [2, 7, 11]
    assert s["resumed"] == 12 and s["done"] == 15 and s["violations"] == 9
    (tmp_path / "log").write_text("")
    assert sweep([template, "--db", db], fake_task)[1]["resumed"] == 15 and attempts(tmp_path / "log") == []


def test_a_killed_worker_is_retried_and_counted_once(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    db = str(tmp_path / "k.sqlite")
    code, s, _ = sweep([str(write(tmp_path, SMALL)), "--db", db, "--jobs", "2"], fake_task)
    assert code == 1 and (tmp_path / "died").exists()
    tried = attempts(tmp_path / "log")
    assert tried.count(4) == 2                            # died once, then done
    assert set(tried) == set(range(15))
    assert s["done"] == 15 and s["violations"] == 9 and not s["failed"]
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM positions").fetchone() == (15,)
        assert c.execute("SELECT COUNT(*) FROM positions WHERE idx = 4").fetchone() == (1,)
        assert c.execute("SELECT COUNT(*) FROM findings").fetchone() == (9,)


def test_a_result_recorded_twice_counts_once(tmp_path, monkeypatch):
    t = load_template(write(tmp_path, SMALL))
    store = Store(tmp_path / "s.sqlite", t.file, t.digest, count(t))
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    result = fake_task(t, list(positions(t))[1], None, 0)
    assert store.record(result) is True and store.record(result) is False
    assert store.counts()["done"] == 1 and store.counts()["violations"] == 1


def test_wal_mode(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    db = tmp_path / "w.sqlite"
    sweep([str(write(tmp_path, SMALL)), "--db", str(db), "--jobs", "1"], fake_task)
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA journal_mode").fetchone() == ("wal",)


# ---- bad input -------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, line, words", [
    ("vary:\n  A.hand: {from: [Boil Charger, Nonesuch], size: [0, 1]}\n", 9, "unknown card 'Nonesuch'"),
    ("vary:\n  A.hand: {from: [Boil Charger], size: [2, 1]}\n", 9, "0 <= lo <= hi <= 40"),
    ("vary:\n  A.hand: {from: [Boil Charger], size: [0, 41]}\n", 9, "0 <= lo <= hi <= 40"),
    ("vary:\n  A.hands: {from: [Boil Charger], size: [0, 1]}\n", 9, "expected PLAYER.ZONE"),
    ("vary:\n  C.hand: {from: [Boil Charger], size: [0, 1]}\n", 9, "expected PLAYER.ZONE"),
    ("vary:\n  A.battle: {from: [Vanilla], size: [0, 1]}\n", 9, "cannot vary"),
    ("vary:\n  A.hand: {from: [Boil Charger], size: [0, 1]}\ncompare: {interpretation: nested}\n", 10,
     "unknown interpretation choice 'nested'; expected one of nested_other_pending"),
    (("vary:\n  A.hand: {from: [Boil Charger], size: [0, 1]}\n"
      "compare: {interpretation: {name: nested_other_pending, readings: [all, most]}}\n"), 10,
     "expected distinct readings of nested_other_pending: all, inner_only"),
    ("vary:\n  A.hand: {from: [Boil Charger], size: [0, 1]}\ncompare: {rules: [2023-01-01, soon]}\n", 10,
     "expected a date"),
])
def test_bad_templates(tmp_path, body, line, words):
    path = write(tmp_path, body)
    out, err = io.StringIO(), io.StringIO()
    assert main(["sweep", str(path), "--db", str(tmp_path / "x.sqlite")], out, err) == 2
    assert f"{path}:{line}:" in err.getvalue() and words in err.getvalue(), err.getvalue()
    assert not (tmp_path / "x.sqlite").exists()


def test_bad_databases(tmp_path, monkeypatch):
    template = str(write(tmp_path, SMALL))
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all\n" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE t (x)")
    for db, words in ((text, "not a dmcheck sweep database"), (other, "not a dmcheck sweep database")):
        err = io.StringIO()
        assert main(["sweep", template, "--db", str(db)], io.StringIO(), err) == 2
        assert f"{db}: --db: {words}" in err.getvalue(), err.getvalue()
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    db = str(tmp_path / "mine.sqlite")
    sweep([template, "--db", db, "--jobs", "1"], fake_task)
    another = str(write(tmp_path, SMALL.replace("[1, 2]", "[1, 1]"), name="u.yaml"))
    err = io.StringIO()
    assert main(["sweep", another, "--db", db], io.StringIO(), err) == 2
    assert "made from another template" in err.getvalue() and another in err.getvalue(), err.getvalue()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_only(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    template = str(write(tmp_path, SMALL))
    for err, db in ((Terminal(), "a.sqlite"), (io.StringIO(), "b.sqlite")):
        args = parser().parse_args(["sweep", template, "--db", str(tmp_path / db), "--jobs", "1"])
        assert command.run(args, io.StringIO(), err, task=fake_task) == 1
        shown = err.getvalue()
        if isinstance(err, Terminal):
            assert "15/15" in shown and "positions" in shown and "findings 9" in shown, shown
        else:
            assert shown == ""


def slow_task(template, position, limits, timeout_ms) -> dict:
    import time
    time.sleep(0.3)
    return fake_task(template, position, limits, timeout_ms)


def broken_task(template, position, limits, timeout_ms) -> dict:
    if position.index == 3:
        raise ValueError("a bug")
    return fake_task(template, position, limits, timeout_ms)


def test_a_time_limit_leaves_the_rest_for_the_next_run(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    template, db = str(write(tmp_path, SMALL)), str(tmp_path / "t.sqlite")
    code, s, _ = sweep([template, "--db", db, "--jobs", "1", "--max-seconds", "0.5"], slow_task)
    assert s["stopped"] == "time limit reached" and 0 < s["done"] < 15
    assert code == 1 if s["violations"] else code == 3
    first = s["done"]
    code, s, _ = sweep([template, "--db", db, "--jobs", "2"], fake_task)
    assert s["resumed"] == first and s["done"] == 15 and s["stopped"] is None


def test_a_position_whose_check_raises_is_reported_not_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    template = str(write(tmp_path, SMALL.replace("Terror Pit", "Gushat Shield")))   # no fake finding
    code, s, _ = sweep([template, "--db", str(tmp_path / "e.sqlite"), "--jobs", "2"], broken_task)
    assert code == 3 and s["done"] == 14
    assert s["failed"] == [{"position": "A.hand=[]; B.shields=[Gushat Shield, Vanilla]", "why": "ValueError: a bug"}]


def test_three_readings_compared(tmp_path):
    # charger_cast_destination: Q02 puts the Charger spell Kakumeijin cast into the mana zone
    # (`charger`), S000's walk-through at the deck bottom (`cast_destination`), `owner_chooses` either
    body = ("vary:\n  A.hand: {from: [Boil Charger], size: [0, 1]}\n  B.shields: {from: [Vanilla], size: [1, 1]}\n"
            "compare: {interpretation: charger_cast_destination}\n")
    code, s, _ = sweep([str(write(tmp_path, body, mana=5)), "--db", str(tmp_path / "c.sqlite"), "--jobs", "1"])
    assert code == 1 and s["positions"] == 2 and s["differences"] == 1
    [item] = [i for i in s["smallest"] if i["what"] == "difference"]
    assert item["position"] == "A.hand=[Boil Charger]; B.shields=[Vanilla]"
    sides = {side["label"]: side for side in item["finding"]["sides"]}
    assert item["finding"]["relation"] == "different" and len(sides) == 3

    def where(side: str) -> set[str]:
        return {"mana" if "Boil Charger" in o["outcome"]["mana"]["A"] else "deck"
                for o in sides[f"charger_cast_destination={side}"]["only"]}

    assert where("charger") == {"mana"} and where("cast_destination") == {"deck"}
    assert where("owner_chooses") == {"mana", "deck"}


def test_a_template_expectation_may_name_a_varied_card_but_not_an_absent_one(tmp_path):
    """The names of a template's `expect` are checked against every card its positions can hold:
    Texas Storm is only in `vary`, Aqua Surfer nowhere (the pattern would match nothing on any position)."""
    fine = SMALL + "expect:\n  - never_order: [{event: cast, card: Texas Storm}, {event: break, frame: 2}]\n"
    assert load_template(write(tmp_path, fine)).scenario.expect[0].kind == "never_order"
    path = write(tmp_path, SMALL + "expect:\n  - never_order: [{event: cast, card: Aqua Surfer}]\n", name="u.yaml")
    err = io.StringIO()
    assert main(["sweep", str(path), "--db", str(tmp_path / "x.sqlite")], io.StringIO(), err) == 2
    assert f"{path}:12: expect[0].never_order[0].card: the template (in any position) has no Aqua Surfer" \
        in err.getvalue(), err.getvalue()
    assert not (tmp_path / "x.sqlite").exists()


# ---- absurd sizes ---------------------------------------------------------------------------------------
def test_an_astronomical_template_is_refused_with_its_count(tmp_path):
    """Such a template, accepted, would have its positions listed: a MemoryError traceback.
    One zone of 0-40 cards from 10 names alone holds sum C(9+k, k) = C(50, 40) = 10,272,278,170 multisets."""
    names = "Vanilla, Terror Pit, Gushat Shield, Aqua Surfer, Emergency Typhoon, Boil Charger, Texas Storm, " \
            "Winter Spiral, The Watch, Bucket Bucket"
    path = write(tmp_path, f"vary:\n  B.shields: {{from: [{names}], size: [0, 40]}}\n")
    start = time.monotonic()
    with pytest.raises(InputError) as caught:
        load_template(path)
    assert "10,272,278,170 positions" in str(caught.value) and "the limit is 1,000,000" in str(caught.value)
    assert caught.value.line == 8 and time.monotonic() - start < 5


def test_a_template_at_the_limit_starts_at_once(tmp_path, monkeypatch):
    """Positions are generated lazily, zone by zone: the first ones come without listing any zone."""
    import itertools

    from dmcheck.rulings.sweep import template as template_module
    monkeypatch.setattr(template_module, "MAX_POSITIONS", 10**14)
    names = "Vanilla, Terror Pit, Gushat Shield, Aqua Surfer, Emergency Typhoon, Boil Charger"
    t = load_template(write(tmp_path, f"vary:\n  A.hand: {{from: [{names}], size: [0, 40]}}\n"
                                      f"  B.shields: {{from: [{names}], size: [1, 40]}}\n"))
    start = time.monotonic()
    first = list(itertools.islice(positions(t), 3))
    assert count(t) == 9_366_819 * 9_366_818 and [p.index for p in first] == [0, 1, 2]
    assert first[0].key == "A.hand=[]; B.shields=[Vanilla]" and time.monotonic() - start < 2


# ---- interrupted and concurrent sweeps -----------------------------------------------------------------
def test_ctrl_c_prints_the_summary_of_a_finished_run_marked_incomplete(tmp_path, monkeypatch):
    """Ctrl-C under --json still prints the summary on stdout, marked incomplete. Here it lands in the driver
    after three positions are recorded (test_interrupt.py sends a real SIGINT to a real sweep)."""
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    real, calls = Store.record, []

    def record(self, result):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(result["index"])
        return real(self, result)
    monkeypatch.setattr(Store, "record", record)
    template, db = str(write(tmp_path, SMALL)), str(tmp_path / "i.sqlite")
    code, s, err = sweep([template, "--db", db, "--jobs", "1"], fake_task)
    assert code == 130 and "interrupted: the results are incomplete" in err and db in err
    assert s["complete"] is False and s["stopped"] == "interrupted" and s["not_finished"] == [template]
    assert s["positions"] == 15 and s["done"] == 3 and s["smallest"] is not None
    with sqlite3.connect(db) as c:     # nothing stays claimed: the next run takes the rest
        assert c.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
    monkeypatch.setattr(Store, "record", real)
    code, s, _ = sweep([template, "--db", db, "--jobs", "1"], fake_task)
    assert s["resumed"] == 3 and s["done"] == 15 and s["complete"] is True


def _claim_and_wait(db: str, template, ready, leave) -> None:
    """Another sweep on the same database, as a process: it claims positions 0-4 and keeps them."""
    store = Store(db, template.file, template.digest, count(template))
    for i in range(5):
        assert store.claim(i)
    ready.set()
    leave.wait(60)


def test_a_second_sweep_leaves_claimed_positions_and_takes_over_a_dead_sweep_s(tmp_path, monkeypatch):
    """Two sweeps on one database do not run the same positions: the second takes only
    positions nobody has claimed, says which it left, and takes over the claims of a killed sweep."""
    import multiprocessing
    monkeypatch.setenv(LOG, str(tmp_path / "log"))
    (tmp_path / "died").write_text("x")
    template, db = str(write(tmp_path, SMALL)), str(tmp_path / "c.sqlite")
    Store(db, load_template(template).file, load_template(template).digest, 15).close()
    context = multiprocessing.get_context("fork")
    ready, leave = context.Event(), context.Event()
    other = context.Process(target=_claim_and_wait, args=(db, load_template(template), ready, leave))
    other.start()
    try:
        assert ready.wait(30)
        code, s, _ = sweep([template, "--db", db, "--jobs", "1"], fake_task)
        assert sorted(attempts(tmp_path / "log")) == list(range(5, 15))     # 0-4 are the other sweep's
        assert s["held_elsewhere"] == {"positions": 5, "pids": [other.pid]} and s["done"] == 10
        assert s["complete"] is False and code == 1                          # findings among the ten
    finally:
        other.kill()                   # killed: its claims are stale
        other.join()
    (tmp_path / "log").write_text("")
    code, s, _ = sweep([template, "--db", db, "--jobs", "1"], fake_task)
    assert sorted(attempts(tmp_path / "log")) == list(range(5)) and s["done"] == 15 and s["held_elsewhere"] is None
