/**
 * Carriers (docs/transactional.md, "Model"): a transactional template's messages from one sender (From,
 * Reply-To) are the recipient rows of one hidden campaign of kind 'transactional', always 'sending', so
 * the campaign sender claims, builds, signs, hands over and records them with its exactly-once protocol
 * (docs/sending.md). The carrier's tracking flags follow the template's settings.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index';
import { queryRows, textOf, type Queryable } from '../lib/raw-sql';
import type { CarrierHooks } from '../campaigns/index';
import type { TransactionalSettings } from '../contracts';

export interface CarrierKey {
  tenantId: string;
  templateId: string;
  templateName: string;
  templateVersion: number;
  fromEmail: string;
  replyTo: string;
}

/** Carriers found so far (they are deleted only with their template or tenant, which a lookup checks first). */
const known = new Map<string, string>();
const KNOWN_KEPT = 10_000;

/** The carrier of a template and sender, made on first use (concurrent first uses make one). */
export async function carrierOf(db: Database, key: CarrierKey, settings: TransactionalSettings): Promise<string> {
  const cacheKey = `${key.templateId}\n${key.fromEmail}\n${key.replyTo}`;
  const hit = known.get(cacheKey);
  if (hit) return hit;
  const find = () =>
    queryRows(
      db,
      sql`select campaign_id::text from transactional_carriers
           where template_id = ${key.templateId}::uuid and from_email = ${key.fromEmail} and reply_to = ${key.replyTo}`,
    );
  let [row] = await find();
  if (!row) {
    await db.execute(
      sql`with made as (
            insert into campaigns (tenant_id, kind, name, template_id, template_version, status, from_email, reply_to,
                                   track_opens, track_clicks, started_at, audience_taken_at)
            values (${key.tenantId}::uuid, 'transactional', ${`Transactional: ${key.templateName}`}, ${key.templateId}::uuid,
                    ${key.templateVersion}, 'sending', ${key.fromEmail}, ${key.replyTo}, ${settings.track_opens},
                    ${settings.track_clicks}, now(), now())
            returning id)
          insert into transactional_carriers (campaign_id, tenant_id, template_id, from_email, reply_to)
          select id, ${key.tenantId}::uuid, ${key.templateId}::uuid, ${key.fromEmail}, ${key.replyTo} from made
          on conflict (template_id, from_email, reply_to) do nothing`,
    );
    // A concurrent first use won: its carrier is the one (the campaign made here carries nothing).
    await db.execute(
      sql`delete from campaigns c where c.kind = 'transactional' and c.template_id = ${key.templateId}::uuid
             and not exists (select 1 from transactional_carriers t where t.campaign_id = c.id)`,
    );
    [row] = await find();
  }
  const id = row ? textOf(row, 'campaign_id') : null;
  if (!id) throw new Error('the carrier could not be made');
  if (known.size >= KNOWN_KEPT) known.clear();
  known.set(cacheKey, id);
  return id;
}

/** The template's carriers follow its tracking settings. */
export async function applySettingsToCarriers(db: Queryable, templateId: string, s: TransactionalSettings) {
  await db.execute(
    sql`update campaigns set track_opens = ${s.track_opens}, track_clicks = ${s.track_clicks}
         where id in (select campaign_id from transactional_carriers where template_id = ${templateId}::uuid)`,
  );
}

/** What the campaign sender asks of carriers (campaigns/sender/carrier.ts). */
export const carrierHooks: CarrierHooks = {
  async loadData(db, rowIds) {
    const out = new Map<number, Record<string, unknown>>();
    if (rowIds.length === 0) return out;
    const rows = await queryRows(
      db,
      sql`select recipient_id, data from transactional_messages where recipient_id = any(${`{${rowIds.join(',')}}`}::bigint[])`,
    );
    for (const r of rows) {
      const data = typeof r.data === 'string' ? (JSON.parse(r.data) as unknown) : r.data;
      if (typeof data === 'object' && data !== null) out.set(Number(r.recipient_id), data as Record<string, unknown>);
    }
    return out;
  },
  committedSql(carrier, counts, at) {
    if (!carrier.templateId) return sql`select 1`;
    const day = at.toISOString().slice(0, 10);
    return sql`insert into transactional_days (template_id, tenant_id, day, sent, bounced, failed, last_sent_at)
               select ${carrier.templateId}::uuid, c.tenant_id, ${day}::date, k.sent, k.bounced, k.failed, ${at}::timestamptz
                 from (select (${counts.handed})::int as sent, (${counts.bounced})::int as bounced,
                              (${counts.failed})::int as failed) k
                 join campaigns c on c.id = ${carrier.id}::uuid
                where k.sent + k.bounced + k.failed > 0
               on conflict (template_id, day) do update
                  set sent = transactional_days.sent + excluded.sent,
                      bounced = transactional_days.bounced + excluded.bounced,
                      failed = transactional_days.failed + excluded.failed,
                      last_sent_at = case when excluded.sent > 0 then greatest(transactional_days.last_sent_at, excluded.last_sent_at)
                                          else transactional_days.last_sent_at end`;
  },
};

/** Statuses of a carrier's rows whose message is not sent yet (docs/sending.md). */
const WAITING = sql`('queued', 'sending', 'handing', 'deferred')`;

export const messagesWaiting = (n: number) =>
  `This template has ${n === 1 ? '1 transactional message' : `${n.toLocaleString('en')} transactional messages`} ` +
  'waiting to be sent. Delete it once they are sent.';

/**
 * A template is not deleted while messages accepted for it wait to be sent (docs/transactional.md,
 * "Deleting a template"): a carrier renders its template when it sends, so they could not be sent
 * after it. The templates area asks inside its deleting transaction, the template's row locked.
 */
export async function queuedRefusal(tx: Queryable, _tenantId: string, templateId: string): Promise<string | null> {
  const [row] = await queryRows(
    tx,
    sql`select count(*)::int as n from transactional_carriers t
          join campaign_recipients r on r.campaign_id = t.campaign_id
         where t.template_id = ${templateId}::uuid and r.status in ${WAITING}`,
  );
  const n = Number(row?.n ?? 0);
  return n > 0 ? messagesWaiting(n) : null;
}
