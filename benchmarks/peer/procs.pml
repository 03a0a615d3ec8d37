/*
 * The independent family of benchmarks/peer.py with one process per pending effect,
 * so that SPIN's own partial-order reduction has interleavings to prune, as dmcheck's has orders.
 *
 * The position (benchmarks/families.py `independent`): A's attacker chooses the shield to break
 * (D1); its before-break ability is pending (R509.3), then resolves and casts a spell; N of B's
 * watchers ("when an opponent casts a spell: draw 1") trigger at once and B resolves them in any
 * order (R509.4b); when none is left the shield breaks (R603.7a) and the attack ends.
 *
 * Here each pending effect is a process `drawer` whose only step is to report that it resolved,
 * on a channel it alone sends on (`xs`): which card it drew is the deck top, a function of how many
 * resolved before it, so nothing global is written and SPIN may treat the steps as independent.
 * The attack (init) collects the reports, then breaks the shield. Unlike pending.pml, the counts
 * are not dmcheck's: processes and channel contents add states of their own (unreduced, the
 * reports interleave with their collection). What is compared is reduced against reduced: the
 * states each tool stores and the time it takes with its own reduction.
 *
 * Size from the command line: spin -DN=12 -a procs.pml
 */

#ifndef N
#define N 4
#endif

chan done[N] = [1] of { bit };
byte phase = 0;

proctype drawer(chan d) {
  xs d;
  d!1                   /* B resolves this watcher's "draw 1" */
}

init {
  byte i = 0;
  d_step { phase = 1 };     /* D1: the shield is chosen; the before-break ability triggers */
  d_step { phase = 2 };     /* R509.4: it resolves first: the choice of the spell to cast */
  atomic {                  /* the cast: every watcher triggers at once */
    phase = 3;
    do
    :: i < N -> run drawer(done[i]); i++
    :: else -> break
    od;
    i = 0
  };
  do
  :: i < N -> done[i]?_; i++
  :: else -> break
  od;
  phase = 4                 /* R603.7a: nothing pending, the shield breaks; the attack ends */
}
