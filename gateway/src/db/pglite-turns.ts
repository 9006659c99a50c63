import type { PGlite } from '@electric-sql/pglite';

/** Resolves in the check phase of the event loop's next turn, after its I/O. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Makes every statement of embedded PGlite wait for a turn of the event loop before it runs.
 *
 * PGlite runs each statement synchronously on the main thread and hands the result back in a
 * promise, so a request's statements follow one another in microtasks: without a yield, every
 * request started in one turn of the loop ran all its statements before the loop could read a
 * socket or accept a connection (and Node accepts one new connection per turn of the loop). Under
 * 200 connections a turn lasted hundreds of milliseconds and a new connection waited seconds to be
 * accepted (bench/fairness.ts). With this, a turn runs at most one statement per request in
 * progress (admission control bounds those, lib/admission.ts); statements keep their order, since
 * `setImmediate` callbacks run first in, first out.
 *
 * Applies to `query`, `exec` and `transaction` (a transaction waits once, then holds PGlite until
 * it ends, as before); the statements inside a transaction run without yielding.
 */
export function takeTurns(client: PGlite): PGlite {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = async (...args: Parameters<typeof query>) => {
    await nextTurn();
    return query(...args);
  };
  client.exec = async (...args: Parameters<typeof exec>) => {
    await nextTurn();
    return exec(...args);
  };
  client.transaction = async <T>(callback: Parameters<typeof transaction<T>>[0]) => {
    await nextTurn();
    return transaction<T>(callback);
  };
  return client;
}
