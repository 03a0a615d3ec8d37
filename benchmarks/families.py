"""The benchmark scenarios: positions where many pending effects wait at once, built as plain data.

Why these families. Orderings of pending effects are where the state space of the break procedure
explodes: k effects that may resolve in any order give k! orders, and deduplicating states brings that
down to the 2^k sets of effects already resolved. Each family scales that one thing:

- `independent(k)`: A's attacker casts a spell before its break (R509.3); k distinct creatures of B
  ("when an opponent casts a spell: draw 1") trigger at once and resolve in any order B chooses
  (R509.4b). Draws commute, so the states are 2^k subsets plus 3 states before the spell is cast.
- `two_player(k)`: the same cast triggers T = k // 4 turn-player effects (add a shield) and N = k - T
  non-turn-player effects, S of which spawn effects: they cast a spell, which triggers A's Responder
  (it goes next, R509.4b) and, on B's first spell, B's First Spell watcher (it joins B's pool).
  Turn player first (R509.4a). This is the family of the SPIN peer (benchmarks/peer/pending.pml).
- `kakumeijin(level)`: Kakumeijin attacks with a growing hand of the Q&A spells, Kobo, B's watchers,
  Texas Storm's nested break (R603.7b) and Gushat Shield; real cards, real choices.
- `shield_check(n)`: a T-breaker breaks three of B's shields, among which T distinct Nature S-Trigger
  spells, while B holds S = n - T distinct S-Back: Nature creatures (S004, SC1-SC5). Every subset of
  declarations in which no card serves twice is a branch (SC2: an S-Back discards a Nature card that
  could also have been declared for its own S-Trigger), the declared abilities are used in any order
  (SC4), and the S-Back creatures' "enters" triggers wait until the check is over (R509.5e, R112.3a).

Cards come from the built-in pool plus benchmarks/cards/bench_cards.yaml.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import checkout  # noqa: E402

checkout.use(ROOT)   # this checkout's packages, unless the script chose another checkout first

from dmcheck.model.cards import CardPool  # noqa: E402
from dmcheck.model.scenario import PlayerSetup, Scenario  # noqa: E402

CARDS = Path(__file__).resolve().parent / "cards" / "bench_cards.yaml"
MAX_EACH = 16   # bench_cards.yaml defines 16 cards of each effect kind


def pool() -> CardPool:
    """The built-in pool plus the benchmark cards."""
    cards = CardPool.builtin()
    cards.add_file(CARDS)
    return cards


def _names(prefix: str, n: int) -> tuple[str, ...]:
    if n > MAX_EACH:
        raise ValueError(f"at most {MAX_EACH} {prefix} cards are defined in {CARDS.name}")
    return tuple(f"{prefix}_{i:02d}" for i in range(1, n + 1))


def two_player_split(k: int) -> tuple[int, int, int]:
    """(T, N, S) of two_player(k): turn-player effects, non-turn-player effects, spawners among N."""
    t = k // 4
    n = k - t
    s = max(1, n // 4) if n else 0
    return t, n, s


def expected_states(t: int, n: int, s: int) -> int:
    """The distinct states of pending_family(t, n, s), counted by hand from the rules.

    3 states before the watchers trigger (before D1; the before-break pending, R509.3; its cast
    choice). Then the turn player's effects (R509.4a): one state per subset of the T resolved, the
    last of which is where the non-turn player starts. Then, with D = N - S drawers, per subset of
    drawers resolved (2^D) and set of echoers resolved (e of S):
    - a state between resolutions: 1 if e = 0, else 2 (B's First Spell watcher pending or resolved);
    - an echoer resolving, its cast not chosen yet: e choices of which, times 1 or 2 for First
      Spell as it stood before that echoer (untriggered when e = 1);
    - the Responder pending after the cast, which goes next (R509.4b): 1 if e = 1 (First Spell has
      just triggered), else 2.
    The state with everything resolved is terminal: the shield breaks inside that step (R603.7a).
    """
    from math import comb

    d = n - s
    per_drawer_set = 1
    for e in range(1, s + 1):
        ways = comb(s, e)
        first = 1 if e == 1 else 2
        per_drawer_set += ways * (2 + e * first + first)
    return 3 + (2 ** t - 1) + 2 ** d * per_drawer_set


def pending_family(t: int, n: int, s: int, *, cards: CardPool | None = None, name: str = "") -> Scenario:
    """T turn-player effects, N non-turn-player effects (S of them spawning), all triggered at once.

    A attacks B with Bench Caster (1 shield); before the break it casts Bench Signal from hand, so
    A's `first_spell` watchers (T) and B's `opponent_cast_or_summon` watchers (N) all trigger.
    Decks are long enough that no draw runs out.
    """
    if not 0 <= s <= n:
        raise ValueError("the spawners are among the N non-turn-player effects")
    a = PlayerSetup(
        battle=("bench_caster",) + _names("bench_tp", t) + (("bench_responder",) if s else ()),
        hand=("bench_signal",),
        deck=("vanilla",) * (t + s + 5))
    b = PlayerSetup(
        battle=_names("bench_ntp", n - s) + _names("bench_echo", s) + (("bench_first",) if s else ()),
        graveyard=("bench_echo",) if s else (),
        deck=("vanilla",) * (n + 6))
    return Scenario(name=name or f"pending T={t} N={n} S={s}", turn="A", players={"A": a, "B": b},
                    attacker="bench_caster", attacker_index=0, defender="B", pool=cards or pool(),
                    source=("R509.3", "R509.4a-b", "R603.7a"))


def independent(k: int, cards: CardPool | None = None) -> Scenario:
    """k distinct, commuting non-turn-player effects: expect 2^k + 3 states."""
    return pending_family(0, k, 0, cards=cards, name=f"independent k={k}")


def two_player(k: int, cards: CardPool | None = None) -> Scenario:
    """k effects of both players, some spawning: the SPIN peer's family."""
    t, n, s = two_player_split(k)
    return pending_family(t, n, s, cards=cards, name=f"two-player k={k} (T={t} N={n} S={s})")


def watched(t: int, cards: CardPool | None = None) -> Scenario:
    """The Watch (Q09) waiting behind the turn player's effects (a reduction with a skip).

    Bench Caster's before-break cast triggers T of A's shielders (add a shield, they commute), A's
    Bench TP Echoer (it casts Bench Echo from A's graveyard: a turn-player effect that spawns) and
    B's The Watch and two drawers. A's effects go first (R509.4a); the echo's cast triggers B's
    watchers again, and B's effects, The Watch's "skip the rest of the turn" among them, wait.
    """
    a = PlayerSetup(battle=("bench_caster",) + _names("bench_tp", t) + ("bench_tp_echo",),
                    hand=("bench_signal",), graveyard=("bench_echo",), deck=("vanilla",) * (t + 5))
    b = PlayerSetup(battle=("the_watch",) + _names("bench_ntp", 2), deck=("vanilla",) * 10)
    return Scenario(name=f"watched T={t}", turn="A", players={"A": a, "B": b}, attacker="bench_caster",
                    attacker_index=0, defender="B", pool=cards or pool(), source=("Q09", "R509.4a-b"))


# Each level adds to the one before: more spells in hand for the two before-break casts, more
# watchers, then a nested break (Texas Storm, Q04/Q05) and a spell that breaks (Gushat Shield, Q10).
KAKUMEIJIN_LEVELS: tuple[dict, ...] = (
    {"hand": ["boil_charger"], "mana": 3, "what": "Boil Charger (Q02)"},
    {"hand": ["winter_spiral"], "mana": 4, "what": "+ Winter Spiral (Q06)"},
    {"hand": ["emergency_typhoon"], "what": "+ Emergency Typhoon (Q08)"},
    {"a_battle": ["kobo"], "what": "+ Kobo Magical Shocker (Q03)"},
    {"b_battle": ["bench_ntp_01", "bench_ntp_02"], "what": "+ 2 watchers of B"},
    {"hand": ["texas_storm"], "mana": 5, "shields": 3, "what": "+ Texas Storm, 3 shields (Q04/Q05)"},
    {"hand": ["gushat_shield"], "what": "+ Gushat Shield (Q10)"},
    {"b_battle": ["the_watch"], "what": "+ The Watch (Q09)"},
    {"hand": ["kankuro_blaster"], "mana": 6, "what": "+ Kankuro Blaster, mana 6 (Q07)"},
)


def kakumeijin(level: int, cards: CardPool | None = None) -> Scenario:
    """Kakumeijin (W-breaker, two before-break casts) with the first `level` additions."""
    if not 1 <= level <= len(KAKUMEIJIN_LEVELS):
        raise ValueError(f"level is 1..{len(KAKUMEIJIN_LEVELS)}")
    hand: list[str] = []
    a_battle = ["kakumeijin"]
    b_battle: list[str] = []
    mana, shields = 3, 2
    for add in KAKUMEIJIN_LEVELS[:level]:
        hand += add.get("hand", [])
        a_battle += add.get("a_battle", [])
        b_battle += add.get("b_battle", [])
        mana = add.get("mana", mana)
        shields = add.get("shields", shields)
    a = PlayerSetup(battle=tuple(a_battle), hand=tuple(hand), mana=("vanilla",) * mana)
    b = PlayerSetup(battle=tuple(b_battle), shields=("vanilla",) * shields)
    return Scenario(name=f"kakumeijin L{level}: {KAKUMEIJIN_LEVELS[level - 1]['what']}", turn="A",
                    players={"A": a, "B": b}, attacker="kakumeijin", attacker_index=0, defender="B",
                    pool=cards or pool(), source=("S000 Q&A 2023-09-15",))


def shield_check_split(n: int) -> tuple[int, int]:
    """(T, S) of shield_check(n): S-Trigger cards among B's shields, S-Back cards in B's hand."""
    t = (n + 1) // 2
    return t, n - t


def shield_check(n: int, cards: CardPool | None = None) -> Scenario:
    """A's Vanilla T-breaker attacks B: T = ceil(n/2) distinct Nature S-Trigger spells among B's shields
    (five shields, the rest Vanilla; more when T > 5) and S = floor(n/2) distinct S-Back: Nature creatures
    in B's hand. The attacker chooses which three shields break (R509.3); the shield check (S004) then
    offers every set of declarations (SC2), every order of their uses (SC4), and every order of the
    S-Back creatures' "enters" triggers afterwards (SC5, R509.4b)."""
    if n < 1:
        raise ValueError("n is at least 1")
    t, s = shield_check_split(n)
    a = PlayerSetup(battle=("vanilla_t",))
    b = PlayerSetup(shields=_names("bench_strig", t) + ("vanilla",) * max(0, 5 - t),
                    hand=_names("bench_sback", s), deck=("vanilla",) * (n + 10))
    return Scenario(name=f"shield-check n={n} (T={t} S={s})", turn="A", players={"A": a, "B": b},
                    attacker="vanilla_t", attacker_index=0, defender="B", pool=cards or pool(),
                    source=("S004", "SC1-SC5", "R509.5e", "R112.3b"))


FAMILIES = {"independent": independent, "two-player": two_player, "kakumeijin": kakumeijin,
            "shield-check": shield_check, "watched": watched}


def build(family: str, size: int, cards: CardPool | None = None) -> Scenario:
    """The scenario of `family` at `size` (k, the Kakumeijin level, or the shield-check n)."""
    return FAMILIES[family](size, cards)


def expected(family: str, size: int) -> int | None:
    """The hand count of distinct states of a family member, or None (Kakumeijin, shield check: no
    closed form)."""
    if family == "independent":
        return expected_states(0, size, 0)
    if family == "two-player":
        return expected_states(*two_player_split(size))
    return None
