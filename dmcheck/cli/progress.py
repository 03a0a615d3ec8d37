"""A progress line on stderr for long searches and long jobs, only when stderr is a terminal (tqdm draws it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO


def progress_printer(stream: TextIO, label: str) -> Callable[[int, int, int, float], None] | None:
    if not getattr(stream, "isatty", lambda: False)():
        return None
    from tqdm import tqdm

    bar = tqdm(total=None, unit=" states", file=stream, leave=False, desc=label, dynamic_ncols=True)

    def report(states: int, frontier: int, depth: int, seconds: float) -> None:
        bar.update(states - bar.n)
        bar.set_postfix_str(f"frontier {frontier}, depth {depth}, {states / max(seconds, 1e-9):.0f} states/s")

    return report


def phase_printer(stream: TextIO, label: str) -> Callable[[str], None] | None:
    """For a job of many steps (`verify`): counts the steps and shows the one under way."""
    if not getattr(stream, "isatty", lambda: False)():
        return None
    from tqdm import tqdm

    bar = tqdm(total=None, unit=" steps", file=stream, leave=False, desc=label, dynamic_ncols=True)

    def report(what: str) -> None:
        bar.update(1)
        bar.set_postfix_str(what)

    return report
