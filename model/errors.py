"""Errors that a user can cause, kept apart from bugs so the CLI can print them without a traceback."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")


class DmcheckError(Exception):
    """Root of every error dmcheck raises on purpose."""


class InputError(DmcheckError):
    """A scenario, card or rulings file is wrong: names the file, the line, the key and what was expected."""

    def __init__(self, file: str, line: int | None, key: str, expected: str, more: tuple[InputError, ...] = ()):
        self.file, self.line, self.key, self.expected = file, line, key, expected
        self.more = tuple(more)   # other mistakes found in the same file at the same time, each with its line
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {key}: {expected}" if key else f"{where}: {expected}")

    def all(self) -> tuple[InputError, ...]:
        """This mistake and the others found with it, in the file's order: every one is reported."""
        return (self, *self.more)


MAX_REPORTED = 20   # mistakes of one file listed together; the rest are counted ("and N more")


def raise_all(errors: list[InputError]) -> None:
    """Raise the mistakes found together as one InputError listing them all (each with its own line):
    by file in the order the files were met, each file's in its line order, the same mistake once,
    at most MAX_REPORTED per file and then "and N more"; nothing when there are none."""
    seen: set[tuple] = set()
    by_file: dict[str, list[InputError]] = {}
    for e in (e for exc in errors for e in exc.all()):
        key = (e.file, e.line, e.key, e.expected)
        if key not in seen:
            seen.add(key)
            by_file.setdefault(e.file, []).append(e)
    flat: list[InputError] = []
    for file, found in by_file.items():
        listed = sorted((e for e in found if not isinstance(e, _More)), key=lambda e: e.line or 0)
        more = max(0, len(listed) - MAX_REPORTED) + sum(e.count for e in found if isinstance(e, _More))
        flat += listed[:MAX_REPORTED]
        if more:
            flat.append(_More(file, more))
    if flat:
        first = flat[0]
        raise InputError(first.file, first.line, first.key, first.expected, more=tuple(flat[1:]))


class _More(InputError):
    """The line that counts the mistakes of a file left unlisted."""

    def __init__(self, file: str, count: int):
        self.count = count
        super().__init__(file, None, "", f"and {count} more mistake{'s' if count > 1 else ''} "
                                         f"(the first {MAX_REPORTED} are listed)")


class Mistakes:
    """The independent mistakes of a file, gathered as its loader checks each part, then raised
    together (`raise_all`): a user fixes a file in one run, not one mistake a run."""

    def __init__(self) -> None:
        self.found: list[InputError] = []

    def __bool__(self) -> bool:
        return bool(self.found)

    def add(self, exc: InputError) -> None:
        self.found.append(exc)

    def check(self, work: Callable[..., T], *args: Any) -> T | None:
        """`work(*args)`, or None with its InputError noted (the loader goes on to the next part)."""
        try:
            return work(*args)
        except InputError as exc:
            self.found.append(exc)
            return None

    def raise_all(self) -> None:
        raise_all(self.found)


def did_you_mean(word: object, choices: Iterable[object]) -> str:
    """` (did you mean 'x'?)` for the choices closest to a misspelt word (case aside), else ``."""
    by_fold: dict[str, str] = {}
    for choice in choices:
        by_fold.setdefault(str(choice).casefold(), str(choice))
    close = difflib.get_close_matches(str(word).casefold(), list(by_fold), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(by_fold[c]) for c in close)}?)" if close else ""


class ModelError(DmcheckError):
    """The model itself went wrong (a bug of dmcheck's model, never of the input): the command reports it
    with the trace that led there and exits with its own code (dmcheck/cli/exits.py MODEL_ERROR)."""

    search_key: str | None = None     # the replay key of the failing step (explorer/protocol.py adds it)
    file: str = ""                    # the scenario it happened in, and the way there narrated
    trace_lines: tuple[str, ...] = ()  # (dmcheck/cli/report.py `locate_model_error` fills these in)

    def __init__(self, message: str, events: tuple = ()):
        super().__init__(message)
        self.message = message
        self.events = tuple(events)   # what the step that failed did (model/events.Event), the last round

    def __reduce__(self):   # worker processes send it back whole (rulings/farm.py), its key and trace too
        return (type(self), (self.message, self.events), dict(self.__dict__))


class EndlessStep(ModelError):
    """One step reached the same game position again with no choice in between: its automatic procedure
    would go round for ever (a rule read in one place and ignored in another). `events` is one round."""
