"""Errors that a user can cause, kept apart from bugs so the CLI can print them without a traceback."""

from __future__ import annotations


class DmcheckError(Exception):
    """Root of every error dmcheck raises on purpose."""


class InputError(DmcheckError):
    """A scenario, card or rulings file is wrong: names the file, the line, the key and what was expected."""

    def __init__(self, file: str, line: int | None, key: str, expected: str):
        self.file, self.line, self.key, self.expected = file, line, key, expected
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {key}: {expected}" if key else f"{where}: {expected}")
