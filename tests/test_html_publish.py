"""An HTML page to publish (issue 38, item 6), read in headless Chromium: a summary block at the top (the
question, the answer in one sentence, the trace that shows it), state labels in the graph, outcome colours
that never repeat with a legend, a box to type a replay key, and watch expressions evaluated at every step
of a trace (like TLC's trace explorer); the same page in Japanese (`--lang ja`). Still one self-contained
file. Each test leaves a screenshot of the page it read in the test artefacts: the folder
$DMCHECK_TEST_ARTEFACTS names (.ci/run sets it), else the test's own temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import RULINGS
from test_html import CHROMIUM, browser, dom, leaf, page, run, text_of

Q05 = str(next(p for p in RULINGS if p.name.startswith("Q05")))
Q06 = str(next(p for p in RULINGS if p.name.startswith("Q06")))
Q09 = str(next(p for p in RULINGS if p.name.startswith("Q09")))


def screenshot(tmp_path: Path, path: Path, name: str, fragment: str = "") -> Path:
    """A screenshot of the page (1300 x 2600), kept among the test artefacts."""
    folder = Path(os.environ.get("DMCHECK_TEST_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{name}.png"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'shots'}",
         "--window-size=1300,2600", "--hide-scrollbars", f"--screenshot={shot}", path.as_uri() + fragment],
        capture_output=True, text=True, timeout=90)
    assert done.returncode == 0 and shot.stat().st_size > 10_000, done.stderr[-2000:]
    return shot


def summary_of(html: str) -> str:
    block = re.search(r'<section class="summary">(.*?)</section>', html, re.S)
    assert block, "no summary block"
    return block.group(1)


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).replace("&amp;", "&").strip()


# ---- the page without a browser --------------------------------------------------------------------------
def test_the_page_stays_one_self_contained_file(tmp_path):
    path, _ = page(tmp_path, Q09, "--rules", "2023-01-01")
    text = path.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', text)
    assert "<link" not in text and "@import" not in text and "{{" not in text


def test_watch_needs_html_and_a_formula_that_parses(tmp_path):
    code, _, err = run("explore", Q09, "--watch", "(> depth 0)")
    assert code == 2 and "--watch" in err and "--html" in err
    code, _, err = run("explore", Q09, "--html", str(tmp_path / "p.html"), "--watch", "(> dept 0)")
    assert code == 2 and "--watch" in err and "did you mean 'depth'" in err
    assert not (tmp_path / "p.html").exists()


# ---- in the browser ----------------------------------------------------------------------------------------
@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
@browser
def test_summary_block_answers_the_question_with_its_trace(tmp_path, ruling):
    # a ruling that fails under the old rules: the answer is no, with the counterexample
    path, data = page(tmp_path, Q09, "--rules", "2023-01-01")
    html = dom(tmp_path, path)
    block = summary_of(html)
    assert html.index('<section class="summary">') < html.index('id="outcomes"')   # at the top
    assert "Q09 The Watch" in _text(block) and "S000 Q&A 2023-10-11" in _text(block)
    failed = next(e for e in data["expectations"] if e["verdict"] == "violated")
    assert f"Answer: No: {failed['text']} does not hold — {failed['reason']}." in _text(block)
    steps = re.findall(r"<ol class=\"summary-trace\">(.*)</ol>", block, re.S)[0]
    _, model, graph = ruling("Q09", rules=__import__("datetime").date(2023, 1, 1))
    trace = next(v for v in data["expectations"] if v["verdict"] == "violated")["key"]
    assert f'href="#replay={trace}"' in block
    assert steps.count("</li>") >= len(trace.split("/"))
    assert "B skips the rest of the turn" in _text(steps)
    screenshot(tmp_path, path, "q09-old-rules-summary")
    # a ruling that holds: the answer is yes
    path, data = page(tmp_path, Q06)
    block = summary_of(dom(tmp_path, path))
    assert f"Answer: Yes: all {len(data['expectations'])} expectations of the scenario hold" in _text(block)


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
@browser
def test_states_are_labelled_and_outcome_colours_never_repeat(tmp_path):
    path, data = page(tmp_path, Q05)                     # 28 outcomes: more than the palette's ten
    html = dom(tmp_path, path)
    circles = re.findall(r'<circle class="state[^"]*" data-node="(\d+)"[^>]*fill="([^"]+)"', html)
    labels = dict(re.findall(r'<text class="label" data-node="(\d+)"[^>]*>([^<]*)</text>', html))
    assert circles and set(labels) == {n for n, _ in circles}
    for node, _ in circles:
        info = data["graph"][node]
        assert labels[node].startswith(f"#{node}")
        if info["terminal"]:
            assert labels[node] == f"#{node} → {info['outcome'] + 1}"
    colours = [o["colour"] for o in data["outcomes"]]
    assert len(colours) > 10 and len(set(colours)) == len(colours)
    legend = re.findall(r'<ul class="legend">(.*?)</ul>', html, re.S)[0]
    assert re.findall(r'background:(#[0-9a-f]{6})', legend) == colours
    for node, fill in circles:                      # a terminal state wears its outcome's colour
        info = data["graph"][node]
        if info["terminal"]:
            assert fill == colours[info["outcome"]]
    screenshot(tmp_path, path, "q05-graph-colours")


REPLAY_BOX = """<script>
(async () => {
  const wait = () => new Promise((done) => setTimeout(done, 100));
  const log = [];
  for (const key of ["KEY", "0/x"]) {
    document.getElementById("replay-input").value = key;
    document.getElementById("replay-form").requestSubmit();
    await wait();
    log.push(decodeURIComponent(location.hash) + " | " + document.getElementById("replay-key").textContent
             + " | " + document.getElementById("explorer-error").textContent);
  }
  document.body.insertAdjacentHTML("beforeend", `<pre id="box-log">${log.join("\\n")}</pre>`);
})();
</script>
</body>"""


@browser
def test_a_replay_key_typed_in_the_box_goes_there(tmp_path):
    path, data = page(tmp_path, Q06)
    key = data["outcomes"][-1]["key"]
    typed = tmp_path / "typed.html"
    typed.write_text(path.read_text(encoding="utf-8").replace("</body>", REPLAY_BOX.replace("KEY", key)),
                     encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'p'}",
         "--virtual-time-budget=5000", "--dump-dom", typed.as_uri()], capture_output=True, text=True, timeout=90)
    logs = re.findall(r'<pre id="box-log">(.*?)</pre>', done.stdout.rsplit("</script>", 1)[-1], re.S)
    assert logs, done.stderr[-2000:]
    went, refused = logs[-1].splitlines()
    assert went == f"#replay={key} | {key} | "
    assert refused.startswith(f"#replay={key} | {key} | not a replay key")   # the page stayed where it was


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
@browser
def test_watch_expressions_are_evaluated_at_every_step_of_the_path(tmp_path, ruling):
    """Each watch's value at each state of the path is what the state says (R509.4: the before-break
    effects pending; Q09 under the old rules: Boil Charger reaches the mana zone at step 3)."""
    formula = "(= (zone_of |Boil Charger|) mana)"
    path, data = page(tmp_path, Q09, "--rules", "2023-01-01", "--watch", "(> pending_total 0)",
                      "--watch", formula)
    assert [w["text"] for w in data["watches"]] == ["(> pending_total 0)", formula]
    key = next(e for e in data["expectations"] if e["verdict"] == "violated")["key"]
    html = dom(tmp_path, path, "#replay=" + key)
    table = text_of(html, "watch")
    _, model, graph = ruling("Q09", rules=__import__("datetime").date(2023, 1, 1))
    s, pending, charger = model.initial_state(), [], []
    for index in [None, *map(int, key.split("/"))]:
        if index is not None:
            s = model.step(s, model.actions(s)[index])[0]
        pending.append("yes" if s.pending else "no")
        charger.append("yes" if any(model.label(c) == "Boil Charger" for c in s.zone("A").mana) else "no")
    rows = re.findall(r"<tr><td[^>]*>([^<]*)</td>(.*?)</tr>", html.split('id="watch"', 1)[1].split("</table>", 1)[0])
    values = {text.replace("&gt;", ">"): re.findall(r">(yes|no|\?)</td>", cells) for text, cells in rows}
    assert values["(> pending_total 0)"] == pending and values[formula] == charger
    assert "no" in charger and "yes" in charger and table
    screenshot(tmp_path, path, "q09-watch", "#replay=" + key)


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
@browser
def test_the_page_in_japanese_passes_the_same_checks(tmp_path, monkeypatch):
    monkeypatch.delenv("DMCHECK_LANG", raising=False)
    path = tmp_path / "ja.html"
    code, _, err = run("--lang", "ja", "explore", Q09, "--rules", "2023-01-01", "--html", str(path))
    assert code == 1, err
    text = path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="data">(.*?)</script>', text, re.S).group(1).replace("<\\/", "</"))
    assert '<html lang="ja">' in text and data["i18n"]
    key = next(e for e in data["expectations"] if e["verdict"] == "violated")["key"]
    html = dom(tmp_path, path, "#replay=" + key)
    block = _text(summary_of(html))
    assert "まとめ" in block and "問い：" in block and "答え： いいえ：" in block
    assert "ブレイク" in block and "《芸魔王将 カクメイジン》" in block and "待機状態" in block
    assert leaf(html, "replay-key") == key
    assert "プレイヤーA" in html and "待機中の効果" in html and "手順1の後" in html      # drawn by the script
    assert "終局：" in text_of(html, "choices")
    for heading in ("結果", "状態グラフ", "エクスプローラー", "トレース（手順ごと）"):
        assert f"<h2>{heading}" in html
    screenshot(tmp_path, path, "q09-old-rules-ja", "#replay=" + key)


def test_screenshots_go_where_ci_keeps_its_artefacts():
    """CI installs the browser and a font with Japanese glyphs, and keeps the screenshots."""
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "export DMCHECK_TEST_ARTEFACTS=" in ci and "fonts-noto-cjk" in ci and "chromium" in ci
