/**
 * The one read a transactional send makes (the template comes from memory: template-cache.ts): the
 * tenant's contact with the recipient's address, for the unsubscribed rule and the message's contact.
 * Sends that wait while a read runs share the next one (the campaigns' group commit, as the sends'
 * writes do): one statement looks up every address asked meanwhile, so concurrent sends cost the
 * database one read, not one each.
 */
import { sql } from 'drizzle-orm';
import { GroupCommit } from '../campaigns/index';
import type { Database } from '../db/index';
import { intOf, queryRows, textOf } from '../lib/raw-sql';
import type { ContactLookup } from './accept';

interface Asked {
  tenantId: string;
  email: string | null;
  wallet: string | null;
}

type Found = { id: string; status: string | null } | null;

/** One statement for many addresses: each asked address's first contact of its tenant, if any. */
async function lookUp(db: Database, asked: Asked[]): Promise<Found[]> {
  const input = asked.map((a, i) => ({ i, tenant: a.tenantId, email: a.email, wallet: a.wallet }));
  const rows = await queryRows(
    db,
    sql`select q.i, k.id::text as id, k.status
          from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as q(i int, tenant uuid, email text, wallet text)
          join lateral (
            (select c.id, c.status from contacts c
              where q.email is not null and c.tenant_id = q.tenant and c.email = q.email limit 1)
            union all
            (select c.id, c.status from contacts c
              where q.email is null and c.tenant_id = q.tenant and c.wallet = q.wallet limit 1)
            limit 1) k on true`,
  );
  const found: Found[] = asked.map(() => null);
  for (const row of rows) found[intOf(row, 'i')] = { id: textOf(row, 'id') ?? '', status: textOf(row, 'status') };
  return found;
}

/** The lookup of a gateway's sends: concurrent ones share a statement. */
export function sharedContactLookups(db: Database): ContactLookup {
  const reads = new GroupCommit<Asked, Found, never>((asked) => lookUp(db, asked));
  return (tenantId, to) => reads.request({ tenantId, email: to.email, wallet: to.wallet });
}
