/**
 * A transaction on a PostgreSQL server whose result is handed out the moment its COMMIT is written to
 * the server's socket, before the server answers it (campaigns/sender: exactly once).
 *
 * Why: the sender ends a message's data only once its row is committed 'sent'. A process killed after
 * the server committed but before it ended the data loses that message (the row says 'sent'). Waiting
 * for COMMIT's answer made that window as long as the event loop took to read the answer (messages
 * are built between turns): a kill test lost a message in about one run in five. Once COMMIT is in the
 * socket, the server runs it whether or not this process lives on (it reads what it was sent before it
 * notices the end of the connection), so the data can be ended at once: the window shrinks to the few
 * microtasks that write the ends.
 *
 * The cost: a COMMIT that then fails (the server's connection lost at that instant) leaves messages
 * ended whose rows were not committed; the run stops with the error and those rows, still 'sending',
 * are queued again after the job heartbeat (sent twice). A transaction that fails before COMMIT is
 * rolled back and hands nothing out.
 *
 * node-postgres writes a query at once when its connection is idle (`_pulseQueryQueue`), which it is
 * after the transaction's last statement answered.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database } from '../../db/index';

/** A Drizzle database over one pooled connection, made once per connection. */
const onConnection = new WeakMap<pg.PoolClient, Database>();

export async function transactionCommittedOnWire<T>(
  db: Database,
  fn: (tx: Database) => Promise<T>,
  onCommitSent: (value: T) => void,
): Promise<T> {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  let tx = onConnection.get(client);
  if (!tx) {
    tx = drizzle(client) as unknown as Database;
    onConnection.set(client, tx);
  }
  let value: T;
  try {
    await client.query('begin');
    value = await fn(tx);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    client.release();
    throw error;
  }
  const committed = client.query('commit');
  onCommitSent(value); // hands results out (resolves promises): never throws
  try {
    await committed;
  } catch (error) {
    client.release(error instanceof Error ? error : true); // a connection that failed is not reused
    throw error;
  }
  client.release();
  return value;
}
