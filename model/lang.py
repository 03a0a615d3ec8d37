"""The language dmcheck speaks to people: English, or Japanese in the rules' own terms (`--lang ja`).

The official rules, the official Q&A and the game's largest wiki are Japanese, so a judge or a wiki
writer reads a trace in the words of the comprehensive rules (ブレイク, 待機状態, S・トリガー,
攻撃終了ステップ, ...; the terms are taken from the comprehensive rules Ver.1.48, never its sentences).
Every Japanese string lives in one table, `data/ja.yaml`:
- `events`: each event kind's sentence, filled with its fields in Japanese (model/narrate.py);
- `actions`: a pattern per kind of choice, matching the English text the model gives an action;
- `triggers`, `replaces`, `keywords`, `zones`: the names those words have in the rules;
- `text`: every other sentence (outcome lines, verdicts, report headings, the HTML page), keyed by its
  English template, as gettext does.
Card names are those the card files give under `ja:` (the English name where a file gives none), in
《》 as the official texts write them. Messages about a file's mistakes stay in English.

The language is chosen by `--lang` or `DMCHECK_LANG` (`en` or `ja`); `choose` passes it on to worker
processes through the environment.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any

LANGS = ("en", "ja")
ENV = "DMCHECK_LANG"


def problem(lang: str) -> str:
    """What is wrong with a language name ("" when it is one dmcheck speaks)."""
    return "" if lang in LANGS else f"expected one of {', '.join(LANGS)}, got {lang!r}"


def choose(lang: str) -> None:
    """Speak `lang` from now on, in this process and the processes it starts."""
    os.environ[ENV] = lang


def current() -> str:
    lang = os.environ.get(ENV, "en").strip().lower()
    return lang if lang in LANGS else "en"


def japanese() -> bool:
    return current() == "ja"


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The Japanese table (data/ja.yaml), read once."""
    from ruamel.yaml import YAML
    text = (resources.files(__package__) / "data" / "ja.yaml").read_text(encoding="utf-8")
    return YAML(typ="safe", pure=True).load(text)


def tr(template: str, **fields: Any) -> str:
    """`template` (an English sentence with {fields}) in the current language, filled in."""
    if japanese():
        template = table()["text"].get(template, template)
    return template.format(**fields) if fields else template


def term(kind: str, word: str) -> str:
    """A rules word (`kind`: triggers, replaces, keywords, zones) in the current language."""
    if not japanese():
        return word
    return str(table()[kind].get(word, word))


def keyword(text: str) -> str:
    """A keyword as a card or an event writes it, valued ones included (`Power Attacker:+3000`,
    `S-Back:fire`, `power +2000`), in the current language."""
    if not japanese():
        return text
    words = table()["keywords"]
    if text in words:
        return str(words[text])
    head, sep, value = text.partition(":")
    if sep and head in words:
        return f"{words[head]}{value}"
    m = re.fullmatch(r"power ([+-]\d+)", text)
    if m:
        return f"パワー{m[1]}"
    return text


class Names:
    """Card labels and abilities of one card pool as the current language writes them: `Vanilla#31`
    as 《バニラ》#31, `Kakumeijin/before_break` as 《芸魔王将 カクメイジン》のブレイクする前の能力."""

    def __init__(self, pool: Any):
        self.pool = pool
        self.ja: dict[str, str] = {}
        self.abilities: dict[tuple[str, str], tuple[str, str]] = {}   # (card, id) -> (table, word)
        for pid in pool.ids():
            card = pool[pid]
            for side in (card, card.spell_side):
                if side is not None:
                    self.ja[side.name] = side.ja or side.name
            for a in card.abilities:
                self.abilities[(card.name, a.id)] = ("replaces", a.replaces) if a.replaces else ("triggers", a.trigger)

    def card(self, label: Any) -> str:
        """A card label (`Vanilla#31`) in the current language."""
        text = str(label)
        if not japanese() or not text:
            return text
        base, sep, copy = text.partition("#")
        if base not in self.ja:
            return text
        return f"《{self.ja[base]}》" + (f"#{copy}" if sep else "")

    def cards(self, labels: Any) -> str:
        """Several labels, as a list (`A, B`) or a text of them separated by `, `."""
        items = labels.split(", ") if isinstance(labels, str) else list(labels)
        return ("、" if japanese() else ", ").join(self.card(x) for x in items)

    def ability(self, label: Any) -> str:
        """`Card/ability`: a card's ability by what triggers it (a replacement by what it replaces)."""
        text = str(label)
        if not japanese():
            return text
        card, sep, ability = text.partition("/")
        if not sep:
            return keyword(text)
        kind = self.abilities.get((card, ability))
        if kind is None:      # a keyword ability (`X/G-Strike`, `X/Star Evolution`)
            return f"{self.card(card)}の{keyword(ability)}"
        words = table()[kind[0]]
        return f"{self.card(card)}の{words.get(kind[1], kind[1])}"


def action_text(text: str, names: Names) -> str:
    """An action's English text (the model's) in the current language: the first pattern of the
    table's `actions` that matches it, its named parts translated by their names' prefix (`card`,
    `cards`, `ability`, `kw`, `decls`, `zone`; others as they are)."""
    if not japanese():
        return text
    for pattern, template in _actions():
        m = pattern.fullmatch(text)
        if m:
            return template.format(**{k: _part(k, v or "", names) for k, v in m.groupdict().items()})
    return text


@lru_cache(maxsize=1)
def _actions() -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(p), t) for p, t in table()["actions"]]


_DECL = re.compile(r"(?P<kw>.+?) of (?P<card>.+?)(?: \((?P<extra>.+)\))?")


def _decls(text: str, names: Names) -> str:
    """`S-Trigger of X, S-Back of Y (discarding Z)`: declarations, each translated."""
    out = []
    for item in re.split(r"(?:, | and )(?![^()]*\))", text):
        m = _DECL.fullmatch(item)
        if m is None:
            out.append(item)
            continue
        extra = m["extra"] or ""
        side = re.fullmatch(r"its spell side, (.+)", extra)
        discard = re.fullmatch(r"discarding (.+)", extra)
        note = (tr("(its spell side, {card})", card=names.card(side[1])) if side else
                tr("(discarding {card})", card=names.card(discard[1])) if discard else "")
        out.append(f"{names.card(m['card'])}の{keyword(m['kw'])}{note}")
    return "、".join(out)


def _firsts(text: str, names: Names) -> str:
    """`, first using X's Blocker, first using Y's Guardman`: the redirecting abilities used before the last
    one (model/redirection.py), each as its card's keyword (《X》のブロッカー)."""
    return "、".join(f"{names.card(c)}の{keyword(k)}"
                    for c, k in re.findall(r", first using (.+?)'s (Blocker|Guardman)", text))


_PARTS: dict[str, Callable[[str, Names], str]] = {
    "firsts": _firsts,
    "cards": lambda v, n: n.cards(v),
    "card": lambda v, n: n.card(v),
    "ability": lambda v, n: n.ability(v),
    "kw": lambda v, n: keyword(v),
    "decls": _decls,
    "zone": lambda v, n: term("zones", v),
}


def _part(name: str, value: str, names: Names) -> str:
    for prefix in ("cards", "card", "ability", "kw", "decls", "zone", "firsts"):
        if name.startswith(prefix):
            return _PARTS[prefix](value, names)
    return value
