// EXPLAIN (ANALYZE, BUFFERS) of the queries behind a slow request, built by the gateway's own query
// code (so the plan is the one the endpoint runs), for the report to whoever owns the endpoint.
import type { ContactListQuery, SegmentGroup } from '../../gateway/src/contracts.ts';
import {
  countContacts,
  contactPageQuery,
  resolveContactFilter,
} from '../../gateway/src/audience/contacts/contact-query.ts';
import { segmentContext } from '../../gateway/src/audience/segments/segment-context.ts';
import { segmentWhere } from '../../gateway/src/audience/segments/segment-sql.ts';
import { contacts } from '../../gateway/src/db/schema.ts';
import type { BenchDb } from './db.ts';

export interface Explained {
  /** The statements, their parameters and plans. */
  text: string;
  /** Sum of the plans' execution times. */
  executionMs: number;
}

async function explain(db: BenchDb, label: string, text: string, params: unknown[]): Promise<Explained> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, params);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
  return { text: `-- ${label}\n${text}\n-- params: ${JSON.stringify(params)}\n${plan}`, executionMs };
}

function joined(parts: Explained[]): Explained {
  return {
    text: parts.map((p) => p.text).join('\n\n'),
    executionMs: parts.reduce((n, p) => n + p.executionMs, 0),
  };
}

/** The count (when it is a count(*)) and the page query of GET /v1/contacts. */
export async function explainContacts(db: BenchDb, tenantId: string, q: ContactListQuery): Promise<Explained> {
  const d = db.handle.db;
  const scope = await resolveContactFilter(d, tenantId, q);
  const out: Explained[] = [];
  if (scope.count.kind === 'exact') {
    const c = d.select({ id: contacts.id }).from(contacts).where(scope.where).toSQL();
    out.push(await explain(db, 'count', `select count(*) from (${c.sql}) matches`, c.params));
  }
  const total = await countContacts(d, scope);
  const page = contactPageQuery(d, scope, q, total);
  if (page) {
    const p = page.query.toSQL();
    out.push(await explain(db, `page (total ${total}${page.reverse ? ', read in reverse' : ''})`, p.sql, p.params));
  }
  return joined(out);
}

/** The count of POST /v1/segments/preview. */
export async function explainSegmentCount(db: BenchDb, tenantId: string, rule: SegmentGroup): Promise<Explained> {
  const d = db.handle.db;
  const where = segmentWhere(tenantId, rule, await segmentContext(d, tenantId, 'refuse'));
  const c = d.select({ id: contacts.id }).from(contacts).where(where).toSQL();
  return explain(db, 'segment count', `select count(*) from (${c.sql}) matches`, c.params);
}
