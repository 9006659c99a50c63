/**
 * What a tenant's segment rules are compiled against: its custom attributes and the contracts it
 * watches (the on-chain fields), and what a rule naming a contract no longer watched means.
 */
import { asc, eq } from 'drizzle-orm';
import { segmentFields, type SegmentContract, type SegmentFieldList } from '../../contracts';
import type { Database } from '../../db/index';
import { watchedContracts, type CustomAttributeRow } from '../../db/schema';
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

/** The tenant's watched contracts as segment fields need them, oldest first. */
export async function tenantSegmentContracts(db: Database, tenantId: string): Promise<SegmentContract[]> {
  const rows = await db
    .select({
      id: watchedContracts.id,
      name: watchedContracts.name,
      events: watchedContracts.events,
      decimals: watchedContracts.tokenDecimals,
      symbol: watchedContracts.tokenSymbol,
    })
    .from(watchedContracts)
    .where(eq(watchedContracts.tenantId, tenantId))
    .orderBy(asc(watchedContracts.createdAt), asc(watchedContracts.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    events: r.events,
    token: r.decimals === null ? null : { symbol: r.symbol, decimals: r.decimals },
  }));
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
