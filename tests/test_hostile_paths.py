"""Paths a careless or hostile command line or file names (issue 36, items 1, 3 and 7): no command writes
onto one of its inputs; the paths inside files lead only where the command line allows, and a file that
is not of its kind is refused without its contents being printed; a FIFO or a device is refused at once;
`examples --copy` writes only inside the folder it is given."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.main import main, parser
from dmcheck.model.yamlio import confined

Q09 = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"
SWEEP = ROOT / "scenarios" / "sweeps" / "kakumeijin_nested.yaml"
SECRET = "ghp_S3CRETT0KEN"
SCENARIO = """name: a scenario whose card file lies elsewhere
cards: [{cards}]
turn: A
players:
  A: {{battle: [Vanilla]}}
  B: {{shields: 1}}
attack: {{attacker: Vanilla, player: B}}
"""
RULINGS = """statements:
  - id: T1
    source: TEST
    date: 2024-06-19
    text: A statement whose scenario lies elsewhere.
    scenarios: [{scenario}]
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


# ---- item 1: no output onto an input ---------------------------------------------------------------
def _outputs_onto_inputs(tmp: Path) -> list[tuple[list, Path]]:
    """(argv, the input it would destroy) for every output flag of every command."""
    q = tmp / "q.yaml"
    q.write_text(Q09.read_text())
    link = tmp / "link.json"
    link.symlink_to(q)
    hard = tmp / "hard.json"
    os.link(q, hard)
    folder = tmp / "folder"
    folder.mkdir()
    inside = folder / "a.yaml"
    inside.write_text(Q09.read_text())
    template = tmp / "t.yaml"
    template.write_text(SWEEP.read_text())
    baseline = tmp / "known.json"
    baseline.write_text('{"dmcheck_baseline": 1, "findings": []}\n')
    bundle = tmp / "b.json"
    bundle.write_text("{}")
    props = tmp / "props.yaml"
    props.write_text("properties: []\n")
    return [
        (["export", q, "--out", q], q),                              # the data loss
        (["export", q, "--out", link], q),                           # through a symbolic link
        (["export", q, "--out", hard], q),                           # through a hard link
        (["explore", folder, "--junit", inside], inside),            # a file of an input folder
        (["explore", q, "--html", q], q),
        (["explore", q, "--graph", link], q),
        (["check", q, "--properties", props, "--sarif", props], props),
        (["verify", "--baseline", baseline, "--write-baseline", baseline], baseline),
        (["verify", "--rulings", q, "--junit", hard], q),
        (["sweep", template, "--db", template], template),
        (["conform", "--engine", "true", "--bundle", bundle, "--log", bundle], bundle),
        (["conform", "--engine", "true", "--bundle", bundle, "--junit", bundle], bundle),
    ]


def test_no_output_flag_of_any_command_writes_onto_an_input(tmp_path):
    for argv, victim in _outputs_onto_inputs(tmp_path):
        before = victim.read_bytes()
        code, out, err = run(*argv)
        assert code == 2 and "is also an input file" in err, (argv, err)
        assert victim.read_bytes() == before, argv


def test_a_card_file_a_scenario_reads_is_no_output(tmp_path):
    """An input the command line does not name (a scenario's card file) is found when it is read, before
    the work, and left alone."""
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards: []\n")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(cards="cards.yaml"))
    code, _, err = run("explore", scenario, "--html", cards)
    assert code == 2 and "cards[0]" in err and "is the file --html writes" in err, err
    assert cards.read_text() == "cards: []\n"


def test_export_into_a_folder_named_like_a_file(tmp_path):
    """Item 6: `export --out NAME/` where NAME is a file was a traceback (mkdir)."""
    name = tmp_path / "afile"
    name.write_text("mine")
    code, _, err = run("export", Q09, "--out", f"{name}/")
    assert code == 2 and "--out" in err and "is a file; expected a folder" in err, err
    assert name.read_text() == "mine"


# ---- item 3: paths inside files, files not of their kind -------------------------------------------
@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A work folder (the current one) and, beside it, a folder holding a secret."""
    secret = tmp_path / "private"
    secret.mkdir()
    (secret / "token.txt").write_text(f"https://user:{SECRET}@github.com\n")
    (secret / "creds.yaml").write_text(f"token: {SECRET}\nname: {SECRET}\n")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work, secret


def _leaks(text: str) -> bool:
    return SECRET in text


@pytest.mark.parametrize("target", ["../private/token.txt", "../private/creds.yaml", "/etc/passwd"])
def test_a_card_file_outside_the_allowed_folders_is_refused_unread(elsewhere, target):
    work, _ = elsewhere
    (work / "s.yaml").write_text(SCENARIO.format(cards=target))
    code, out, err = run("explore", "s.yaml", "--json", "--junit", "j.xml", "--sarif", "s.sarif", "--jobs", "1")
    assert code == 2 and "s.yaml:2: cards[0]" in err and "leads outside the folders dmcheck reads from" in err, err
    assert "--allow-path" in err
    for text in (out, err, (work / "j.xml").read_text(), (work / "s.sarif").read_text()):
        assert not _leaks(text) and "root:x:0" not in text


def test_allowed_folders_are_read_and_a_file_of_another_kind_is_not_quoted(elsewhere):
    """--allow-path lets the card file be read; it is no card file, and is refused without its contents."""
    work, secret = elsewhere
    for target in ("../private/token.txt", "../private/creds.yaml"):
        (work / "s.yaml").write_text(SCENARIO.format(cards=target))
        code, out, err = run("explore", "s.yaml", "--allow-path", secret, "--json", "--junit", "j.xml")
        assert code == 2 and "not a file of this kind" in err and "contents are not shown" in err, err
        assert not any(_leaks(t) for t in (out, err, (work / "j.xml").read_text()))


def test_a_symbolic_link_out_of_the_folder_is_followed_to_where_it_leads(elsewhere):
    work, _ = elsewhere
    (work / "cards.yaml").symlink_to("../private/creds.yaml")
    (work / "s.yaml").write_text(SCENARIO.format(cards="cards.yaml"))
    code, _, err = run("explore", "s.yaml")
    assert code == 2 and "leads outside" in err and not _leaks(err), err


def test_a_rulings_file_names_no_scenario_outside(elsewhere):
    work, secret = elsewhere
    (secret / "s.yaml").write_text(SCENARIO.format(cards="[]").replace("cards: [[]]", "cards: []"))
    (work / "r.yaml").write_text(RULINGS.format(scenario="../private/s.yaml"))
    code, _, err = run("verify", "--rulings", "r.yaml", "--max-seconds", "5")
    assert code == 2 and "r.yaml:6: statements[0].scenarios[0]" in err and "leads outside" in err, err


@pytest.mark.parametrize("contents", [f"https://user:{SECRET}@github.com\n", f'{{"auths": {{"x": "{SECRET}"}}}}\n',
                                      f"{SECRET}: 1\n{SECRET}: 2\n", f"x: !!int {SECRET}\n", f"x: *{SECRET}\n",
                                      f"x: !!timestamp {SECRET}\n"])
@pytest.mark.parametrize("command", [["explore", "{f}"], ["check", str(Q09), "--properties", "{f}"],
                                     ["verify", "--rulings", "{f}"], ["sweep", "{f}", "--db", "{db}"],
                                     ["cards", "{f}"]])
def test_a_file_that_is_not_yaml_of_its_kind_is_refused_without_its_contents(tmp_path, contents, command):
    f = tmp_path / "f.yaml"
    f.write_text(contents)
    code, out, err = run(*[a.replace("{f}", str(f)).replace("{db}", str(tmp_path / "d.sqlite")) for a in command],
                         "--json")
    assert code == 2 and err.startswith("dmcheck: ") and "Traceback" not in err, err
    assert not _leaks(out) and not _leaks(err), err


def _shipped_files_load(tmp_path, monkeypatch, every: bool) -> None:
    """The confinement changes nothing for the examples: each shipped scenario, template and rulings file
    loads under the confinement of a command naming it, run from the repository and from the folder
    `dmcheck examples --copy` wrote (their paths `../cards/...` stay inside)."""
    from dmcheck.cli.paths import confinement
    from dmcheck.cli.shipped import catalogue
    from dmcheck.model.cards import CardPool
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.rulings.corpus import load_corpus
    from dmcheck.rulings.sweep.template import load_template

    assert run("examples", "--copy", tmp_path / "ex")[0] == 0
    load = {"scenario": ("explore", load_scenario), "sweep template": ("sweep", load_template),
            "rulings corpus": ("verify", load_corpus), "rulings file": ("verify", load_corpus),
            "card file": ("cards", lambda p: CardPool().add_file(p))}
    for folder, prefix in ((ROOT, "scenarios/"), (tmp_path, "ex/")):
        monkeypatch.chdir(folder)
        for item in catalogue():
            text = (ROOT / item["path"]).read_text()
            if item["kind"] == "properties file" or not (every or "../" in text or item["kind"] != "scenario"):
                continue
            command, loader = load[item["kind"]]
            path = prefix + item["path"].removeprefix("scenarios/")
            flag = {"verify": ["--rulings"], "sweep": [], "explore": [], "cards": []}[command]
            args = parser().parse_args([command, *flag, path])
            with confined(confinement(args)):
                loader(path)


def test_the_shipped_files_that_read_other_folders_load_from_the_repository_and_from_a_copy(tmp_path, monkeypatch):
    _shipped_files_load(tmp_path, monkeypatch, every=False)


@pytest.mark.slow
def test_every_shipped_file_loads_from_the_repository_and_from_a_copy(tmp_path, monkeypatch):
    _shipped_files_load(tmp_path, monkeypatch, every=True)


# ---- FIFOs and devices ------------------------------------------------------------------------------
def _ends_within(seconds: float, argv: list) -> tuple[int, str, str]:
    result: list = []
    thread = threading.Thread(target=lambda: result.append(run(*argv)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert result, f"{argv} still running after {seconds} s: it opened the FIFO"
    return result[0]


def test_a_fifo_or_a_device_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "s.yaml").write_text(SCENARIO.format(cards="fifo.yaml"))
    cases = [(["explore", fifo], "is a FIFO"), (["explore", "/dev/zero"], "is a character device"),
             (["explore", tmp_path / "s.yaml"], "is a FIFO"), (["verify", "--rulings", fifo], "is a FIFO"),
             (["verify", "--baseline", fifo], "is a FIFO"),
             (["conform", "--engine", "x", "--bundle", fifo], "is a FIFO"),
             (["sweep", SWEEP, "--db", fifo], "FIFO"), (["sweep", SWEEP, "--db", "/dev/zero"], "character device"),
             (["explore", Q09, "--junit", fifo], "FIFO")]
    for argv, words in cases:
        code, _, err = _ends_within(10, argv)
        assert code == 2 and words in err, (argv, err)


# ---- item 7: examples --copy stays inside its folder -----------------------------------------------
def test_examples_copy_never_follows_a_symbolic_link_out_of_its_folder(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    target = tmp_path / "copy"
    target.mkdir()
    (target / "rulings").symlink_to(outside)
    code, _, err = run("examples", "--copy", target, "rulings/Q09*")
    assert code == 2 and "leads out of" in err, err
    assert list(outside.iterdir()) == []
    (target / "rulings").unlink()
    (target / "corpus.yaml").symlink_to(outside / "dangling.yaml")       # a dangling link: exists() says no
    code, _, err = run("examples", "--copy", target, "corpus.yaml")
    assert code == 2 and list(outside.iterdir()) == [], err


def test_examples_copy_to_a_place_it_cannot_write_is_bad_input():
    """Item 6: a traceback (FileNotFoundError from mkdir) before."""
    code, out, err = run("examples", "--copy", "/proc/dmcheck-examples", "--json")
    assert code == 2 and err.startswith("dmcheck: --copy") and "Traceback" not in err, err
    assert json.loads(out)["errors"]
