/**
 * The messages between the gateway's thread (pglite-thread.ts) and the thread that holds PGlite
 * (pglite-thread-worker.mjs, plain JavaScript that follows these types).
 */

export interface ThreadOptions {
  /** A directory, or `memory://`. */
  dir: string;
  /** PostgreSQL's shared_buffers (PGLITE_SHARED_BUFFERS). */
  sharedBuffers?: string;
  /** A new cluster starts as a copy of this file (pglite-store.mjs `openPglite`). */
  snapshot?: string;
  /** Log statements slower than this (ms; SLOW_STATEMENT_MS). */
  slowStatementMs?: number;
  /** The console's statements run in a row while background work waits (default: pglite-turns.ts FOREGROUND_RUN). */
  foregroundRun?: number;
  /** Background work waits this long after a console's statement (default: pglite-turns.ts FOREGROUND_GRACE_MS). */
  foregroundGraceMs?: number;
  /** While held, background work starts a statement at most once in this many ms (default: pglite-turns.ts FOREGROUND_HOLD_MS). */
  foregroundHoldMs?: number;
}

/**
 * `tx`: run inside that open transaction (the number its 'begin' was answered with). `background`:
 * background work's (pglite-turns.ts `inBackground`), which waits behind the console's.
 */
export type Request =
  | {
      id: number;
      op: 'query';
      tx?: number;
      background?: boolean;
      sql: string;
      params?: unknown[];
      rowMode?: 'array' | 'object';
      /** Types whose values stay text (the caller's parsers were all "keep as text"). */
      textTypes: number[];
      blob?: Blob;
      /**
       * Outside a transaction: run this statement first, and both in a transaction of their own
       * (db/statement-settings.ts: settings for this statement only).
       */
      first?: { sql: string; params: unknown[] };
    }
  | { id: number; op: 'exec'; tx?: number; sql: string; background?: boolean }
  | { id: number; op: 'begin'; background?: boolean }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; sub: number }
  | { id: number; op: 'close' }
  /** Writes the whole cluster to `file` (pglite-store.mjs `saveSnapshot`). */
  | { id: number; op: 'snapshot'; file: string }
  /** The console's requests run (true) or none does (false): background work waits while held. No answer. */
  | { op: 'hold'; held: boolean };

/** A request's answer, a notification for a subscription, or the thread's first word. */
export type Reply =
  | { id: number; ok: true; result?: unknown }
  | { id: number; ok: false; error: ErrorFields }
  | { notify: number; payload: string }
  | { ready: true };

/** An error as it crosses threads: its message and name, and PostgreSQL's fields (code, constraint, ...). */
export type ErrorFields = Record<string, string | number | undefined> & { message: string; name: string };

/** The error again, on this side: an Error with the same message, name and fields. */
export function fromFields(fields: ErrorFields): Error {
  const error = new Error(fields.message);
  for (const [key, value] of Object.entries(fields)) {
    if (key !== 'message') Reflect.set(error, key, value);
  }
  return error;
}
