"""`verify --only` and the result cache (issue 38, item 2): the named statements checked against the whole
corpus with the same verdicts as a whole `verify`, everything else read back from the cache.

The whole comparison needs whole verifies (slow); what is refused before any work, and the cache's trust
rules, are checked in the default run.
"""

from __future__ import annotations

import io
import os
import shutil
import stat

import pytest
from conftest import DATA

from dmcheck.main import main


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_only_a_name_no_statement_has_is_bad_input_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setenv("DMCHECK_CACHE_DIR", str(tmp_path / "cache"))
    code, _, err = _run("verify", "--rulings", str(DATA / "rulings" / "contradicting.yaml"), "--only", "JD22")
    assert code == 2 and "--only: JD22: names no statement (did you mean 'JD2'" in err
    assert "(yours: X1@TEST, X2@TEST, JD2@TEST, JD3@TEST)" in err
    assert not list(tmp_path.glob("cache/verify-*"))      # refused before anything was worked out


def test_an_entry_others_could_have_written_is_not_read(tmp_path, monkeypatch):
    from dmcheck.model import yamlcache
    monkeypatch.setenv("DMCHECK_CACHE_DIR", str(tmp_path))
    assert yamlcache.write("verify-x.pickle", {"a": 1}) and yamlcache.read("verify-x.pickle") == {"a": 1}
    path = tmp_path / "verify-x.pickle"
    path.chmod(path.stat().st_mode | stat.S_IWOTH)
    assert yamlcache.read("verify-x.pickle") is None
    monkeypatch.setenv("DMCHECK_CACHE_DIR", "off")
    assert yamlcache.write("verify-x.pickle", {"a": 1}) is False and yamlcache.read("verify-x.pickle") is None


def test_a_key_changes_with_the_statement_and_its_scenario_only(tmp_path):
    from dmcheck.rulings.cache import statement_key
    from dmcheck.rulings.corpus import load_corpus
    for name in ("contradicting.yaml", "kakumeijin_charger_bottom.yaml"):
        shutil.copy(DATA / "rulings" / name, tmp_path / name)
    path = tmp_path / "contradicting.yaml"

    def keys() -> dict[str, str]:
        return {s.ref: statement_key(s) for s in load_corpus(path).statements}
    before = keys()
    path.write_text(path.read_text().replace("never to the mana zone", "never into the mana zone"))
    after = keys()
    assert after["X1@TEST"] != before["X1@TEST"] and after["X2@TEST"] == before["X2@TEST"]
    scenario = tmp_path / "kakumeijin_charger_bottom.yaml"
    scenario.write_text(scenario.read_text() + "\n# a comment is content too\n")
    assert keys()["X1@TEST"] != after["X1@TEST"]


@pytest.mark.slow
def test_only_gives_the_verdicts_of_a_whole_verify(tmp_path, monkeypatch):
    """X1 (a ruling), X2 and JD2 (ordering constraints) of contradicting.yaml, each edited after a whole
    verify: `--only` reads the rest from the cache, works out nothing else, and says what the whole
    verify of the edited file says of it (benchmarks/bench_only.py times the same loop)."""
    import sys
    sys.path.insert(0, str(DATA.parent.parent / "benchmarks"))
    from bench_only import EDITS, verdicts

    from dmcheck.rulings.only import verify_only
    from dmcheck.rulings.verify import verify
    monkeypatch.setenv("DMCHECK_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("contradicting.yaml", "kakumeijin_charger_bottom.yaml"):
        shutil.copy(DATA / "rulings" / name, tmp_path / name)
    path = tmp_path / "contradicting.yaml"
    verify([str(path)])
    assert os.listdir(tmp_path / "cache")
    for sid, old, new in EDITS:
        path.write_text(path.read_text().replace(old, new))
        only = verify_only([str(path)], [sid])
        ref = only.only.refs[0]
        assert only.only.worked_out == 0 and only.only.reused > 250
        whole = verify([str(path)], properties=False)
        assert verdicts(only, {ref}) == verdicts(whole, {ref}), ref
