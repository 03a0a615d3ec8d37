/*
 * The pending-effect benchmark family of benchmarks/peer.py, written independently of dmcheck so that
 * SPIN can count its states and the two counts can be compared.
 *
 * The position (cards in benchmarks/cards/bench_cards.yaml): A's attacker breaks one of B's shields;
 * before the break (R509.3) its ability casts a spell, and that cast triggers at once
 *   T  turn-player effects     (A's "first spell each turn" watchers: add a shield),
 *   N  non-turn-player effects (B's "opponent casts a spell" watchers: draw 1),
 *   S  of them spawning        (B's watchers that cast Bench Echo; each such cast triggers A's
 *                               Responder, a turn-player effect, and B's first cast of the turn also
 *                               triggers B's First Spell watcher, a non-turn-player effect).
 * Effects resolve turn player first (R509.4a); while the non-turn player's resolve, a turn-player
 * effect that triggers goes next (R509.4b). When none is left the chosen shield breaks (R603.7a)
 * and the attack ends (D7).
 *
 * What a state is. dmcheck's explorer stores one state per decision point: `step` runs everything
 * automatic until somebody has to choose. So every action here is one d_step (SPIN stores no state
 * inside it) and the process always waits at the loop head: one SPIN state per dmcheck state.
 * The echoer's cast is a decision in dmcheck even with a single spell to cast (a running effect that
 * waits for a choice), so it is a separate action here too (`running`).
 * The variables are what distinguishes two dmcheck states in this family: which effects are pending
 * (with multiplicity) and how often each resolved (dmcheck's `uses`). Zone contents are functions of
 * these (a card drawn is always the deck top); they are kept as counters for readability only.
 *
 * Sizes come from the command line: spin -DT=3 -DN=8 -DS=3 -a pending.pml (N counts the echoers).
 */

#ifndef T
#define T 2
#endif
#ifndef N
#define N 4
#endif
#ifndef S
#define S 1
#endif

#define MAXE 40                 /* effect slots in the arrays; the generated sizes stay below */
#define DRAWERS (N - S)
#define RESP (T + N)            /* A's Responder */
#define FIRST (T + N + 1)       /* B's First Spell watcher */
#define E (T + N + 2)

#define IS_TP(i)     ((i) < T || (i) == RESP)
#define IS_ECHO(i)   ((i) >= T + DRAWERS && (i) < T + N)

/* phases of the direct attack step */
#define BEFORE_D1   0   /* the shields are not chosen yet */
#define BB_PENDING  1   /* the attacker's before-break effect is pending (R509.3) */
#define BB_CASTING  2   /* it resolves: the choice of the spell to cast */
#define POOL        3   /* the other pending effects resolve (R603.7a) */
#define OVER        4   /* the shield broke, the attack ended */

byte phase = BEFORE_D1;
byte pend[MAXE];        /* pending copies of each effect */
byte used[MAXE];        /* times each effect resolved (dmcheck's `uses`) */
byte running = 0;       /* 1 + index of the echoer waiting to cast Bench Echo, or 0 */
byte bcast = 0;         /* spells B cast this turn */
/* derived counters: functions of the variables above, so they never split a state */
byte tpPend = 0;        /* pending turn-player effects */
byte allPend = 0;       /* pending effects */
byte aShields = 0;      /* shields A added; A's and B's cards drawn */
byte aHand = 0;
byte bHand = 0;

/* the automatic procedure after a step: with nothing pending and nothing running, break and end.
 * At the end every triggered effect resolved once: each initial one, the Responder once per echo,
 * the First Spell watcher once if B cast anything. */
inline settle() {
  if
  :: phase == POOL && running == 0 && allPend == 0 ->
       phase = OVER;
       assert(tpPend == 0 && used[RESP] == S && bcast == S && used[FIRST] == (S > 0));
       i = 0;
       do
       :: i < T + N -> assert(pend[i] == 0 && used[i] == 1); i++
       :: else -> break
       od;
       i = 0
  :: else -> skip
  fi
}

/* resolve pending effect i; R509.4a-b: a non-turn-player effect only when no turn-player one waits */
#define RESOLVE(i) \
  :: d_step { ((i) < E && phase == POOL && running == 0 && pend[i] > 0 && (IS_TP(i) || tpPend == 0)) -> \
       pend[i]--; used[i]++; allPend--; \
       if \
       :: IS_TP(i) -> tpPend-- \
       :: else -> skip \
       fi; \
       if \
       :: (i) < T -> aShields++ \
       :: (i) == RESP -> aHand++ \
       :: IS_ECHO(i) -> running = (i) + 1 \
       :: else -> bHand++ \
       fi; \
       settle() }

active proctype attack()
{
  byte i;
  /* globals start at 0: the initial state, before D1 */
end:
  do
  /* D1: A chooses the shield to break; the before-break ability triggers (R509.3) */
  :: d_step { phase == BEFORE_D1 -> phase = BB_PENDING }
  /* R509.4: the before-break effect resolves before anything else */
  :: d_step { phase == BB_PENDING -> phase = BB_CASTING }
  /* it casts Bench Signal: every watcher triggers at once */
  :: d_step { phase == BB_CASTING ->
       i = 0;
       do
       :: i < T + N -> pend[i] = 1; i++
       :: else -> break
       od;
       i = 0;
       tpPend = T; allPend = T + N; phase = POOL;
       settle() }
  /* an echoer's effect: B casts Bench Echo from the graveyard */
  :: d_step { running > 0 ->
       running = 0; bcast++;
       pend[RESP]++; tpPend++; allPend++;          /* R509.4b: A's Responder goes next */
       if
       :: bcast == 1 -> pend[FIRST]++; allPend++  /* B's first spell of the turn */
       :: else -> skip
       fi }
  RESOLVE(0)  RESOLVE(1)  RESOLVE(2)  RESOLVE(3)  RESOLVE(4)  RESOLVE(5)  RESOLVE(6)  RESOLVE(7)
  RESOLVE(8)  RESOLVE(9)  RESOLVE(10) RESOLVE(11) RESOLVE(12) RESOLVE(13) RESOLVE(14) RESOLVE(15)
  RESOLVE(16) RESOLVE(17) RESOLVE(18) RESOLVE(19) RESOLVE(20) RESOLVE(21) RESOLVE(22) RESOLVE(23)
  RESOLVE(24) RESOLVE(25) RESOLVE(26) RESOLVE(27) RESOLVE(28) RESOLVE(29) RESOLVE(30) RESOLVE(31)
  RESOLVE(32) RESOLVE(33) RESOLVE(34) RESOLVE(35) RESOLVE(36) RESOLVE(37)
  od
}
