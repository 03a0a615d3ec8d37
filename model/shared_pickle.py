"""A value pickled for another process of the same command, its card definitions written as references
to the card files both processes read (verify's helper sends every scenario it loads so).

A scenario carries its card pool: the built-in cards and those of its card files. Pickled whole, every
scenario unpickled in the receiving process had its own copies of them: 466 scenarios made 80 MB of
duplicate card definitions in verify's main process (2026-12-06), where loading the scenarios itself
shares one copy per card file (cards.py reads a card file once per process). A card read from a file
is written as its origin (file, modification time, size, place) and read back as the receiver's own
definition, the file read there once if it had not been.
"""

from __future__ import annotations

import io
import pickle
from typing import Any

from .cards import CardDef, card_at, card_origin


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        return card_origin(obj) if type(obj) is CardDef else None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        try:
            return card_at(pid)
        except LookupError as exc:
            raise pickle.UnpicklingError(str(exc)) from exc


def dumps(value: Any) -> bytes:
    """`value` pickled, each card definition read from a file written as where it was read."""
    out = io.BytesIO()
    _Pickler(out, pickle.HIGHEST_PROTOCOL).dump(value)
    return out.getvalue()


def loads(data: bytes) -> Any:
    """The value `dumps` wrote, with this process's own card definitions; pickle.UnpicklingError when a
    card file has changed or is gone since (the caller then loads the value itself)."""
    return _Unpickler(io.BytesIO(data)).load()
