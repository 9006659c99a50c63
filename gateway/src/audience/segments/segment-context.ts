/**
 * What a tenant's segment rules are compiled against: its custom attributes and the contracts it
 * watches (the on-chain fields), and what a rule naming a contract no longer watched means.
 */
import { sql } from 'drizzle-orm';
import { segmentFields, type SegmentContract, type SegmentFieldList } from '../../contracts';
import type { Database } from '../../db/index';
import type { CustomAttributeRow } from '../../db/schema';
import { queryRows, textOf, type Queryable } from '../../lib/raw-sql';
import { tenantAttributes } from '../contacts/contact-wire';

/**
 * How a rule on an on-chain field that is not one of the tenant's (a contract deleted, an event or a
 * token's balances no longer watched, another tenant's contract id) compiles:
 * - `refuse`: a 400 naming it (saving a segment, and the live count of a rule being edited);
 * - `matchNobody`: the rule is false for every contact (a segment saved before: its count elsewhere,
 *   "View contacts", a send), so such a segment never reaches contacts through facts no longer kept.
 */
export type UnwatchedRule = 'refuse' | 'matchNobody';

export interface SegmentContext {
  attributes: readonly CustomAttributeRow[];
  contracts: readonly SegmentContract[];
  unwatched: UnwatchedRule;
}

/** The tenant's watched contracts as segment fields need them, oldest first (the database or a transaction). */
export async function tenantSegmentContracts(db: Queryable, tenantId: string): Promise<SegmentContract[]> {
  const rows = await queryRows(
    db,
    sql`select id::text as id, name, events, token_decimals, token_symbol from watched_contracts
         where tenant_id = ${tenantId}::uuid order by created_at, id`,
  );
  return rows.map((r) => {
    const decimals = r.token_decimals === null || r.token_decimals === undefined ? null : Number(r.token_decimals);
    return {
      id: String(r.id),
      name: String(r.name),
      events: Array.isArray(r.events) ? r.events.map(String) : [],
      token: decimals === null ? null : { symbol: textOf(r, 'token_symbol'), decimals },
    };
  });
}

/** The tenant's attributes and watched contracts. */
export async function segmentContext(
  db: Database,
  tenantId: string,
  unwatched: UnwatchedRule,
): Promise<SegmentContext> {
  const [attributes, contracts] = await Promise.all([
    tenantAttributes(db, tenantId),
    tenantSegmentContracts(db, tenantId),
  ]);
  return { attributes, contracts, unwatched };
}

/** GET /v1/segments/fields: the allowlist the rule builder offers, the one rules compile against. */
export async function segmentFieldList(db: Database, tenantId: string): Promise<SegmentFieldList> {
  const { attributes, contracts } = await segmentContext(db, tenantId, 'refuse');
  return {
    records: segmentFields(attributes, contracts).map((f) => ({
      name: f.name,
      label: f.label,
      kind: f.kind,
      ...(f.values ? { values: [...f.values] } : {}),
      ...(f.token ? { token: f.token } : {}),
    })),
  };
}
