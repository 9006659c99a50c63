/**
 * How a batch commit (campaigns/sender/group-commit.ts) gathers its rows on this storage engine.
 *
 * Embedded PGlite runs in this process, one statement at a time, and a commit costs its thread a
 * fixed price per statement plus a little per row: a commit waits until half the connections' rows
 * have come or a few milliseconds have passed, and takes at most PGLITE_COMMIT_MAX rows so that the
 * console's reads never wait long behind it. A PostgreSQL server commits in its own processes: the
 * next commit starts as soon as the previous one ends (null: no gathering).
 */
import type { Database } from './database';
import { isPglite } from './engine';

/** Embedded PGlite: the longest a row waits for others to share its commit (ms). */
const PGLITE_GATHER_MS = 5;
/** Embedded PGlite: the most rows one commit takes (the others wait for the next). */
const PGLITE_COMMIT_MAX = 64;

export interface Gathering {
  /** Commit once this many rows wait... */
  enough: number;
  /** ...or once the first has waited this long (ms). */
  waitMs: number;
  /** At most this many rows per commit. */
  most: number;
}

/** The gathering of a batch commit fed by `slots` concurrent producers (SMTP connections). */
export function groupCommitGathering(db: Database, slots: number): Gathering | null {
  if (!isPglite(db)) return null;
  return { enough: Math.ceil(slots / 2), waitMs: PGLITE_GATHER_MS, most: PGLITE_COMMIT_MAX };
}
