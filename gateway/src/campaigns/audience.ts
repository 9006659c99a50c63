/**
 * A campaign's audience (spec section 2, engagement/emails/compose: the audience step and the review):
 * ONE query that both counts (the compose review) and takes the audience when sending starts, so the
 * count shown is the number of recipients the send takes.
 *
 * - Included: members of the included lists ∪ contacts matching the included segments (the segments'
 *   own SQL, audience/segments/segment-sql.ts), each contact once.
 * - Left out, each contact under the FIRST reason in this order: excluded (in an excluded list or
 *   segment), unsubscribed, bounced, complained (the contact's status), no_address (wallet-only while
 *   WALLET_MAIL_DOMAIN is not set), duplicates (another contact of the audience has the address).
 * - Addresses are compared lower-cased. A wallet-only contact is sent to
 *   `<EIP-55 checksummed wallet>@<WALLET_MAIL_DOMAIN>`; the row keeps it lower-cased (`channel`
 *   'wallet'), the sender writes the checksummed form.
 * - Duplicates: e-mails are unique per tenant and so are wallets, so two contacts share an address
 *   only when a wallet-only contact's wallet address is another contact's e-mail. The wallet-only one is
 *   counted as the duplicate; the snapshot inserts whichever comes first (`on conflict do nothing`), so
 *   the number of recipients is the same either way.
 *
 * The walk is over the tenant's contacts in id order, a few thousand per statement, with a turn of the
 * event loop between statements (lib/bounded-work.ts): embedded PGlite runs in the gateway's thread.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AudienceCount, AudienceSelection } from '../contracts';
import type { Database } from '../db/index';
import { lists, segments } from '../db/schema';
import { tenantAttributes } from '../audience/contacts/contact-wire';
import { segmentCondition } from '../audience/segments/segment-sql';
import { inIndexOrder, nextTurn } from '../lib/bounded-work';
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';

/** Contacts read per statement of the walk. */
export const AUDIENCE_SLICE = 5_000;

/** The conditions of a selection over the unaliased `contacts` table (null: nothing selected). */
export interface AudienceConditions {
  include: SQL | null;
  exclude: SQL | null;
}

const FALSE = sql`false`;

function anyOf(parts: SQL[]): SQL | null {
  return parts.length === 0 ? null : sql`(${sql.join(parts, sql` or `)})`;
}

/** Included and excluded conditions; lists and segments of another tenant (or gone) are ignored. */
export async function audienceConditions(
  db: Database,
  tenantId: string,
  selection: AudienceSelection,
): Promise<AudienceConditions> {
  const listIds = [...new Set([...selection.include_lists, ...selection.exclude_lists])];
  const segmentIds = [...new Set([...selection.include_segments, ...selection.exclude_segments])];
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const validLists = listIds.filter((id) => uuid.test(id));
  const validSegments = segmentIds.filter((id) => uuid.test(id));
  const [ownLists, ownSegments, attributes] = await Promise.all([
    validLists.length === 0
      ? Promise.resolve([])
      : db
          .select({ id: lists.id })
          .from(lists)
          .where(and(eq(lists.tenantId, tenantId), inArray(lists.id, validLists))),
    validSegments.length === 0
      ? Promise.resolve([])
      : db
          .select({ id: segments.id, rule: segments.rule })
          .from(segments)
          .where(and(eq(segments.tenantId, tenantId), inArray(segments.id, validSegments))),
    validSegments.length === 0 ? Promise.resolve([]) : tenantAttributes(db, tenantId),
  ]);
  const knownLists = new Set(ownLists.map((l) => l.id));
  const rules = new Map(ownSegments.map((s) => [s.id, s.rule]));
  const side = (listSel: string[], segmentSel: string[]): SQL | null => {
    const parts: SQL[] = [];
    const ids = listSel.filter((id) => knownLists.has(id));
    if (ids.length > 0) {
      parts.push(
        sql`exists (select 1 from list_members m where m.contact_id = contacts.id and m.list_id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )}))`,
      );
    }
    for (const id of segmentSel) {
      const rule = rules.get(id);
      if (rule) parts.push(segmentCondition(rule, attributes));
    }
    return anyOf(parts);
  };
  return {
    include: side(selection.include_lists, selection.include_segments),
    exclude: side(selection.exclude_lists, selection.exclude_segments),
  };
}

/**
 * One slice of the walk: the audience rows of the tenant's contacts with id > `after` (at most
 * `AUDIENCE_SLICE` contacts read). Columns: contact_id, address (lower-cased), channel, reason (null:
 * reachable), and `last_id`, the slice's last contact (null: the walk is over).
 */
function sliceQuery(
  tenantId: string,
  conditions: AudienceConditions,
  domain: string | null,
  after: string | null,
): SQL {
  const include = conditions.include ?? FALSE;
  const exclude = conditions.exclude ?? FALSE;
  const afterCondition = after === null ? sql`true` : sql`c.id > ${after}::uuid`;
  const walletAddress = domain === null ? sql`null::text` : sql`(lower(contacts.wallet) || ${`@${domain}`})`;
  return sql`
    with slice as (
      select c.id from contacts c
       where c.tenant_id = ${tenantId}::uuid and ${afterCondition}
       order by c.id limit ${AUDIENCE_SLICE}
    ),
    cand as (
      select contacts.id, contacts.status, contacts.email is not null as has_email,
             coalesce(lower(contacts.email), ${walletAddress}) as address,
             ${exclude} as excluded
        from contacts
       where contacts.id in (select id from slice) and contacts.tenant_id = ${tenantId}::uuid and ${include}
    ),
    classified as (
      select cand.id as contact_id, cand.address,
             case when cand.has_email then 'email' else 'wallet' end as channel,
             case
               when cand.excluded then 'excluded'
               when cand.status <> 'subscribed' then cand.status
               when cand.address is null then 'no_address'
               when not cand.has_email and exists (
                 select 1 from contacts
                  where contacts.tenant_id = ${tenantId}::uuid
                    and (lower(contacts.email) collate "C") = (cand.address collate "C")
                    and contacts.status = 'subscribed' and ${include} and not ${exclude}
               ) then 'duplicates'
             end as reason
        from cand
    )
    select classified.*, (select s.id from slice s order by s.id desc limit 1)::text as last_id from classified
    union all
    select null, null, null, null, (select s.id from slice s order by s.id desc limit 1)::text
  `;
}

/** The same slice, inserting its reachable rows into the campaign's recipients; answers the slice's last contact. */
function snapshotQuery(
  campaignId: string,
  tenantId: string,
  conditions: AudienceConditions,
  domain: string | null,
  after: string | null,
): SQL {
  return sql`
    with rows as (${sliceQuery(tenantId, conditions, domain, after)}),
    ins as (
      insert into campaign_recipients (campaign_id, tenant_id, contact_id, address, channel)
      select ${campaignId}::uuid, ${tenantId}::uuid, contact_id, address, channel
        from rows where contact_id is not null and reason is null
      on conflict (campaign_id, address) do nothing
      returning 1
    )
    select (select last_id from rows limit 1) as last_id, (select count(*) from ins)::int as inserted
  `;
}

function emptyCount(domain: string | null): AudienceCount {
  return {
    matched: 0,
    reachable: 0,
    email: 0,
    wallet: 0,
    excluded: 0,
    unsubscribed: 0,
    bounced: 0,
    complained: 0,
    no_address: 0,
    duplicates: 0,
    wallet_mail_domain: domain,
  };
}

const REASONS = ['excluded', 'unsubscribed', 'bounced', 'complained', 'no_address', 'duplicates'] as const;

/**
 * Who a send of `selection` would reach now (POST /v1/campaigns/audience, GET /v1/campaigns/:id/audience):
 * the same walk the snapshot takes (`takeAudience`).
 */
export async function countAudience(
  db: Database,
  tenantId: string,
  selection: AudienceSelection,
  walletMailDomain: string | null,
): Promise<AudienceCount> {
  const domain = walletMailDomain?.trim().toLowerCase() || null;
  const count = emptyCount(domain);
  const conditions = await audienceConditions(db, tenantId, selection);
  if (!conditions.include) return count;
  let after: string | null = null;
  for (;;) {
    const query = sql`
      with rows as (${sliceQuery(tenantId, conditions, domain, after)})
      select (select last_id from rows limit 1) as last_id,
             count(contact_id)::int as matched,
             count(*) filter (where contact_id is not null and reason is null and channel = 'email')::int as email,
             count(*) filter (where contact_id is not null and reason is null and channel = 'wallet')::int as wallet,
             ${sql.join(
               REASONS.map((r) => sql`count(*) filter (where reason = ${r})::int as ${sql.identifier(r)}`),
               sql`, `,
             )}
        from rows`;
    const [row] = await inIndexOrder(db, (q) => queryRows(q, query));
    if (!row) break;
    count.matched += intOf(row, 'matched');
    count.email += intOf(row, 'email');
    count.wallet += intOf(row, 'wallet');
    for (const r of REASONS) count[r] += intOf(row, r);
    after = textOf(row, 'last_id');
    if (after === null) break;
    await nextTurn();
  }
  count.reachable = count.email + count.wallet;
  return count;
}

/**
 * Takes the audience into `campaign_recipients` (the send job, once per campaign): slice by slice,
 * each slice's reachable rows inserted with `on conflict (campaign_id, address) do nothing`, so a walk
 * cut off by a crash is simply walked again. Returns the number of recipients the campaign has.
 * The caller marks the campaign's `audience_taken_at` afterwards.
 */
export async function takeAudience(
  db: Database,
  campaignId: string,
  tenantId: string,
  selection: AudienceSelection,
  walletMailDomain: string | null,
  signal?: AbortSignal,
): Promise<number | null> {
  const domain = walletMailDomain?.trim().toLowerCase() || null;
  const conditions = await audienceConditions(db, tenantId, selection);
  if (conditions.include) {
    let after: string | null = null;
    for (;;) {
      if (signal?.aborted) return null;
      const query = snapshotQuery(campaignId, tenantId, conditions, domain, after);
      const [row] = await inIndexOrder(db, (q) => queryRows(q, query));
      after = row ? textOf(row, 'last_id') : null;
      if (after === null) break;
      await nextTurn();
    }
  }
  return recipientCount(db, campaignId);
}

/** The rows the snapshot took. */
export async function recipientCount(db: Queryable, campaignId: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n from campaign_recipients where campaign_id = ${campaignId}::uuid`,
  );
  return row ? intOf(row, 'n') : 0;
}
