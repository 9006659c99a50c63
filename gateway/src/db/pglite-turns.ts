import { AsyncLocalStorage } from 'node:async_hooks';
import type { EmbeddedPglite } from './embedded-pglite';

/** Set while background work runs (jobs/runner.ts runs every job handler in it). */
const background = new AsyncLocalStorage<true>();

/** Runs `fn` as background work: on embedded PGlite its statements give way to the console's requests. */
export function inBackground<T>(fn: () => T): T {
  return background.run(true, fn);
}

/** Whether the statement being made now is background work's. */
export function isBackground(): boolean {
  return background.getStore() === true;
}

/**
 * How many statements of requests may run in a row while background work waits: the console comes
 * first, and background work still gets one turn in this many.
 */
export const FOREGROUND_RUN = 4;

/**
 * After a request's statement, background work waits this long (ms) before its next statement unless
 * another request's statement comes first: a request's statements follow one another with a little of
 * the gateway's work between them, and without the wait a send's statement would take each of those
 * gaps, and the request's next statement would wait for it (bench/campaign-send.ts, the grid's p95).
 */
export const FOREGROUND_GRACE_MS = 2;

/**
 * While the console's requests run (lib/admission.ts: from a request's turn to its answer), background
 * work starts nothing new on PGlite's thread, but still one statement in this many ms: the grace
 * above can end before a busy gateway thread makes a request's next statement, which would then wait
 * for a send's commit (bench/campaign-send.ts, the grid's p95). Only on PGlite's own thread
 * (pglite-thread.ts `holdBackground`).
 */
export const FOREGROUND_HOLD_MS = 20;

/** Waiting statements in order of arrival. */
class Line {
  private items: (() => void)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(start: () => void): void {
    this.items.push(start);
  }

  shift(): (() => void) | undefined {
    const start = this.items[this.head];
    if (start === undefined) return undefined;
    this.items[this.head] = noop;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    }
    return start;
  }
}

/**
 * Makes embedded PGlite in the gateway's thread (PGLITE_THREAD=main) run one statement per turn of
 * the event loop: the console's requests first, each line in order of arrival. On PGlite's own thread
 * (the default) the thread chooses in the same order, with the same numbers (pglite-thread-worker.mjs).
 *
 * PGlite in the gateway's thread (PGLITE_THREAD=main) runs each statement synchronously and hands
 * the result back in a promise, so without turns a request's statements follow one another in
 * microtasks: every request started in one turn of the loop runs all its statements before the loop can
 * read a socket or accept a connection, and Node accepts one new connection per turn. Under a flood of
 * connections a turn then lasts hundreds of milliseconds and a new connection waits seconds to be
 * accepted (bench/README.md, "Admission control").
 * Here each statement waits for its turn (a `setImmediate` after the previous statement ended), so a
 * turn of the loop holds at most one statement, whoever issued it: sockets are read and connections
 * accepted between any two statements.
 *
 * Background work (`inBackground`: imports, campaign sends) waits behind the requests' statements,
 * up to FOREGROUND_RUN of them in a row: a page read while a campaign sends waits for the one send
 * statement that runs, not for every one queued before it (bench/campaign-send.ts, the grid's p95).
 * After a request's statement it also waits FOREGROUND_GRACE_MS for that request's next one.
 *
 * With PGlite on its own thread (db/pglite-thread.ts, the default) a statement does not hold up the
 * event loop, and that thread orders the statements itself, by the same rule and numbers
 * (pglite-thread-worker.mjs): these turns are for PGlite in the gateway's thread only.
 *
 * Applies to `query`, `exec` and `transaction`: a transaction takes one turn and keeps it until it
 * ends (its own statements run on `tx`, as PGlite requires anyway: a statement on the client inside
 * a transaction waits for the transaction, which waits for it).
 */
export function takeTurns<C extends EmbeddedPglite>(client: C): C {
  const foreground = new Line();
  const behind = new Line();
  /** Requests' statements run since background work last had a turn (while it waited). */
  let run = 0;
  /** A statement runs, or the next one is scheduled. */
  let busy = false;
  /** When a request's statement last ended. */
  let foregroundEndedAt = -Infinity;
  /** Background work waits out FOREGROUND_GRACE_MS (a request's statement ends it at once). */
  let grace: NodeJS.Timeout | null = null;

  const next = () => {
    grace = null;
    const wait = FOREGROUND_GRACE_MS - (performance.now() - foregroundEndedAt);
    if (foreground.length === 0 && behind.length > 0 && wait > 0) {
      grace = setTimeout(next, wait);
      return;
    }
    const useBackground = behind.length > 0 && (foreground.length === 0 || run >= FOREGROUND_RUN);
    const start = useBackground ? behind.shift() : foreground.shift();
    if (start === undefined) {
      busy = false;
      return;
    }
    run = useBackground || behind.length === 0 ? 0 : run + 1;
    start();
  };
  const schedule = () => {
    busy = true;
    setImmediate(next);
  };
  const turn = () =>
    new Promise<void>((resolve) => {
      const inForeground = !isBackground();
      (inForeground ? foreground : behind).push(resolve);
      if (inForeground && grace) {
        clearTimeout(grace);
        schedule();
      } else if (!busy) schedule();
    });
  const ended = (inForeground: boolean) => {
    if (inForeground) foregroundEndedAt = performance.now();
    if (foreground.length > 0 || behind.length > 0) schedule();
    else busy = false;
  };

  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = async (...args: Parameters<typeof query>) => {
    const inForeground = !isBackground();
    await turn();
    try {
      return await query(...args);
    } finally {
      ended(inForeground);
    }
  };
  client.exec = async (...args: Parameters<typeof exec>) => {
    const inForeground = !isBackground();
    await turn();
    try {
      return await exec(...args);
    } finally {
      ended(inForeground);
    }
  };
  client.transaction = async <T>(callback: Parameters<typeof transaction<T>>[0]) => {
    const inForeground = !isBackground();
    await turn();
    try {
      return await transaction<T>(callback);
    } finally {
      ended(inForeground);
    }
  };
  return client;
}

const noop = () => undefined;
