"""The case study cannot drift: docs/conform-case-study.md, docs/conform-matrix.md and README's figures are
rendered again from the kept results (adapters/*/result.json) and their readings, and must be what the
docs show; every deviating run of a result must be read (adapters/*/readings.yaml)."""

from __future__ import annotations

import importlib.util
import json

from conftest import ROOT

spec = importlib.util.spec_from_file_location("case_study", ROOT / "adapters" / "case_study.py")
case_study = importlib.util.module_from_spec(spec)
spec.loader.exec_module(case_study)


def test_the_docs_are_what_the_kept_results_render():
    results = case_study.load()
    assert {r["key"] for r in results} >= {"dmsim", "duel_masters_ai"}
    blocks = case_study.render(results)
    study = (ROOT / "docs" / "conform-case-study.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for r in results:
        assert case_study.block(study, f"engine-{r['key']}") == blocks[f"engine-{r['key']}"], \
            "docs/conform-case-study.md is stale: run `python adapters/case_study.py render`"
    for name in ("figures", "export"):
        assert case_study.block(readme, name) == blocks[name], "README.md's case-study figures are stale"
    assert (ROOT / "docs" / "conform-matrix.md").read_text(encoding="utf-8") == blocks["matrix"]


def test_every_deviation_is_read_and_every_engine_ran_the_same_bundle():
    results = case_study.load()
    assert len({r["bundle"]["sha256"] for r in results}) == 1, "run every engine against the same bundle"
    for r in results:
        assert case_study.unread(r) == [], f"adapters/{r['key']}/readings.yaml"
        for run, reading in r["readings"]["runs"].items():
            assert reading["cause"] in r["readings"]["causes"], run
            assert r["readings"]["causes"][reading["cause"]]["class"] in ("engine", "adapter")


def test_the_figures_come_from_the_result(tmp_path):
    """A result with one more deviating run: the tables count it, and it is reported unread."""
    path = ROOT / "adapters" / "dmsim" / "result.json"
    result = json.loads(path.read_text(encoding="utf-8"))
    run = next(r for r in result["runs"] if r["status"] == "conforms")
    run.update(status="deviates", findings=[{"kind": "missing_choice", "message": "m", "replay": "0", "count": 1}])
    (tmp_path / "dmsim").mkdir()
    (tmp_path / "dmsim" / "result.json").write_text(json.dumps(result), encoding="utf-8")
    (tmp_path / "dmsim" / "readings.yaml").write_text((path.parent / "readings.yaml").read_text(encoding="utf-8"),
                                                      encoding="utf-8")
    [loaded] = case_study.load([tmp_path / "dmsim" / "result.json"])
    assert case_study.unread(loaded) == [f"{run['id']}: no reading"]
    text = case_study.render([loaded])["engine-dmsim"]
    n = sum(r["status"] == "deviates" for r in result["runs"])
    assert f"| set up, deviating | {n} |" in text and f"`{run['id']}` | missing_choice (0) | ? |" in text
