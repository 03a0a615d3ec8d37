"""`dmcheck explore FILE --html OUT`: a self-contained page, read in a real browser (headless Chromium).

The page's content is compared with what the explorer and the model say (outcomes, the legal choices
after a replay key), and the browser tests read the DOM after the page's script ran: the outcome
count, the replay key and choices reached through `#replay=KEY`, a terminal state's outcome, and the
error for a key that names no choice.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import DATA, RULINGS, scenario_output

from dmcheck.explorer.trace import parse_key
from dmcheck.main import main

Q06 = str(next(p for p in RULINGS if p.name.startswith("Q06")))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
browser = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                             "(Debian: apt-get install -y chromium; .ci/run installs it)")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def page(tmp_path: Path, scenario: str = Q06, *extra: str) -> tuple[Path, dict]:
    path = tmp_path / "page.html"
    run("explore", scenario, "--html", str(path), *extra)
    text = path.read_text(encoding="utf-8")
    raw = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S).group(1)
    return path, json.loads(raw.replace("<\\/", "</"))


def dom(tmp_path: Path, path: Path, fragment: str = "") -> str:
    """The page's DOM after its script ran, as headless Chromium dumps it."""
    profile = tmp_path / "chromium-profile"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
         "--dump-dom", path.as_uri() + fragment],
        capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def text_of(html: str, element_id: str) -> str:
    """The text from the element with this id up to the next element with an id (tags removed): the
    page gives ids only to the parts it fills in, none inside them."""
    m = re.search(rf'id="{element_id}"[^>]*>(.*?) id="', html, re.S)
    assert m, f"no element #{element_id}"
    text = re.sub(r"<[^>]+>", "", m.group(1).rsplit("<", 1)[0])
    return text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").strip()


def leaf(html: str, element_id: str) -> str:
    """The text of an element with this id that holds only text."""
    m = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', html)
    assert m, f"no element #{element_id}"
    return m.group(1)


# ---- the page without a browser ---------------------------------------------------------------------
def test_page_is_self_contained_and_agrees_with_explore(tmp_path):
    path, data = page(tmp_path)
    text = path.read_text(encoding="utf-8")
    # nothing is fetched: no external script, style sheet, image or link (the SVG namespace is a name)
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', text)
    assert "<link" not in text and "@import" not in text
    code, out, _ = run("explore", Q06, "--json")
    report = scenario_output(out)
    assert [(o["count"], o["key"]) for o in data["outcomes"]] == \
           [(o["count"], o["trace_key"]) for o in report["outcomes"]]
    assert [e["verdict"] for e in data["expectations"]] == [e["verdict"] for e in report["expectations"]]
    assert data["states"] == report["states"] and len(data["graph"]) == report["states"]
    # the scenario itself is on the page
    assert "Winter Spiral" in text and "attack: {attacker: Kakumeijin, player: B}" in text


def test_a_violated_expectation_marks_the_state_its_trace_ends_in(tmp_path, ruling):
    path, data = page(tmp_path, str(DATA / "wrong_expectation.yaml"))
    (item,) = data["expectations"]
    assert item["verdict"] == "violated"
    node = 0
    for index in parse_key(item["key"]):
        node = next(e["to"] for e in data["graph"][str(node)]["edges"] if e["i"] == index)
    assert data["graph"][str(node)]["violation"] and data["graph"][str(node)]["terminal"]
    assert re.search(rf'<circle class="state violation" data-node="{node}"', path.read_text())


def test_html_with_several_files_or_compact_is_bad_input(tmp_path):
    out = tmp_path / "p.html"
    code, _, err = run("explore", Q06, Q06, "--html", str(out))
    assert code == 2 and "exactly one scenario FILE" in err
    code, _, err = run("explore", Q06, "--html", str(out), "--compact")
    assert code == 2 and "--compact" in err
    assert not out.exists()


# ---- the page in a browser --------------------------------------------------------------------------
@browser
def test_browser_shows_outcomes_and_the_choices_after_a_replay_key(tmp_path, ruling):
    path, data = page(tmp_path)
    _, model, graph = ruling("Q06")
    html = dom(tmp_path, path, "#replay=0/0")
    assert leaf(html, "outcome-count") == str(len(graph.outcomes()))
    assert leaf(html, "replay-key") == "0/0"
    # the choices shown are the model's legal actions after choosing the shields and resolving the
    # first before-break ability: cast Winter Spiral or not (Q06)
    s = model.initial_state()
    for index in (0, 0):
        s = model.step(s, model.actions(s)[index])[0]
    shown = re.findall(r'<a class="choice" data-index="(\d+)" href="#replay=0/0/\d+">\[\d+\] (.*?)</a>', html)
    assert [(int(i), t.replace("&lt;", "<")) for i, t in shown] == \
           [(i, a.text) for i, a in enumerate(model.actions(s))]
    assert "Winter Spiral" in shown[0][1]
    # the path so far, step by step with its rules, and the state with both players' zones
    assert "R509.3" in text_of(html, "path") and "R509.4" in text_of(html, "path")
    assert "player A" in html and "player B" in html and "pending effects" in html
    assert 'class="state onpath current"' in html or 'class="state current onpath"' in html


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
@browser
def test_browser_reaches_each_outcome_by_its_key_and_reports_a_bad_key(tmp_path):
    path, data = page(tmp_path)
    for n, outcome in enumerate(data["outcomes"], 1):
        html = dom(tmp_path, path, "#replay=" + outcome["key"])
        assert leaf(html, "replay-key") == outcome["key"]
        assert f"terminal: outcome {n}:" in text_of(html, "choices")
    html = dom(tmp_path, path, "#replay=0/7")
    assert "step 2: no choice [7] here" in text_of(html, "explorer-error")
    assert leaf(html, "replay-key") == "0"


def _moved(before: dict, after: dict) -> dict[tuple[str, str], tuple[list[str], list[str]]]:
    """Per (player, zone): the cards that came and the cards that went between two states' zones."""
    from collections import Counter

    out = {}
    for p in ("A", "B"):
        for z in set(before.get(p, {})) | set(after.get(p, {})):
            now, was = Counter(after.get(p, {}).get(z, [])), Counter(before.get(p, {}).get(z, []))
            came, went = sorted((now - was).elements()), sorted((was - now).elements())
            if came or went:
                out[(p, z)] = (came, went)
    return out


@browser
def test_browser_marks_what_each_step_changed(tmp_path):
    import dmcheck

    path, data = page(tmp_path)
    scenario = dmcheck.load(Q06)
    key = data["outcomes"][0]["key"]
    steps = key.split("/")
    # the last step of the first outcome's trace that moves a card, from the API's replays
    for n in range(len(steps), 0, -1):
        before = dmcheck.replay(scenario, "/".join(steps[:n - 1]) or "").state.zones
        moved = {pz: v for pz, v in _moved(before, dmcheck.replay(scenario, "/".join(steps[:n])).state.zones).items()
                 if pz[1] != "tapped"}
        if moved:
            break
    assert moved                                    # the test means something
    html = dom(tmp_path, path, "#replay=" + "/".join(steps[:n]))
    state = html.split('id="state"', 1)[1].split("</div>", 1)[0]
    marked = {}
    for zone, cells in re.findall(r'<tr class="zone" data-zone="(\w+)">(.*?)</tr>', state, re.S):
        for player, cell in re.findall(r'<td data-player="(\w)">(.*?)</td>', cells, re.S):
            came = sorted(re.findall(r'<mark class="new">(.*?)</mark>', cell))
            went = sorted(re.findall(r'<del class="gone">(.*?)</del>', cell))
            if came or went:
                marked[(player, zone)] = (came, went)
    assert marked == moved
    # the initial state has no step before it: nothing is marked
    html = dom(tmp_path, path, "")
    assert 'class="new"' not in html.split('id="state"', 1)[1].split("</div>", 1)[0]


def test_check_html_lists_every_property_verdict(tmp_path):
    path = tmp_path / "check.html"
    code, _, _ = run("check", Q06, "--html", str(path))
    _, out, _ = run("check", Q06, "--json")
    report = scenario_output(out)
    raw = re.search(r'id="data">(.*?)</script>', path.read_text(encoding="utf-8"), re.S).group(1)
    data = json.loads(raw.replace("<\\/", "</"))
    assert [(p["text"].split(" ", 1)[0], p["verdict"]) for p in data["properties"]] == \
           [(p["id"], p["verdict"]) for p in report["properties"]]
    assert 'id="properties"' in path.read_text(encoding="utf-8")


def test_large_graphs_are_cut_at_whole_layers_and_traces_stay_walkable(tmp_path, monkeypatch, ruling):
    import dmcheck.cli.html as page_module
    _, _, graph = ruling("Q06")
    monkeypatch.setattr(page_module, "MAX_DRAW", 5)
    monkeypatch.setattr(page_module, "MAX_EMBED", 3)
    path, data = page(tmp_path)
    depths = graph.depth
    # the layers that fit in 5 states, whole (Q06: one state per layer until Winter Spiral's choice)
    fits = max(d for d in set(depths) if sum(1 for x in depths if x <= d) <= 5)
    drawn = sum(1 for x in depths if x <= fits)
    assert data["drawn"] == drawn
    assert len(re.findall(r'<circle class="state', path.read_text())) == drawn
    assert f"only the first {fits + 1} layers, {drawn} of {graph.count} states, are drawn" in path.read_text()
    assert data["embedded"] < graph.count
    for outcome in data["outcomes"]:   # every listed trace can still be walked on the page
        node = 0
        for index in parse_key(outcome["key"]):
            node = next(e["to"] for e in data["graph"][str(node)]["edges"] if e["i"] == index)
            assert node is not None
        assert data["graph"][str(node)]["terminal"]


CLICKS = """<script>
(async () => {
  const wait = () => new Promise((done) => setTimeout(done, 100));
  const log = [];
  const seen = () => log.push(decodeURIComponent(location.hash) + " | "
                              + document.getElementById("replay-key").textContent);
  for (const i of [0, 0, 1]) {
    document.querySelector(`#choices a.choice[data-index="${i}"]`).click();
    await wait(); seen();
  }
  document.querySelector('svg circle[data-node="NODE"]').dispatchEvent(new MouseEvent("click", {bubbles: true}));
  await wait(); seen();
  log.push(document.getElementById("choices").textContent);
  document.body.insertAdjacentHTML("beforeend", `<pre id="click-log">${log.join("\\n")}</pre>`);
})();
</script>
</body>"""


@browser
def test_browser_clicks_through_choices_and_a_drawn_state(tmp_path, ruling):
    """Real clicks, made by a script added to a copy of the page: three choices from the initial
    state, then a terminal state of the drawn graph."""
    path, data = page(tmp_path)
    _, model, graph = ruling("Q06")
    terminal = next(n for n in graph.terminals)
    clicked = tmp_path / "clicked.html"
    clicked.write_text(path.read_text(encoding="utf-8").replace("</body>", CLICKS.replace("NODE", str(terminal))),
                       encoding="utf-8")
    profile = tmp_path / "chromium-profile"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
         "--virtual-time-budget=5000", "--dump-dom", clicked.as_uri()],
        capture_output=True, text=True, timeout=90)
    logs = re.findall(r'<pre id="click-log">(.*?)</pre>', done.stdout.rsplit("</script>", 1)[-1], re.S)
    assert logs, done.stderr[-2000:]
    lines = logs[-1].replace("&amp;", "&").splitlines()
    # after choosing the shields and resolving one before-break ability, [1] is "cast no spell" (Q06)
    assert lines[:3] == ["#replay=0 | 0", "#replay=0/0 | 0/0", "#replay=0/0/1 | 0/0/1"]
    s = model.initial_state()
    for index in (0, 0):
        s = model.step(s, model.actions(s)[index])[0]
    assert model.actions(s)[1].text == "A casts no spell"
    key = graph.trace(terminal).key()
    assert lines[3] == f"#replay={key} | {key}"
    assert "terminal: outcome" in lines[4]


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
@browser
def test_browser_panels_name_the_copies_the_replayed_trace_moved(tmp_path):
    """Q05 has identical Vanilla shields: the page reached through an outcome's key shows, card copy by
    card copy, the state that `dmcheck explore --replay KEY` reaches (one naming everywhere)."""
    from dmcheck.explorer.replay import replay
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario

    q05 = str(next(p for p in RULINGS if p.name.startswith("Q05")))
    path, data = page(tmp_path, q05)
    model = BreakModel(load_scenario(q05))
    for n, outcome in enumerate(data["outcomes"][:6], 1):
        html = dom(tmp_path, path, "#replay=" + outcome["key"])
        assert f"terminal: outcome {n}:" in text_of(html, "choices")
        state = replay(model, outcome["key"]).state
        shown = text_of(html, "state")
        for cid in state.zone("B").hand + state.zone("B").shields:
            assert model.label(cid) in shown, (outcome["key"], model.label(cid))
