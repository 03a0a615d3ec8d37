"""A statement citing an undeclared public source is bad input naming its line, even when no file of
the corpus declares any source at all (the message once indexed an empty list)."""

from __future__ import annotations

import pytest

from dmcheck.model.errors import InputError
from dmcheck.rulings.corpus import check_sources, load_corpus


def test_an_undeclared_source_with_no_source_declared_anywhere(tmp_path):
    path = tmp_path / "rulings.yaml"
    path.write_text("statements:\n  - id: X1\n    source: S150\n    date: 2024-01-01\n"
                    "    text: a statement citing a source nobody declares\n    unchecked: a test\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        check_sources(load_corpus(path))
    message = str(caught.value)
    assert "rulings.yaml:2" in message and "source S150 is not declared" in message
    assert "`sources:` list" in message
