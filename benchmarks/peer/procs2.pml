/*
 * The two-player family of benchmarks/peer.py with one process per pending effect,
 * so that SPIN's own partial-order reduction has interleavings to prune, as dmcheck's has orders.
 * pending.pml is the same family as one process (its counts are dmcheck's); this one is not.
 *
 * The position (benchmarks/families.py `two_player`): A's attacker chooses the shield to break (D1);
 * its before-break ability is pending (R509.3), then resolves and casts a spell, which triggers at once
 *   T  of A's shielders (turn player: add a shield),
 *   D = N - S of B's drawers (draw 1) and S of B's echoers (cast Bench Echo from the graveyard).
 * An echo's cast triggers A's Responder (draw 1), which goes next (R509.4b), and on B's first spell of
 * the turn B's First Spell watcher (draw 1), which joins B's pool. Turn player first (R509.4a); when
 * nothing is pending the shield breaks (R603.7a) and the attack ends.
 *
 * How the rules become processes, and why SPIN may still prune:
 * - A drawing or shielding effect is a process whose only step reports, on a channel it alone sends
 *   on (`xs`), that it resolved. The card it moves is the deck top, a function of how many resolved
 *   before it, so nothing global is written and its step is independent of the others'.
 * - R509.4a: B's effects are pending from the cast, but none may resolve while one of A's waits, so
 *   the attack (init) starts B's processes only once it has collected every shielder's report: a
 *   process stands for a pending effect that may resolve now.
 * - An echoer resolves in one atomic sequence: it counts B's spell (`bcast`, global: the echoers
 *   depend on each other through "first spell of the turn"), starts the First Spell watcher on the
 *   first one (it joins B's pool), starts a Responder process and hands it control by rendezvous
 *   (R509.4b: it goes next, before any other effect of B; the hand-over keeps the sequence atomic).
 * - The attack collects the reports in a fixed order, then breaks the shield and checks that every
 *   effect resolved exactly once (the Responder once per echo, First Spell once if B cast anything).
 *
 * Checking it against dmcheck: compiled with -DHISTORY, every resolution also appends its effect's
 * number (the numbering of pending.pml) to a ghost sequence, which the end prints (pan -DPRINTF); the
 * distinct sequences printed by an unreduced search are the legal orders, to be compared with the
 * complete orders in dmcheck's state graph (benchmarks/peer.py `check_orders`). Without HISTORY
 * nothing global is written outside the echoers' sequences.
 *
 * Sizes from the command line: spin -DT=3 -DN=9 -DS=2 -a procs2.pml (N counts the echoers).
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

#define D (N - S)               /* B's drawers; effects T .. T+D-1, then the echoers */
#define RESP (T + N)            /* A's Responder */
#define FIRST (T + N + 1)       /* B's First Spell watcher */

chan aDone[T + 1] = [1] of { bit };   /* one more than needed: Promela has no empty arrays */
chan bDone[N + 1] = [1] of { bit };
chan firstDone = [1] of { bit };
byte phase = 0;                       /* 0 before D1 .. 4 the shield broke */
byte bcast = 0;                       /* spells B cast this turn */
byte aDrew = 0;                       /* cards A's Responders drew */

#ifdef HISTORY
byte hist[T + N + S + 2];
byte hlen = 0;
#define RESOLVED(id) hist[hlen] = (id); hlen++
#define REPORT(id, d) atomic { RESOLVED(id); d!1 }
#else
#define RESOLVED(id) skip
#define REPORT(id, d) d!1
#endif

/* a choice-free effect (a shielder, a drawer, the First Spell watcher): resolve, that is report */
proctype effect(chan d; byte id) {
  xs d;
  REPORT(id, d)
}

/* A's Responder, started by an echo's cast; the echoer hands it control at once (R509.4b) */
proctype responder(chan go) {
  atomic { go?_ -> RESOLVED(RESP); aDrew++ }
}

/* one of B's echoers: cast Bench Echo; the Responder goes next; First Spell joins on B's first spell */
proctype echoer(chan d; byte id) {
  chan go = [0] of { bit };
  xs d;
  atomic {
    RESOLVED(id);
    bcast++;
    if
    :: bcast == 1 -> run effect(firstDone, FIRST)
    :: else -> skip
    fi;
    d!1;
    run responder(go);
    go!1
  }
}

init {
  byte i = 0;
  byte shields = 0;        /* what the attack collected: A's shields added, B's effects resolved */
  byte bResolved = 0;
  d_step { phase = 1 };    /* D1: the shield is chosen; the before-break ability triggers (R509.3) */
  d_step { phase = 2 };    /* it resolves first: the choice of the spell to cast */
  atomic {                 /* the cast: A's shielders trigger (B's effects too: started below) */
    phase = 3;
    do
    :: i < T -> run effect(aDone[i], i); i++
    :: else -> break
    od;
    i = 0
  };
  do                       /* R509.4a: A's effects resolve first */
  :: i < T -> aDone[i]?_; shields++; i++
  :: else -> break
  od;
  atomic {                 /* then B's may: one process each */
    i = 0;
    do
    :: i < D -> run effect(bDone[i], T + i); i++
    :: i >= D && i < N -> run echoer(bDone[i], T + i); i++
    :: else -> break
    od;
    i = 0
  };
  do
  :: i < N -> bDone[i]?_; bResolved++; i++
  :: else -> break
  od;
  if
  :: S > 0 -> firstDone?_; bResolved++
  :: else -> skip
  fi;
  d_step {                 /* R603.7a: nothing pending, the shield breaks; the attack ends */
    phase = 4;
    assert(shields == T && bResolved == N + (S > 0) && bcast == S && aDrew == S);
#ifdef HISTORY
    printf("END shields=%d aDrew=%d bResolved=%d bcast=%d order", shields, aDrew, bResolved, bcast);
    i = 0;
    do
    :: i < hlen -> printf(" %d", hist[i]); i++
    :: else -> break
    od;
    printf("\n");
#endif
    i = 0
  }
}
