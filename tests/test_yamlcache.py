"""The parse cache (model/yamlcache.py): a parsed document comes back with its line numbers, errors are
never cached, an entry someone else could have written is not trusted, and the cache can be off."""

from __future__ import annotations

import os

import pytest

from dmcheck.model import yamlcache
from dmcheck.model.errors import InputError
from dmcheck.model.yamlio import line_of, load_yaml


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DMCHECK_CACHE_DIR", str(folder))
    return folder


def test_a_second_load_comes_from_the_cache_with_its_lines(cache, tmp_path):
    doc = tmp_path / "a.yaml"
    doc.write_text("name: x\nplayers:\n  A:\n    hand: [Bolshack Dragon]\n", encoding="utf-8")
    first = load_yaml(doc)
    assert len(list(cache.iterdir())) == 1
    second = load_yaml(doc)
    assert second == first and second is not first
    assert line_of(second, ("players", "A", "hand")) == 4


def test_an_error_is_never_cached_and_is_reported_every_time(cache, tmp_path):
    doc = tmp_path / "bad.yaml"
    doc.write_text("a: [1, 2\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InputError, match="YAML syntax"):
            load_yaml(doc)
    assert not cache.exists() or not list(cache.iterdir())


def test_an_entry_others_can_write_is_not_trusted(cache, tmp_path):
    text = "k: 1\n"
    yamlcache.put(text, {"k": "from the cache"})
    assert yamlcache.get(text) == {"k": "from the cache"}
    entry = next(cache.iterdir())
    os.chmod(entry, 0o666)
    assert yamlcache.get(text) is None


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("DMCHECK_CACHE_DIR", "off")
    doc = tmp_path / "a.yaml"
    doc.write_text("k: 1\n", encoding="utf-8")
    assert load_yaml(doc) == {"k": 1}
    assert yamlcache.get("k: 1\n") is None
