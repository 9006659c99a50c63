/**
 * Idempotency-Key (docs/transactional.md, "Idempotency"; as Stripe's): the first request with a key
 * inserts the key's row (the primary key makes concurrent duplicates wait for that insert, never a
 * read-then-write), does its work and stores its answer in the statement that writes the messages (accept.ts). A later
 * request with the key and the same body gets that answer; with another body, 409. A request that
 * failed leaves no key (it may be sent again, corrected). Keys expire after a day.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { conflict, HttpError } from '../errors';
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';

export const KEY_TTL_HOURS = 24;
export const KEY_REUSED = 'This Idempotency-Key was used with a different request. Use a new key for a new request.';
export const KEY_IN_FLIGHT = 'A request with this Idempotency-Key is still being processed. Try again shortly.';
/** How long a duplicate waits for the first request's answer, and how often it looks. */
const WAIT_MS = 10_000;
const LOOK_EVERY_MS = 25;

export interface Answered {
  status: number;
  body: unknown;
}

const live = sql`created_at > now() - make_interval(hours => ${KEY_TTL_HOURS})`;

/** Took the key (null: go on and answer with `storeAnswer`), or the first request's answer. */
export async function takeKey(db: Database, tenantId: string, key: string, hash: string): Promise<Answered | null> {
  for (let tries = 0; ; tries++) {
    // An expired key is free again.
    await db.execute(
      sql`delete from transactional_idempotency where tenant_id = ${tenantId}::uuid and key = ${key} and not (${live})`,
    );
    const taken = await queryRows(
      db,
      sql`insert into transactional_idempotency (tenant_id, key, request_hash) values (${tenantId}::uuid, ${key}, ${hash})
          on conflict (tenant_id, key) do nothing returning 1`,
    );
    if (taken.length > 0) return null;
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const [row] = await queryRows(
        db,
        sql`select request_hash, status, answer from transactional_idempotency
             where tenant_id = ${tenantId}::uuid and key = ${key}`,
      );
      if (!row) break; // the first request failed and gave the key back: take it
      if (textOf(row, 'request_hash') !== hash) throw conflict(KEY_REUSED);
      if (row.status !== null && row.status !== undefined) {
        const body = typeof row.answer === 'string' ? (JSON.parse(row.answer) as unknown) : row.answer;
        return { status: intOf(row, 'status'), body };
      }
      if (Date.now() > deadline) throw new HttpError(409, KEY_IN_FLIGHT);
      await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
    }
    if (tries >= 2) throw new HttpError(409, KEY_IN_FLIGHT);
  }
}

/** The request failed: its key is given back. */
export async function releaseKey(db: Queryable, tenantId: string, key: string): Promise<void> {
  await db.execute(
    sql`delete from transactional_idempotency where tenant_id = ${tenantId}::uuid and key = ${key} and status is null`,
  );
}

/** Expired keys, a slice at a time (the daily cleanup). */
export async function expireKeys(db: Queryable): Promise<number> {
  const rows = await queryRows(
    db,
    sql`delete from transactional_idempotency where ctid in (
          select ctid from transactional_idempotency where not (${live}) limit 5000) returning 1`,
  );
  return rows.length;
}
