"""`dmcheck export` (dmcheck/engines/bundle.py): a conformance bundle that follows its schema, says what the model
says, and is the same bytes on every run, under any hash seed and any --jobs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import jsonschema
import pytest
from conftest import ROOT

import dmcheck
from dmcheck.engines.bundle import schema
from dmcheck.engines.identity import same_data
from dmcheck.main import main

FILES = [ROOT / "scenarios" / "rulings" / name for name in
         ("Q09_the_watch.yaml", "Q06_winter_spiral.yaml", "SC5_pending_after_check.yaml")]
DOUBLE = ROOT / "scenarios" / "attack" / "A26_not_blocked.yaml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def bundle_text() -> str:
    code, out, err = run("export", *map(str, FILES), "--jobs", "1")
    assert code == 0, err
    return out


def test_the_bundle_follows_its_schema_and_names_no_machine(bundle_text):
    data = json.loads(bundle_text)
    jsonschema.Draft202012Validator(schema()).validate(data)
    assert str(ROOT) not in bundle_text and os.path.expanduser("~") + "/" not in bundle_text
    assert [e["id"] for e in data["scenarios"]] == sorted(e["id"] for e in data["scenarios"])
    assert "seconds" not in bundle_text


def test_the_same_bytes_under_another_hash_seed_and_with_two_jobs(bundle_text, tmp_path):
    target = tmp_path / "b.json"
    env = dict(os.environ, PYTHONHASHSEED="4242")
    subprocess.run([sys.executable, "-m", "dmcheck", "export", *map(str, FILES), "--jobs", "2", "--out", str(target)],
                   cwd=tmp_path, env=env, check=True, capture_output=True)
    assert target.read_bytes() == bundle_text.encode("utf-8")


def test_every_state_lists_every_legal_choice_and_where_it_leads(bundle_text):
    """Against the API's unreduced graph of the same scenario: same states, same choices, same outcomes."""
    data = json.loads(bundle_text)
    for entry in data["scenarios"]:
        sc = dmcheck.load(ROOT / "scenarios" / entry["file"], rules=entry["rules"])
        graph = dmcheck.explore(sc)
        assert len(entry["nodes"]) == graph.states
        for node, n in enumerate(entry["nodes"]):
            legal = graph.choices(node)
            assert [c["text"] for c in n["choices"]] == [c.text for c in legal]
            assert [c["to"] for c in n["choices"]] == [succ for _, succ in graph.successors(node)]
            assert ("outcome" in n) == graph.state(node).terminal
        assert sorted(json.dumps(o["outcome"], sort_keys=True) for o in entry["outcomes"]) == \
            sorted(json.dumps(o.outcome, sort_keys=True) for o in graph.outcomes())


def test_each_outcome_path_replays_to_that_outcome(bundle_text):
    data = json.loads(bundle_text)
    for entry in data["scenarios"]:
        sc = dmcheck.load(ROOT / "scenarios" / entry["file"], rules=entry["rules"])
        for o in entry["outcomes"]:
            done = dmcheck.replay(sc, o["key"])
            assert done.state.outcome == o["outcome"]
            assert [s.choice.text for s in done.steps] == o["path"]


def test_choices_name_cards_by_label_and_states_change_only_what_moved(bundle_text):
    data = json.loads(bundle_text)
    q06 = next(e for e in data["scenarios"] if e["file"].endswith("Q06_winter_spiral.yaml"))
    shields = q06["position"]["zones"]["B"]["shields"]
    first = q06["nodes"][0]["choices"]
    assert [(c["player"], c["kind"], sorted(c["what"])) for c in first] == [("A", "choose_shields", sorted(shields))]
    # the attacker is returned to the hand (Q06): some state shows Kakumeijin in A's hand, not in the battle zone
    moved = [n for n in q06["nodes"] if "Kakumeijin" in n["state"]["zones"].get("A", {}).get("hand", [])]
    assert moved and all("Kakumeijin" not in n["state"]["zones"]["A"].get("battle", []) for n in moved)


def test_interchangeable_copies_are_grouped_where_a_choice_names_one():
    _code, out, _err = run("export", str(DOUBLE))
    entry = json.loads(out)["scenarios"][0]
    shields = entry["position"]["zones"]["B"]["shields"]
    choose = next(n for n in entry["nodes"] if any(c["kind"] == "choose_shields" for c in n["choices"]))
    assert len(choose["choices"]) == 1                      # one choice stands for every pair of vanilla shields
    assert any(set(group) <= set(shields) and len(group) == len(shields) for group in choose["copies"])


def test_rulings_name_the_statements_of_the_corpus_that_name_the_scenario(bundle_text):
    from dmcheck.rulings.corpus import builtin_corpus

    data = json.loads(bundle_text)
    corpus = builtin_corpus()
    for entry in data["scenarios"]:
        path = (ROOT / "scenarios" / entry["file"]).resolve()
        assert [r["ref"] for r in entry["rulings"]] == sorted(s.ref for s in corpus.statements if path in s.scenarios)
        for r in entry["rulings"]:
            assert (r["holds"] is None) == (r["rules"] != entry["rules"])


def test_the_corpus_runs_each_scenario_under_the_rules_of_the_statements_dates():
    runs = dmcheck.corpus_runs()
    files = {r.path for r in runs}
    assert len(runs) > len(files) >= 100
    q09 = {r.rules for r in runs if r.path.endswith("Q09_the_watch.yaml")}
    assert q09 == {"2023-04-19"}      # S000's Q&A is dated 2023-10-11: the 2023-04-19 rules


@pytest.mark.slow
def test_the_whole_corpus_exports_the_same_bytes_with_one_and_two_jobs(tmp_path):
    for jobs in ("1", "2"):
        code, _out, err = run("export", "--corpus", "--jobs", jobs, "--out", str(tmp_path / f"c{jobs}.json"))
        assert code == 0, err
    one, two = (tmp_path / "c1.json").read_bytes(), (tmp_path / "c2.json").read_bytes()
    assert one == two
    jsonschema.Draft202012Validator(schema()).validate(json.loads(one))


def test_a_folder_gets_one_bundle_per_scenario_run(tmp_path):
    code, _out, err = run("export", *map(str, FILES[:2]), "--out", str(tmp_path) + "/")
    assert code == 0, err
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert written == ["rulings/Q06_winter_spiral@2024-06-19.json", "rulings/Q09_the_watch@2024-06-19.json"]
    for p in tmp_path.rglob("*.json"):
        assert len(dmcheck.read_bundle(str(p))["scenarios"]) == 1


@pytest.mark.parametrize("argv, expected", [
    (("export",), "expected scenario files or directories, or --corpus"),
    (("export", "--corpus", "x.yaml"), "either --corpus or scenario files"),
    (("export", "nowhere.yaml"), "nowhere.yaml"),
    (("export", str(FILES[0]), "--out", "/no/such/folder/b.json"), "does not exist"),
    (("export", str(FILES[0]), "--rules", "1999-01-01"), "--rules"),
])
def test_bad_input_exits_2_naming_what_was_expected(argv, expected):
    code, _out, err = run(*argv)
    assert code == 2 and expected in err and "Traceback" not in err


def test_a_bundle_of_another_version_or_shape_is_refused(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"bundle_version": 2, "scenarios": []}))
    with pytest.raises(dmcheck.InputError, match="expected 1"):
        dmcheck.read_bundle(str(other))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"bundle_version": 1, "protocol_version": 1, "dmcheck": "x", "cards": {},
                                  "scenarios": [{"id": 3}]}))
    with pytest.raises(dmcheck.InputError, match="scenarios/0"):
        dmcheck.read_bundle(str(broken))


TWINPACT = ROOT / "scenarios" / "piles" / "TW04_either_side_not_both.yaml"
MECHRAID = ROOT / "scenarios" / "rulings" / "Q01_bolshack_rider.yaml"


def _export(*files) -> dict:
    code, out, err = run("export", *map(str, files))
    assert code == 0, err
    return json.loads(out)


def test_the_two_sides_of_a_twinpact_are_told_apart_by_data():
    """S223: a twinpact's S-Trigger is used by one side or the other; the bundle says which by `side`,
    and writes the card with both sides as a card file does (type twinpact, `spell`)."""
    data = _export(TWINPACT)
    entry = data["scenarios"][0]
    declare = next(n for n in entry["nodes"] if any(c["decision"] == "declare" and c["what"] for c in n["choices"]))
    sides = sorted(c["what"][0]["side"] for c in declare["choices"] if c["what"])
    assert sides == ["creature", "spell"]
    spell = next(c for c in declare["choices"] if c["what"] and c["what"][0]["side"] == "spell")
    assert "Twin Blast" in spell["text"]
    card = data["cards"]["twin_trigger"]
    assert card["type"] == "twinpact" and card["spell"]["name"] == "Twin Blast" and card["power"] == 3000
    assert card["spell"]["effect"] == [{"draw": {"count": 1}}]


def test_the_same_ability_of_two_identical_cards_is_two_choices_told_apart():
    """Q01: two Armored Scouts put into the battle zone each wait with their "enters"; the model offers
    resolving either, so in that state they are no group of interchangeable copies, and the two choices
    differ by their data (the source)."""
    entry = _export(MECHRAID)["scenarios"][0]
    both = [n for n in entry["nodes"] if sorted(c["what"][0].get("source") for c in n["choices"]
                                                if c["kind"] == "resolve") == ["Armored Scout#1", "Armored Scout#2"]]
    assert both
    for n in both:
        assert not any({"Armored Scout#1", "Armored Scout#2"} <= set(g) for g in n.get("copies", []))
    for n in entry["nodes"]:
        assert not same_data(n["choices"], n.get("copies", []))


def test_export_refuses_a_bundle_whose_choices_share_their_data(monkeypatch):
    """Without the twinpact's side in its data, the two declarations of TW04 would be one choice to an
    engine: export names the state and both choices, and writes nothing (exit 2)."""
    from dmcheck import views

    real = views.part

    def sideless(m, value, cards=True):
        out = real(m, value, cards)
        if isinstance(out, dict):
            out.pop("side", None)
        return out

    monkeypatch.setattr(views, "part", sideless)
    code, out, err = run("export", str(TWINPACT))
    assert code == 2 and out == "" and "Traceback" not in err
    assert "piles/TW04_either_side_not_both.yaml@2024-06-19, state 0" in err and "have the same data" in err
    assert "'B declares S-Trigger of Twin Trigger'" in err
    assert "'B declares S-Trigger of Twin Trigger (its spell side, Twin Blast)'" in err


def test_each_choice_carries_the_events_it_makes_happen(bundle_text):
    """Against dmcheck's own replay: the events of each choice are those of that step of the trace."""
    data = json.loads(bundle_text)
    kinds = set()
    for entry in data["scenarios"]:
        sc = dmcheck.load(ROOT / "scenarios" / entry["file"], rules=entry["rules"])
        for n in entry["nodes"][:12]:
            for c in n["choices"]:
                key = c["index"] if n["key"] == "-" else f"{n['key']}/{c['index']}"
                done = dmcheck.replay(sc, str(key))
                assert c["events"] == [dict(e) for e in done.steps[-1].events]
                kinds.update(e["event"] for e in c["events"])
    assert {"choose_shields", "break", "resolve", "move"} <= kinds   # the comparison means something


def test_the_position_names_a_chosen_attack_and_the_marks_of_this_turn():
    """LG01: no attack is given (the turn player picks one, or none, as the first choice) and two creatures
    came into the battle zone this turn; PW02: a power change until the end of the turn. An engine needs
    all three to set the position up; none may be replaced by a made-up attacker."""
    data = _export(ROOT / "scenarios" / "attack" / "LG01_summoning_sickness.yaml",
                   ROOT / "scenarios" / "attack" / "PW02_power_zero_before_other_effects.yaml")
    lg01, pw02 = data["scenarios"]
    assert lg01["position"]["attack"] == {"choose": True} and lg01["position"]["declaration"] == "chosen"
    assert lg01["position"]["zones"]["A"]["summoned"] == ["Speedy Probe", "Vanilla W-breaker"]
    first = lg01["nodes"][0]["choices"]
    assert {c["kind"] for c in first} == {"choose_attack", "no_attack"}
    assert not any(c["what"] and c["what"][0] == "Vanilla W-breaker" for c in first)   # summoning sickness
    assert pw02["position"]["zones"]["A"]["power"] == [["Vanilla W-breaker", -1000]]
    assert "summoned" not in pw02["position"]["zones"]["A"]
