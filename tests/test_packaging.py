"""A plain `pip install .` or a wheel carries everything `dmcheck verify` reads:
pyproject.toml ships the repository's scenarios/ as `dmcheck.rulings.scenarios` (every *.yaml under it), so
every file the built-in corpus names must lie under scenarios/. CI installs the wheel in a fresh
environment and runs verify (.ci/run); this test catches a corpus entry that would break it sooner."""

from __future__ import annotations

import tomllib

from conftest import ROOT

from dmcheck.model.yamlio import load_yaml
from dmcheck.rulings.corpus import BUILTIN, builtin_corpus


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_one_import_root_every_package_is_installed_under_dmcheck():
    """Nothing generic lands in site-packages: model/, explorer/, properties/, rulings/ are
    installed as dmcheck.model, ... and the distribution's name is not PyPI's other `dmcheck`."""
    config = _config()
    assert all(p == "dmcheck" or p.startswith("dmcheck.") for p in config["packages"])
    for folder in ("model", "explorer", "properties", "rulings"):
        assert config["package-dir"][f"dmcheck.{folder}"] == folder
        assert (ROOT / folder / "__init__.py").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "dmcheck-rules" and "dmcheck" in project["scripts"]


def test_a_users_own_model_module_does_not_shadow_dmchecks(tmp_path):
    """A `model.py` and a `properties/` package in the current folder are the user's business."""
    import subprocess
    import sys

    (tmp_path / "model.py").write_text("raise SystemExit('the user model was imported')\n", encoding="utf-8")
    (tmp_path / "properties").mkdir()
    (tmp_path / "properties" / "__init__.py").write_text("raise SystemExit('the user properties')\n",
                                                         encoding="utf-8")
    scenario = ROOT / "scenarios" / "rulings" / "Q01_bolshack_rider.yaml"
    done = subprocess.run([sys.executable, "-m", "dmcheck", "check", str(scenario)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "user" not in done.stdout + done.stderr


def test_the_scenarios_folder_ships_inside_the_rulings_package():
    config = _config()
    assert "dmcheck.rulings.scenarios" in config["packages"]
    assert config["package-dir"]["dmcheck.rulings.scenarios"] == "scenarios"
    assert set(config["package-data"]["dmcheck.rulings.scenarios"]) >= {"*.yaml", "**/*.yaml"}
    assert "data/*.yaml" in config["package-data"]["dmcheck.model"]
    # from a checkout (source or -e) the corpus is the top-level scenarios/ folder
    assert BUILTIN == ROOT / "scenarios" / "corpus.yaml"


def test_every_package_and_data_file_of_dmcheck_folder_is_installed():
    """A subpackage of dmcheck/ (commands/, cli/, engines/) missing from `packages`, or a schema or template
    no `package-data` pattern names, would be left out of the wheel while an editable install still works."""
    config = _config()
    top = ROOT / "dmcheck"
    folders = [top, *(p.parent for p in top.rglob("__init__.py") if p.parent != top)]
    for folder in folders:
        name = ".".join(("dmcheck", *folder.relative_to(top).parts))
        assert name in config["packages"], name
        data = [f for f in folder.iterdir() if f.is_dir() and not (f / "__init__.py").exists()
                and f.name != "__pycache__"]
        for sub in data:
            for f in sub.rglob("*"):
                if f.is_file():
                    rel = f.relative_to(folder)
                    assert any(rel.match(pattern) for pattern in config["package-data"].get(name, [])), (name, rel)
    assert list((top / "cli" / "schemas").glob("*.json")) and list((top / "engines" / "schemas").glob("*.json"))


def test_every_file_the_builtin_corpus_reads_is_shipped():
    shipped = ROOT / "scenarios"
    for statement in builtin_corpus().statements:
        for scenario in statement.scenarios:
            assert scenario.is_relative_to(shipped) and scenario.suffix == ".yaml", (statement.ref, scenario)
            for cards in (load_yaml(scenario) or {}).get("cards") or []:
                path = (scenario.parent / str(cards)).resolve()
                assert path.is_relative_to(shipped) and path.suffix == ".yaml", (scenario, cards)


def test_a_ray_cluster_gets_dmcheck_as_one_package():
    """`sweep --ray-address` ships one folder named dmcheck holding the four packages and the corpus,
    whether dmcheck runs from a checkout (they are mapped from the top-level folders) or a wheel."""
    from pathlib import Path

    from dmcheck.rulings.sweep.backends import _staged_package

    staged = Path(_staged_package())
    assert staged.name == "dmcheck" and (staged / "main.py").is_file()
    for name in ("model", "explorer", "properties", "rulings"):
        assert (staged / name / "__init__.py").is_file(), name
    assert (staged / "model" / "data" / "cards.yaml").is_file()
    assert (staged / "rulings" / "scenarios" / "corpus.yaml").is_file()
