/** A message's status and timeline (GET /v1/transactional/messages/{id}), and the template's log source. */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { notFound } from '../errors';
import { isUuid } from '../lib/db-helpers';
import { queryRows, textOf } from '../lib/raw-sql';
import { recipientEvents, type LogSource } from '../campaigns/index';
import type { RecipientStatus, TransactionalMessageStatus } from '../contracts';
import { transactionalTemplate } from './accept';

export const MESSAGE_NOT_FOUND = 'Message not found.';

export async function messageStatus(db: Database, tenantId: string, id: string): Promise<TransactionalMessageStatus> {
  const [row] = isUuid(id)
    ? await queryRows(
        db,
        sql`select m.id::text, m.template_id::text, m.created_at, r.id::text as rid, r.address, r.status, r.error, r.campaign_id::text
              from transactional_messages m join campaign_recipients r on r.id = m.recipient_id
             where m.id = ${id}::uuid and m.tenant_id = ${tenantId}::uuid`,
      )
    : [];
  if (!row) throw notFound(MESSAGE_NOT_FOUND);
  const source: LogSource = {
    kind: 'transactional',
    id: textOf(row, 'template_id') ?? '',
    campaignIds: [textOf(row, 'campaign_id') ?? ''],
    tenantId,
    counters: { recipients: 0, opened: 0, clicked: 0, unsubscribed: 0, complained: 0 },
  };
  const events = await recipientEvents(db, source, textOf(row, 'rid') ?? '');
  const created = row.created_at;
  return {
    message_id: textOf(row, 'id') ?? id,
    template_id: source.id,
    to: textOf(row, 'address') ?? '',
    // The recipient rows' statuses are RECIPIENT_STATUSES (campaigns/schema.ts check).
    status: (textOf(row, 'status') ?? 'queued') as RecipientStatus,
    error: textOf(row, 'error'),
    created_at: (created instanceof Date ? created : new Date(String(created))).toISOString(),
    events: events.records,
  };
}

/** The delivery log's source for a transactional template: its carriers' rows; search also by message id. */
export async function templateLogSource(db: Database, tenantId: string, id: string): Promise<LogSource> {
  const template = await transactionalTemplate(db, tenantId, id);
  const [row] = await queryRows(
    db,
    sql`select coalesce(array_agg(c.id::text), '{}') as ids, coalesce(sum(c.recipients), 0)::int as recipients,
               coalesce(sum(c.opened), 0)::int as opened, coalesce(sum(c.clicked), 0)::int as clicked,
               coalesce(sum(c.unsubscribed), 0)::int as unsubscribed, coalesce(sum(c.complained), 0)::int as complained
          from transactional_carriers tc join campaigns c on c.id = tc.campaign_id
         where tc.template_id = ${template.id}::uuid`,
  );
  const ids = row?.ids;
  const list = Array.isArray(ids)
    ? ids.map(String)
    : String(ids ?? '{}')
        .replace(/[{}]/g, '')
        .split(',')
        .filter(Boolean);
  const n = (k: string) => Number(row?.[k] ?? 0);
  return {
    kind: 'transactional',
    id: template.id,
    campaignIds: list,
    tenantId,
    counters: {
      recipients: n('recipients'),
      opened: n('opened'),
      clicked: n('clicked'),
      unsubscribed: n('unsubscribed'),
      complained: n('complained'),
    },
    idSearch: (search) =>
      isUuid(search)
        ? sql`r.id in (select m.recipient_id from transactional_messages m
                        where m.id = ${search}::uuid and m.tenant_id = ${tenantId}::uuid)`
        : null,
  };
}
