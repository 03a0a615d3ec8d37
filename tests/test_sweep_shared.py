"""Two sweeps on one database (issue 36, item 9; docs/sweeps.md): a run that ends incomplete because
another sweep holds positions says so (`held_elsewhere`) however the other sweep's work interleaves
with its report, and two sweeps starting together on a new database both start."""

from __future__ import annotations

import multiprocessing

from conftest import ROOT

from dmcheck.commands import sweep as command
from dmcheck.rulings.sweep.backends import Run
from dmcheck.rulings.sweep.positions import count, positions
from dmcheck.rulings.sweep.store import Store
from dmcheck.rulings.sweep.template import load_template

TEMPLATE = ROOT / "scenarios" / "sweeps" / "kakumeijin_nested.yaml"


def _result(position) -> dict:
    """A finished position as the store records it (nothing found)."""
    return {"index": position.index, "key": position.key, "cards": 1, "zones": {}, "status": "ok",
            "complete": True, "states": 1, "seconds": 0.0, "findings": []}


def test_held_positions_are_named_even_when_the_other_sweep_finishes_one_during_the_report(tmp_path, monkeypatch):
    """The summary read the counts, then the positions done: a position the other sweep finished between
    the two reads made this run incomplete by the counts with nothing held by the positions."""
    template = load_template(TEMPLATE)
    db = str(tmp_path / "s.sqlite")
    mine = Store(db, template.file, template.digest, count(template))
    other = Store(db, template.file, template.digest, count(template))     # the other sweep's connection
    generated = list(positions(template))
    for p in generated[:-2]:
        mine.record(_result(p))
    mine.held_elsewhere = {generated[-2].index: 4242, generated[-1].index: 4242}
    read = mine.counts

    def counts_then_the_other_finishes_one():
        found = read()
        other.record(_result(generated[-2]))
        return found
    monkeypatch.setattr(mine, "counts", counts_then_the_other_finishes_one)
    summary = command.summary_json(template, mine, Run(), 0, 0.0, db)
    assert summary["complete"] is False
    assert summary["held_elsewhere"] == {"positions": 2, "pids": [4242]}, summary
    mine.close()
    other.close()


def _start_store(db: str, template_file: str, digest: str, n: int, go, results) -> None:
    go.wait(30)
    try:
        Store(db, template_file, digest, n).close()
        results.put("ok")
    except Exception as exc:    # noqa: BLE001 - what the test reports
        results.put(f"{type(exc).__name__}: {exc}")


def test_two_sweeps_starting_together_on_a_new_database_both_start(tmp_path):
    """Both saw no tables and both wrote `meta`: one ended with 'not a dmcheck sweep database'."""
    template = load_template(TEMPLATE)
    context = multiprocessing.get_context("fork")
    for trial in range(6):
        db = str(tmp_path / f"s{trial}.sqlite")
        go, results = context.Event(), context.Queue()
        starters = [context.Process(target=_start_store, args=(db, template.file, template.digest,
                                                               count(template), go, results)) for _ in range(4)]
        for s in starters:
            s.start()
        go.set()
        got = sorted(results.get(timeout=60) for _ in starters)
        for s in starters:
            s.join()
        assert got == ["ok"] * 4, got

