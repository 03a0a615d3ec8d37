"""A plain `pip install .` or a wheel carries everything `dmcheck verify` reads (issue 13, item 1):
pyproject.toml ships the repository's scenarios/ as `rulings.scenarios` (every *.yaml under it), so
every file the built-in corpus names must lie under scenarios/. CI installs the wheel in a fresh
environment and runs verify (.ci/run); this test catches a corpus entry that would break it sooner."""

from __future__ import annotations

import tomllib

from model.yamlio import load_yaml
from rulings.corpus import BUILTIN, builtin_corpus

from conftest import ROOT


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_the_scenarios_folder_ships_inside_the_rulings_package():
    config = _config()
    assert "rulings.scenarios" in config["packages"]
    assert config["package-dir"]["rulings.scenarios"] == "scenarios"
    assert set(config["package-data"]["rulings.scenarios"]) >= {"*.yaml", "**/*.yaml"}
    assert "data/*.yaml" in config["package-data"]["model"]
    assert "schemas/*.json" in config["package-data"]["dmcheck"]
    assert list((ROOT / "dmcheck" / "schemas").glob("*.json"))
    # from a checkout (source or -e) the corpus is the top-level scenarios/ folder
    assert BUILTIN == ROOT / "scenarios" / "corpus.yaml"


def test_every_file_the_builtin_corpus_reads_is_shipped():
    shipped = ROOT / "scenarios"
    for statement in builtin_corpus().statements:
        for scenario in statement.scenarios:
            assert scenario.is_relative_to(shipped) and scenario.suffix == ".yaml", (statement.ref, scenario)
            for cards in (load_yaml(scenario) or {}).get("cards") or []:
                path = (scenario.parent / str(cards)).resolve()
                assert path.is_relative_to(shipped) and path.suffix == ".yaml", (scenario, cards)
