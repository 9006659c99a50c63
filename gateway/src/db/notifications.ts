/**
 * LISTEN for a channel of the database a `Database` object talks to, the same way on both backends:
 * PGlite delivers NOTIFY in its own process; on a PostgreSQL server one dedicated connection listens
 * (a pooled one would be handed to other queries) and reconnects after a loss. `onState(false)` says
 * notifications may have been missed (connection lost), `onState(true)` that they flow again.
 */
import type { EmbeddedPglite } from './embedded-pglite';
import pg from 'pg';
import type { Database } from './database';

export interface Listener {
  onMessage(payload: string): void;
  onState(listening: boolean): void;
}

type Subscribe = (channel: string, listener: Listener) => Promise<() => Promise<void>>;

const subscribers = new WeakMap<Database, Subscribe>();
const active = new WeakMap<Database, Set<() => Promise<void>>>();

/** Called by openDatabase: how this database's notifications are received. */
export function registerNotifications(db: Database, subscribe: Subscribe): void {
  subscribers.set(db, subscribe);
}

/** Subscribes to a channel; resolves once listening, to a function that stops. */
export async function listen(db: Database, channel: string, listener: Listener): Promise<() => Promise<void>> {
  const subscribe = subscribers.get(db);
  if (!subscribe) throw new Error('this database does not deliver notifications');
  const stop = await subscribe(channel, listener);
  const stops = active.get(db) ?? new Set();
  active.set(db, stops);
  stops.add(stop);
  return async () => {
    stops.delete(stop);
    await stop();
  };
}

/** Stops every subscription on a database (before it is closed). */
export async function stopListening(db: Database): Promise<void> {
  const stops = [...(active.get(db) ?? [])];
  active.delete(db);
  await Promise.all(stops.map((stop) => stop()));
}

export function pgliteSubscribe(client: EmbeddedPglite): Subscribe {
  return async (channel, listener) => {
    const stop = await client.listen(channel, (payload) => listener.onMessage(payload));
    listener.onState(true);
    return async () => {
      listener.onState(false);
      await stop();
    };
  };
}

const RECONNECT_MS = 1000;

export function postgresSubscribe(connectionString: string, onError: (error: Error) => void): Subscribe {
  return async (channel, listener) => {
    let stopped = false;
    let client: pg.Client | null = null;
    let retry: NodeJS.Timeout | null = null;
    const connect = async (): Promise<void> => {
      const c = new pg.Client({ connectionString });
      client = c;
      c.on('notification', (n) => {
        if (n.channel === channel) listener.onMessage(n.payload ?? '');
      });
      c.on('error', (error) => {
        onError(error);
        lost(c);
      });
      c.on('end', () => lost(c));
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listener.onState(true);
    };
    const lost = (c: pg.Client) => {
      if (client !== c) return;
      client = null;
      listener.onState(false);
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = null;
        if (!stopped) connect().catch((error: Error) => (onError(error), client && lost(client)));
      }, RECONNECT_MS);
      retry.unref();
    };
    await connect();
    return async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      listener.onState(false);
      await c?.end().catch(() => undefined);
    };
  };
}
