// Shared by the audience suites (contacts, lists, custom attributes, isolation).
import { eq, sql } from 'drizzle-orm';
import { tenants } from '../src/db/schema';
import type { Reply, TestGateway } from './helpers';
import { queryRows, textOf } from '../src/lib/raw-sql';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call with a token and an optional JSON body. */
export function call<T = unknown>(
  gw: TestGateway,
  method: Method,
  path: string,
  token: string,
  body?: unknown,
): Promise<Reply<T>> {
  return gw.request<T>(path, { method, token, body });
}

export async function tenantId(gw: TestGateway, name: string): Promise<string> {
  const [row] = await gw.handle.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name));
  if (!row) throw new Error(`no tenant ${name}`);
  return row.id;
}

/** A query string from defined values. */
export function qs(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined);
  return new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString();
}

/** A CSV text as rows of cells (RFC 4180, CRLF lines; enough for the suites' own exports). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/**
 * `n` generated contacts for a tenant, fast: one INSERT ... SELECT generate_series with the secondary
 * indexes of `contacts` dropped and rebuilt afterwards, and the per-row triggers (foreign keys, the
 * counters) off for it (`session_replication_role`), the tenant's counters and days then set from the rows.
 * Nothing is analyzed, as after a large import on embedded PGlite (which has no autovacuum). E-mails
 * `g<i>@gen.test` (every 10th contact has a wallet and no e-mail), four last names, statuses and
 * sources in turn, one creation second apart (the newest first).
 */
export async function generateContacts(gw: TestGateway, tenant: string, n: number): Promise<void> {
  const db = gw.handle.db;
  const indexes = (
    await queryRows(
      db,
      sql`select format('drop index %s', i.indexrelid::regclass) as "drop", pg_get_indexdef(i.indexrelid) as "create"
          from pg_index i
          where i.indrelid = 'contacts'::regclass
            and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    )
  ).map((r) => ({ drop: textOf(r, 'drop') ?? '', create: textOf(r, 'create') ?? '' }));
  await db.transaction(async (tx) => {
    for (const index of indexes) await tx.execute(sql.raw(index.drop));
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into contacts (tenant_id, email, wallet, first_name, last_name, status, source, created_at, updated_at)
      select ${tenant}::uuid,
        case when g % 10 = 0 then null else 'g' || g || '@gen.test' end,
        case when g % 10 = 0 then '0x' || lpad(to_hex(g), 40, '0') end,
        'Gen', (array['smith', 'jones', 'brown', 'zed'])[1 + g % 4],
        (array['subscribed', 'unsubscribed', 'subscribed', 'bounced', 'complained'])[1 + g % 5],
        (array['import', 'api', 'widget'])[1 + g % 3],
        timestamptz '2026-01-01 00:00:00+00' - g * interval '1 second',
        timestamptz '2026-01-01 00:00:00+00' - g * interval '1 second'
      from generate_series(1, ${n}) g`);
    await tx.execute(sql`set local session_replication_role = origin`);
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    for (const index of indexes) await tx.execute(sql.raw(index.create));
    await tx.execute(sql`
      insert into contact_counts (tenant_id, status, n)
      select tenant_id, status, count(*) from contacts where tenant_id = ${tenant}::uuid group by 1, 2
      on conflict (tenant_id, status) do update set n = excluded.n`);
    await tx.execute(sql`
      insert into contact_days (tenant_id, day, source, added)
      select tenant_id, (created_at at time zone 'UTC')::date, source, count(*)
        from contacts where tenant_id = ${tenant}::uuid group by 1, 2, 3
      on conflict (tenant_id, day, source) do update set added = excluded.added`);
  });
}
