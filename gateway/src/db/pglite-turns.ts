import type { PGlite } from '@electric-sql/pglite';

/**
 * Makes embedded PGlite run one statement per turn of the event loop, in order of arrival.
 *
 * PGlite runs each statement synchronously on the main thread and hands the result back in a
 * promise, so a request's statements followed one another in microtasks: every request started in
 * one turn of the loop ran all its statements before the loop could read a socket or accept a
 * connection, and Node accepts one new connection per turn. Under 200 connections a turn lasted
 * hundreds of milliseconds and a new connection waited seconds to be accepted (bench/fairness.ts).
 * Here each statement waits for its turn (a `setImmediate` after the previous statement ended), so a
 * turn of the loop holds at most one statement, whoever issued it: sockets are read and connections
 * accepted between any two statements.
 *
 * Applies to `query`, `exec` and `transaction`: a transaction takes one turn and keeps it until it
 * ends (its own statements run on `tx`, as PGlite requires anyway: a statement on the client inside
 * a transaction waits for the transaction, which waits for it).
 */
export function takeTurns(client: PGlite): PGlite {
  const waiting: (() => void)[] = [];
  let head = 0;
  /** A statement runs, or the next one is scheduled. */
  let busy = false;

  const next = () => {
    const start = waiting[head];
    if (start === undefined) {
      busy = false;
      return;
    }
    waiting[head] = noop;
    head += 1;
    if (head === waiting.length) {
      waiting.length = 0;
      head = 0;
    }
    start();
  };
  const schedule = () => {
    busy = true;
    setImmediate(next);
  };
  const turn = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!busy) schedule();
    });
  const ended = () => {
    if (head < waiting.length) schedule();
    else busy = false;
  };

  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = async (...args: Parameters<typeof query>) => {
    await turn();
    try {
      return await query(...args);
    } finally {
      ended();
    }
  };
  client.exec = async (...args: Parameters<typeof exec>) => {
    await turn();
    try {
      return await exec(...args);
    } finally {
      ended();
    }
  };
  client.transaction = async <T>(callback: Parameters<typeof transaction<T>>[0]) => {
    await turn();
    try {
      return await transaction<T>(callback);
    } finally {
      ended();
    }
  };
  return client;
}

const noop = () => undefined;
