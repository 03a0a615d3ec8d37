"""The command line as a user and a tool meet it: one JSON shape (validated against the published
schema), --replay --json, --max-outcomes, directories as FILE, --version, help, `| head`, did-you-mean
and progress."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

import pytest
from conftest import DATA, ROOT, RULINGS, output, scenario_output

from dmcheck.cli.exits import HELP
from dmcheck.main import main, parser
from dmcheck.model.errors import did_you_mean


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def ruling(prefix: str) -> str:
    return str(next(p for p in RULINGS if p.name.startswith(prefix)))


# ---- one JSON shape ---------------------------------------------------------------------------------
def test_several_files_and_a_bad_one_give_one_object_naming_the_bad_file():
    files = [ruling("Q06"), str(DATA / "bad" / "unknown_card.yaml"), ruling("Q09")]
    code, out, err = run("explore", *files, "--json")
    doc = output(out)
    assert code == 2   # bad input wins over everything else
    assert doc["schema_version"] == 1 and doc["command"] == "explore"
    assert [s["file"] for s in doc["scenarios"]] == [files[0], files[2]]
    (error,) = doc["errors"]
    # the file puts the misspelt card on its line 6 (players.A.hand[1])
    assert error["file"] == files[1] and error["line"] == 6
    assert "unknown card 'Bolshack Dragonn'" in error["message"]
    assert "unknown card" in err   # people still read it on stderr


def test_one_file_is_a_list_of_one_and_check_has_the_same_shape():
    code, out, _ = run("explore", ruling("Q06"), "--json")
    assert code == 0 and output(out)["errors"] == []
    code, out, _ = run("check", ruling("Q06"), "--property", "conservation", "--json")
    doc = output(out)
    assert doc["command"] == "check" and [p["id"] for p in doc["scenarios"][0]["properties"]] == ["conservation"]


def test_bad_input_of_verify_and_diff_is_still_one_json_object(tmp_path):
    missing = str(tmp_path / "no_such_rulings.yaml")
    code, out, _ = run("verify", "--rulings", missing, "--json")
    doc = output(out)
    assert code == 2 and doc["command"] == "verify" and doc["errors"][0]["file"] == missing
    code, out, _ = run("diff", ruling("Q09"), "--rules", "2023-01-01", "--json")   # one setting only
    doc = output(out)
    assert code == 2 and doc["command"] == "diff" and "two different settings" in doc["errors"][0]["message"]


def test_replay_json_reaches_the_outcome_explore_listed():
    code, out, _ = run("explore", ruling("Q06"), "--json")
    listed = scenario_output(out)["outcomes"]
    for item in listed:
        code, out, _ = run("explore", ruling("Q06"), "--replay", item["trace_key"], "--json")
        replay = output(out)["replay"]
        assert code == 0 and replay["terminal"] and replay["next"] == []
        expected = {k: v for k, v in item.items() if k not in ("count", "trace_key")}
        assert replay["outcome"] == expected
        assert replay["key"] == item["trace_key"] and len(replay["steps"]) == len(item["trace_key"].split("/"))
        # the flat trace is the steps' events, each tagged with its step
        assert [dict(e, step=s["step"]) for s in replay["steps"] for e in s["events"]] == replay["trace"]


def test_replay_json_of_a_prefix_lists_the_next_choices_and_each_can_be_taken():
    code, out, _ = run("explore", ruling("Q06"), "--replay", "0", "--json")
    replay = output(out)["replay"]
    assert not replay["terminal"] and replay["outcome"] is None and replay["next"]
    # Kakumeijin's two before-break abilities wait after the shields are chosen (R509.3)
    assert replay["state"]["pending"] == ["Kakumeijin/before_break"] * 2
    for choice in replay["next"]:
        code, out, _ = run("explore", ruling("Q06"), "--replay", f"0/{choice['index']}", "--json")
        assert code == 0 and output(out)["replay"]["steps"][-1]["action"] == choice["action"]


# ---- --max-outcomes ---------------------------------------------------------------------------------
def test_max_outcomes_says_how_many_were_left_out():
    file = ruling("D2")
    _, out, _ = run("explore", file, "--json")
    total = len(scenario_output(out)["outcomes"])
    assert total > 2
    _, out, _ = run("explore", file, "--json", "--max-outcomes", "2")
    entry = scenario_output(out)
    assert len(entry["outcomes"]) == 2
    assert entry["outcomes_total"] == total and entry["outcomes_left_out"] == total - 2
    _, text, _ = run("explore", file, "--max-outcomes", "2")
    assert f"outcomes ({total}):" in text and f"... {total - 2} more outcomes left out" in text
    assert sum(1 for line in text.splitlines() if "[replay " in line and " x  " in line) == 2


def test_max_outcomes_must_be_a_whole_number():
    with pytest.raises(SystemExit) as exc:
        run("explore", ruling("Q06"), "--max-outcomes", "-1")
    assert exc.value.code == 2


# ---- a directory as FILE ----------------------------------------------------------------------------
def test_a_directory_stands_for_its_yaml_files(tmp_path):
    code, out, _ = run("explore", str(ROOT / "scenarios" / "changes"), "--json")
    doc = output(out)
    expected = sorted(str(p) for p in (ROOT / "scenarios" / "changes").glob("*.yaml"))
    assert code == 0 and [s["file"] for s in doc["scenarios"]] == expected
    code, _, err = run("explore", str(tmp_path))
    assert code == 2 and "no *.yaml file" in err


# ---- hygiene --------------------------------------------------------------------------------------------
def test_version():
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    proc = subprocess.run([sys.executable, "-m", "dmcheck", "--version"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("dmcheck ")


def _subparsers(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_help_gives_the_exit_codes_and_every_option_has_help():
    top = parser()
    assert HELP in top.format_help()
    commands = _subparsers(top)
    assert set(commands) >= {"explore", "check", "verify", "diff", "sweep"}
    for name, sub in [("dmcheck", top), *commands.items()]:
        if sub is not top:
            assert HELP in sub.format_help(), name
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.option_strings or action.dest)


def test_a_closed_pipe_ends_quietly():
    # `dmcheck explore DIR | head -1`: the reader leaves after one line, the rest must not raise
    proc = subprocess.run(f"'{sys.executable}' -m dmcheck explore scenarios/rulings | head -1",
                          shell=True, cwd=ROOT, capture_output=True, text=True)
    assert proc.stdout.startswith("== ") and proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr


def test_did_you_mean():
    assert did_you_mean("hands", ["battle", "hand", "mana"]) == " (did you mean 'hand'?)"
    assert did_you_mean("bolshack rIDER", ["Bolshack Rider"]) == " (did you mean 'Bolshack Rider'?)"
    assert did_you_mean("zzz", ["hand"]) == ""
    _, _, err = run("explore", str(DATA / "bad" / "unknown_key.yaml"))
    assert "unknown key 'hands' (did you mean 'hand'?)" in err
    _, _, err = run("explore", str(DATA / "bad" / "unknown_card.yaml"))
    assert "unknown card 'Bolshack Dragonn' (did you mean 'Bolshack Dragon GS'" in err
    _, _, err = run("check", ruling("Q06"), "--property", "conservaton")
    assert "(did you mean 'conservation'?)" in err


# ---- progress ---------------------------------------------------------------------------------------
class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal():
    from dmcheck.cli.progress import phase_printer

    assert phase_printer(io.StringIO(), "verify") is None
    screen = Terminal()
    tell = phase_printer(screen, "verify")
    tell("exploring Q06")
    tell("conformance")
    assert "verify: 2 steps" in screen.getvalue() and "conformance" in screen.getvalue()


def test_diff_and_verify_report_what_they_run():
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.rulings.diff import compare
    from dmcheck.rulings.operational import Runner, default_combo

    asked = []
    compare(load_scenario(ruling("Q09")), ("old", None, {}), ("new", None, {"old_rules_waiting": "all"}),
            progress=lambda label: asked.append(label))
    assert asked == ["old", "new"]
    told = []
    runner = Runner(progress=told.append)
    runner.run(RULINGS[0], None, default_combo())
    assert told == [f"exploring {RULINGS[0].name} ({runner.runs()[0].version.name})"]
