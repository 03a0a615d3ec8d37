"""The sweep's results in SQLite: one row per finished position, written as it finishes.

Schema (docs/sweeps.md documents it for users; SCHEMA_VERSION counts its changes):

- `meta(key TEXT PRIMARY KEY, value TEXT)`: `format` = `dmcheck-sweep`, `schema_version`,
  `template` (the path it was made from), `template_digest` (the template's content), `positions`
  (how many the template generates), `created` (UTC).
- `positions(idx INTEGER PRIMARY KEY, key TEXT UNIQUE, cards INTEGER, zones TEXT, status TEXT,
  complete INTEGER, states INTEGER, seconds REAL, result TEXT, finished TEXT)`: `idx` is the
  position's place in the template's fixed order, `key` its text (`A.hand=[...]; B.shields=[...]`),
  `zones` JSON, `status` ok | finding | incomplete, `result` the whole result as JSON (the
  position's scenario, every verdict, the findings with their traces).
- `findings(idx INTEGER REFERENCES positions(idx), kind TEXT, what TEXT, cards INTEGER, key TEXT,
  detail TEXT, PRIMARY KEY (idx, kind))`: one row per finding of a position (`what` violation or
  difference; its traces are in the position's `result`).

Each position is one transaction (position and findings together), in WAL mode, so a killed sweep
keeps every finished position and a reader can watch a running one. A position already present is
never written again (`INSERT OR IGNORE` on its index): a position retried after its worker died is
counted once.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...model.errors import InputError

FORMAT = "dmcheck-sweep"
SCHEMA_VERSION = 1

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    idx INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, cards INTEGER NOT NULL, zones TEXT NOT NULL,
    status TEXT NOT NULL, complete INTEGER NOT NULL, states INTEGER NOT NULL, seconds REAL NOT NULL,
    result TEXT NOT NULL, finished TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS findings (
    idx INTEGER NOT NULL REFERENCES positions(idx), kind TEXT NOT NULL, what TEXT NOT NULL,
    cards INTEGER NOT NULL, key TEXT NOT NULL, detail TEXT NOT NULL, PRIMARY KEY (idx, kind));
CREATE INDEX IF NOT EXISTS findings_by_kind ON findings (kind, cards, key);
CREATE TABLE IF NOT EXISTS claims (
    idx INTEGER PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
    started TEXT NOT NULL, claimed TEXT NOT NULL);
"""
# a claim of a process on another machine (whose life this one cannot see) is taken over after this long
STALE_ELSEWHERE = dt.timedelta(hours=24)


def _process_start(pid: int) -> str:
    """When process `pid` started (field 22 of /proc/PID/stat), so that a reused pid is not taken for the
    process that claimed; '' where /proc is not there."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return ""


def _alive(host: str, pid: int, started: str, claimed: str) -> bool:
    """Whether the sweep that made a claim still runs (the stale-claim rule, docs/sweeps.md)."""
    if host != socket.gethostname():
        return dt.datetime.now(dt.UTC) - dt.datetime.fromisoformat(claimed) < STALE_ELSEWHERE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass                                   # another user's process: it exists
    return _process_start(pid) == started



def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class Store:
    """An open sweep database, checked to belong to the template."""

    def __init__(self, path: str | Path, template_file: str, template_digest: str, positions: int):
        self.path = str(path)
        self.me = (socket.gethostname(), os.getpid(), _process_start(os.getpid()))
        self.held_elsewhere: dict[int, int] = {}    # positions skipped: claimed by a live sweep (idx -> pid)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            with self._transaction():     # two sweeps starting together on a new file: one creates it
                self._check_or_create(template_file, template_digest, positions)
            self._wal()
            self.db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            raise InputError(self.path, None, "--db", f"not a dmcheck sweep database ({exc}); expected a new "
                                                      f"file or one made by `dmcheck sweep`") from None

    def _wal(self) -> None:
        """Switch the file to write-ahead logging. SQLite answers 'database is locked' at once, without
        its busy wait, while another sweep starting on the same file holds it: retry for the same 30 s."""
        deadline = time.monotonic() + 30
        while True:
            try:
                self.db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _check_or_create(self, template_file: str, template_digest: str, positions: int) -> None:
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:
            raise self._bad("has tables but no sweep `meta` table")
        if tables:
            meta = dict(self.db.execute("SELECT key, value FROM meta"))
            if meta.get("format") != FORMAT:
                raise self._bad(f"its format is {meta.get('format')!r}")
            if meta.get("schema_version") != str(SCHEMA_VERSION):
                raise InputError(self.path, None, "--db", f"sweep database schema {meta.get('schema_version')}; "
                                                          f"expected {SCHEMA_VERSION} (use a new --db file)")
            if meta.get("template_digest") != template_digest:
                raise InputError(self.path, None, "--db", f"made from another template ({meta.get('template')}, "
                                                          f"content {meta.get('template_digest')}); expected one made "
                                                          f"from {template_file} (content {template_digest}) or a "
                                                          f"new --db file")
        for statement in _TABLES.split(";"):       # not executescript: it would end the transaction
            if statement.strip():
                self.db.execute(statement)
        if not tables:
            self.db.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("format", FORMAT), ("schema_version", str(SCHEMA_VERSION)), ("template", template_file),
                ("template_digest", template_digest), ("positions", str(positions)), ("created", _now())])

    def _bad(self, why: str) -> InputError:
        return InputError(self.path, None, "--db", f"not a dmcheck sweep database ({why}); expected a new file "
                                                   f"or one made by `dmcheck sweep`")

    def _transaction(self):
        db = self.db

        class _Tx:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, *_):
                db.execute("COMMIT" if kind is None else "ROLLBACK")

        return _Tx()

    def done(self) -> set[int]:
        """The indexes of the positions already finished."""
        return {r[0] for r in self.db.execute("SELECT idx FROM positions")}

    def claim(self, idx: int) -> bool:
        """Take a position to run: not when it is done, nor while another live sweep has claimed it (a
        claim of a killed sweep is taken over). Two sweeps on one database so share its positions."""
        host, pid, started = self.me
        with self._transaction():
            if self.db.execute("SELECT 1 FROM positions WHERE idx = ?", (idx,)).fetchone():
                return False
            row = self.db.execute("SELECT host, pid, started, claimed FROM claims WHERE idx = ?", (idx,)).fetchone()
            if row and (row[0], row[1], row[2]) != self.me and _alive(*row):
                self.held_elsewhere[idx] = row[1]
                return False
            self.db.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?, ?, ?)",
                            (idx, f"{host}:{pid}", host, pid, started, _now()))
        self.held_elsewhere.pop(idx, None)
        return True

    def release(self) -> None:
        """Give back every claim of this sweep not finished (stopped, failed): the next run takes them."""
        host, pid, started = self.me
        with self._transaction():
            self.db.execute("DELETE FROM claims WHERE host = ? AND pid = ? AND started = ?", (host, pid, started))

    def record(self, result: dict[str, Any]) -> bool:
        """Write one finished position and its findings in one transaction (its claim goes); False if it
        was already there."""
        with self._transaction():
            self.db.execute("DELETE FROM claims WHERE idx = ?", (result["index"],))
            cur = self.db.execute(
                "INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (result["index"], result["key"], result["cards"], json.dumps(result["zones"], ensure_ascii=False),
                 result["status"], int(result["complete"]), result["states"], result["seconds"],
                 json.dumps(result, ensure_ascii=False), _now()))
            if cur.rowcount == 0:
                return False
            self.db.executemany("INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?)", [
                (result["index"], f["kind"], f["what"], result["cards"], result["key"], f["detail"])
                for f in result["findings"]])
        return True

    def snapshot(self) -> tuple[dict[str, int], set[int]]:
        """The counts and the positions done, read in one transaction: another sweep on the database that
        finishes a position between two reads would otherwise make a run incomplete (by the counts) with
        nothing left to anybody (by the positions done)."""
        self.db.execute("BEGIN")
        try:
            return self.counts(), self.done()
        finally:
            self.db.execute("COMMIT")

    def counts(self) -> dict[str, int]:
        rows = dict(self.db.execute("SELECT status, COUNT(*) FROM positions GROUP BY status"))
        what = dict(self.db.execute("SELECT what, COUNT(DISTINCT idx) FROM findings GROUP BY what"))
        return {"done": sum(rows.values()), "ok": rows.get("ok", 0), "finding": rows.get("finding", 0),
                "incomplete": rows.get("incomplete", 0), "violations": what.get("violation", 0),
                "differences": what.get("difference", 0)}

    def smallest(self) -> Iterator[tuple[str, int, dict[str, Any]]]:
        """For each kind of finding: how many positions have it, and the smallest (fewest cards, then
        by name) position's result, kinds in the order of their smallest position."""
        rows = self.db.execute(
            "SELECT kind, COUNT(*), MIN(cards) FROM findings GROUP BY kind").fetchall()
        picked = []
        for kind, n, cards in rows:
            idx, key = self.db.execute("SELECT idx, key FROM findings WHERE kind = ? AND cards = ? "
                                       "ORDER BY key LIMIT 1", (kind, cards)).fetchone()
            picked.append((cards, key, kind, n, idx))
        for _cards, _key, kind, n, idx in sorted(picked):
            (text,) = self.db.execute("SELECT result FROM positions WHERE idx = ?", (idx,)).fetchone()
            yield kind, n, json.loads(text)

    def close(self) -> None:
        self.db.close()
