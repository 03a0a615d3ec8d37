"""What a finalizer raises while a command stops is not printed (dmcheck/cli/stop.py `_QuietUnraisable`):
the stop is reported once, as incomplete. Before the stop, a finalizer's error is printed as Python
prints it (nothing real is hidden)."""

from __future__ import annotations

import types

from dmcheck.cli import stop


def _unraisable(exc: BaseException):
    return types.SimpleNamespace(exc_type=type(exc), exc_value=exc, exc_traceback=None, err_msg=None, object=None)


def test_a_finalizer_error_is_passed_on_before_a_stop_and_dropped_during_one(monkeypatch):
    seen = []
    quiet = stop._QuietUnraisable(seen.append)
    monkeypatch.setattr(stop, "_stopping", False)
    quiet(_unraisable(ValueError("freed twice")))
    quiet(_unraisable(KeyboardInterrupt()))          # an interrupt landing in a finalizer: never printed
    assert [type(u.exc_value) for u in seen] == [ValueError]
    monkeypatch.setattr(stop, "_stopping", True)
    quiet(_unraisable(ValueError("context torn down")))
    assert len(seen) == 1


def test_a_new_command_starts_not_stopping(monkeypatch):
    monkeypatch.setattr(stop, "_stopping", True)
    args = types.SimpleNamespace(files=[], max_seconds=None)
    with stop.guarded(args):
        assert stop._stopping is False
