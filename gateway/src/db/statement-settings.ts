/**
 * Planner settings for single statements on embedded PGlite (storage.ts: index order, no
 * sequential scans). PostgreSQL has no setting of one statement, so each statement made inside
 * `withStatementSettings` runs in a transaction of its own that first sets them for that transaction
 * only (`set_config(name, value, true)`).
 *
 * On PGlite's thread (db/pglite-thread.ts) that transaction is run by the thread, one request there and
 * back, not as a transaction of four (BEGIN, the settings, the read, COMMIT) each waiting for a turn
 * of the gateway's busy event loop while PGlite holds its one connection and does nothing
 * (bench/README.md, "PGlite's statement settings in one request"). In the gateway's thread (PGLITE_THREAD=main)
 * `honourStatementSettings` wraps the client the same way.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EmbeddedPglite } from './embedded-pglite';

/** Settings as `[name, value]` pairs. */
export type StatementSettings = readonly (readonly [string, string])[];

const current = new AsyncLocalStorage<StatementSettings>();

/** Runs `fn`; each PGlite statement it makes outside a transaction runs with `settings`. */
export function withStatementSettings<T>(settings: StatementSettings, fn: () => T): T {
  return current.run(settings, fn);
}

/** The settings of the statement being made now, if any. */
export function statementSettings(): StatementSettings | undefined {
  return current.getStore();
}

/** The statement that sets `settings` for the transaction it runs in, and only for it. */
export function settingsStatement(settings: StatementSettings): { sql: string; params: string[] } {
  const calls = settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`);
  return { sql: `select ${calls.join(', ')}`, params: settings.flat() };
}

/**
 * PGlite in the gateway's thread: its `query` runs a statement made inside `withStatementSettings` in
 * a transaction of its own with those settings. Applied before `takeTurns`, so that the statement and
 * its transaction take one turn.
 */
export function honourStatementSettings<C extends EmbeddedPglite>(client: C): C {
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (sql: string, params?: unknown[], options?: Parameters<typeof query>[2]) => {
    const settings = statementSettings();
    if (!settings) return query(sql, params, options);
    const first = settingsStatement(settings);
    return transaction(async (tx) => {
      await tx.query(first.sql, first.params);
      return tx.query(sql, params, options);
    });
  }) as C['query'];
  return client;
}
