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
 * The walk is over the tenant's contacts in the order of their index (tenant, created_at, id), which
 * follows where they are stored (contacts are written in that order and `created_at` never changes;
 * a walk in id order, random UUIDs, read the table's pages many times over), as many per statement
 * as the database takes (db/storage.ts readRows: a few thousand on embedded PGlite, where a statement
 * holds up every request) with a turn of the event loop between statements.
 *
 * The snapshot is kept compact (`campaign_audience`): each slice of the walk writes its recipients as
 * arrays, in parts of at most AUDIENCE_PART, so taking a million contacts writes about a thousand rows
 * instead of a million indexed ones (what made the snapshot slow). The sender turns a part into
 * `campaign_recipients` rows when it reaches it (`expandPart`; on embedded PGlite rows claimed at once,
 * `expansionSql`), in one statement that also marks the part taken, so a part becomes rows exactly
 * once. Recipients therefore enter the delivery log as the send reaches them; the campaign's
 * `recipients` figure counts the whole audience from the start.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AudienceCount, AudienceSelection } from '../contracts';
import type { Database } from '../db/index';
import { lists, segments } from '../db/schema';
import { segmentCondition, segmentContext } from '../audience/index';
import { readInIndexOrder, storageCapabilities, yieldToRequests } from '../db/storage';
import { intOf, queryRows, textOf, type Queryable } from '../lib/raw-sql';

/** Contacts read per statement of the walk, where the database takes that many (db/storage.ts readRows). */
export const AUDIENCE_SLICE = 250_000;
/** Slices of at least this many contacts read the lists' members once into a hash; smaller ones probe. */
const HASH_MEMBERS_FROM = 50_000;
/** A PostgreSQL server's sort memory for one statement of the walk (its sorts stay off the disk). */
const WALK_WORK_MEM = '64MB';
/** Recipients per row of `campaign_audience` (and per expansion into `campaign_recipients`). */
export const AUDIENCE_PART = 1_000;

/** Contacts read per statement of the walk on this database. */
function walkSlice(db: Database): number {
  return Math.min(AUDIENCE_SLICE, storageCapabilities(db).readRows);
}

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
  const [ownLists, ownSegments, context] = await Promise.all([
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
    // Segments saved before a contract was deleted: their rules on it match nobody.
    validSegments.length === 0 ? Promise.resolve(null) : segmentContext(db, tenantId, 'matchNobody'),
  ]);
  const knownLists = new Set(ownLists.map((l) => l.id));
  const hashMembers = walkSlice(db) >= HASH_MEMBERS_FROM;
  const rules = new Map(ownSegments.map((s) => [s.id, s.rule]));
  const side = (listSel: string[], segmentSel: string[]): SQL | null => {
    const parts: SQL[] = [];
    const ids = listSel.filter((id) => knownLists.has(id));
    if (ids.length > 0) {
      const listIds = sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      );
      // A large slice reads the lists' members once per statement into a hash; a small one looks each
      // of its contacts up in the index.
      parts.push(
        hashMembers
          ? sql`contacts.id in (select m.contact_id from list_members m where m.list_id in (${listIds}))`
          : sql`exists (select 1 from list_members m where m.contact_id = contacts.id and m.list_id in (${listIds}))`,
      );
    }
    for (const id of segmentSel) {
      const rule = rules.get(id);
      if (rule && context) parts.push(segmentCondition(rule, context));
    }
    return anyOf(parts);
  };
  return {
    include: side(selection.include_lists, selection.include_segments),
    exclude: side(selection.exclude_lists, selection.exclude_segments),
  };
}

/** Where the walk stands: the last contact read, by (created_at, id). */
export interface WalkPosition {
  at: string;
  id: string;
}

/**
 * One slice of the walk: the audience rows of the tenant's contacts after `after` (at most `size`
 * contacts read). Columns: contact_id, address (lower-cased), channel, reason (null: reachable), and
 * `last_at`/`last_id`, the slice's last contact (null: the walk is over).
 */
function sliceQuery(
  tenantId: string,
  conditions: AudienceConditions,
  domain: string | null,
  after: WalkPosition | null,
  size: number,
): SQL {
  const include = conditions.include ?? FALSE;
  const exclude = conditions.exclude ?? FALSE;
  const afterCondition =
    after === null
      ? sql`true`
      : sql`(contacts.created_at, contacts.id) > (${after.at}::timestamptz, ${after.id}::uuid)`;
  const walletAddress = domain === null ? sql`null::text` : sql`(lower(contacts.wallet) || ${`@${domain}`})`;
  // One read of each contact of the slice: the conditions are evaluated on the rows the walk reads.
  return sql`
    with slice as (
      select contacts.id, contacts.created_at, contacts.status, contacts.email is not null as has_email,
             coalesce(lower(contacts.email), ${walletAddress}) as address,
             ${include} as included, ${exclude} as excluded
        from contacts
       where contacts.tenant_id = ${tenantId}::uuid and ${afterCondition}
       order by contacts.created_at, contacts.id limit ${size}
    ),
    cand as (select * from slice where included),
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
    ),
    last as (select s.created_at, s.id from slice s order by s.created_at desc, s.id desc limit 1)
    select classified.*, (select created_at from last)::text as last_at, (select id from last)::text as last_id
      from classified
    union all
    select null, null, null, null, (select created_at from last)::text, (select id from last)::text
  `;
}

/**
 * The same slice, its reachable rows written into the campaign's `campaign_audience` as parts of at
 * most AUDIENCE_PART (numbered after the parts already there); answers the slice's last contact
 * (null: the walk is over) and how many recipients it took.
 */
function snapshotQuery(
  campaignId: string,
  tenantId: string,
  conditions: AudienceConditions,
  domain: string | null,
  after: WalkPosition | null,
  size: number,
): SQL {
  return sql`
    with rows as (${sliceQuery(tenantId, conditions, domain, after, size)}),
    -- Numbered in the walk's order, every AUDIENCE_PART recipients make a part; the three aggregates
    -- of a part read the same rows, so element i of each is one recipient. (Slicing one array of the
    -- whole slice instead walked its text arrays from the start for every part.)
    took as (
      select (row_number() over () - 1) / ${AUDIENCE_PART} as k, contact_id, address, channel
        from rows where contact_id is not null and reason is null
    ),
    parts as (
      select k, array_agg(contact_id) as ids, array_agg(address) as addresses, array_agg(channel) as channels
        from took group by k
    ),
    ins as (
      insert into campaign_audience (campaign_id, part, last_created_at, last_contact_id, contact_ids, addresses, channels)
      select ${campaignId}::uuid,
             (select coalesce(max(part) + 1, 0) from campaign_audience where campaign_id = ${campaignId}::uuid) + k,
             (select last_at from rows limit 1)::timestamptz, (select last_id from rows limit 1)::uuid,
             parts.ids, parts.addresses, parts.channels
        from parts
      returning cardinality(contact_ids) as n
    )
    select (select last_at from rows limit 1) as last_at, (select last_id from rows limit 1) as last_id,
           (select coalesce(sum(n), 0) from ins)::int as taken
  `;
}

/** The walk's position a statement answered (`last_at`, `last_id`); null: the walk is over. */
function positionOf(row: Record<string, unknown>): WalkPosition | null {
  const at = textOf(row, 'last_at');
  const id = textOf(row, 'last_id');
  return at === null || id === null ? null : { at, id };
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
  let after: WalkPosition | null = null;
  for (;;) {
    const query = sql`
      with rows as (${sliceQuery(tenantId, conditions, domain, after, walkSlice(db))})
      select (select last_at from rows limit 1) as last_at, (select last_id from rows limit 1) as last_id,
             count(contact_id)::int as matched,
             count(*) filter (where contact_id is not null and reason is null and channel = 'email')::int as email,
             count(*) filter (where contact_id is not null and reason is null and channel = 'wallet')::int as wallet,
             ${sql.join(
               REASONS.map((r) => sql`count(*) filter (where reason = ${r})::int as ${sql.identifier(r)}`),
               sql`, `,
             )}
        from rows`;
    const [row] = await readInIndexOrder(db, (q) => queryRows(q, query), { workMem: WALK_WORK_MEM });
    if (!row) break;
    count.matched += intOf(row, 'matched');
    count.email += intOf(row, 'email');
    count.wallet += intOf(row, 'wallet');
    for (const r of REASONS) count[r] += intOf(row, r);
    after = positionOf(row);
    if (after === null) break;
    await yieldToRequests();
  }
  count.reachable = count.email + count.wallet;
  return count;
}

/**
 * Takes the audience into `campaign_audience` (the send job, once per campaign), slice by slice. A
 * walk cut off (stopped, or the process killed) resumes after the last contact of the last slice it
 * wrote: each slice is one statement, so every contact is taken once. Returns the number of
 * recipients the campaign has (null: stopped by `signal`; the job walks on when it runs again).
 * The caller marks the campaign's `audience_taken_at` afterwards.
 */
export async function takeAudience(
  db: Database,
  campaignId: string,
  tenantId: string,
  selection: AudienceSelection,
  walletMailDomain: string | null,
  options: { signal?: AbortSignal; slice?: number; afterSlice?: () => void } = {},
): Promise<number | null> {
  const { signal, afterSlice } = options;
  const domain = walletMailDomain?.trim().toLowerCase() || null;
  const size = options.slice ?? walkSlice(db);
  const conditions = await audienceConditions(db, tenantId, selection);
  if (conditions.include) {
    const [resume] = await queryRows(
      db,
      sql`select last_created_at::text as last_at, last_contact_id::text as last_id from campaign_audience
           where campaign_id = ${campaignId}::uuid order by part desc limit 1`,
    );
    let after = resume ? positionOf(resume) : null;
    for (;;) {
      if (signal?.aborted) return null;
      const query = snapshotQuery(campaignId, tenantId, conditions, domain, after, size);
      const [row] = await readInIndexOrder(db, (q) => queryRows(q, query), { workMem: WALK_WORK_MEM });
      after = row ? positionOf(row) : null;
      afterSlice?.();
      if (after === null) break;
      await yieldToRequests();
    }
  }
  return recipientCount(db, campaignId);
}

/** The recipients the snapshot took. */
export async function recipientCount(db: Queryable, campaignId: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select coalesce(sum(cardinality(contact_ids)), 0)::int as n from campaign_audience
         where campaign_id = ${campaignId}::uuid`,
  );
  return row ? intOf(row, 'n') : 0;
}

/**
 * Who an expansion's rows are for: 'queued' to send them, 'skipped' when the campaign was cancelled,
 * or a sending run at once ('sending' under its lease, the first attempt; sender/claim.ts): one row
 * version fewer per recipient than inserting it queued and claiming it after. `held` is the lease's
 * condition: without it no part is taken.
 */
export type ExpandInto = 'queued' | 'skipped' | { epoch: number; worker: string; held: SQL };

/**
 * The CTEs that turn the next `slice` recipients (a whole part unless smaller) of the campaign's next
 * part of the audience not yet taken into `campaign_recipients` rows, in ONE statement that also marks
 * how far the part was taken (`expanded_count`, then `expanded_at`): a recipient becomes a row exactly
 * once, and two processes take different parts (`for update skip locked`). `marked` has a row when a
 * part was waiting; `ins` returns the rows inserted (id, contact_id, address, channel, attempts). A
 * contact deleted since the snapshot keeps its row without the contact, as the recipients' foreign
 * key does (on delete set null). An address that is already a recipient (a contact's e-mail changed
 * since) is not added twice, and the campaign's `recipients` figure loses it.
 */
export function expansionSql(campaignId: string, tenantId: string, into: ExpandInto, slice: number): SQL {
  const row =
    typeof into === 'string'
      ? sql`${into}, null::bigint, null::text, null::timestamptz, 0`
      : sql`'sending', ${into.epoch}::bigint, ${into.worker}::text, now(), 1`;
  const held = typeof into === 'string' ? sql`` : sql`and ${into.held}`;
  return sql`with part as (
          select a.part, a.expanded_count as taken, cardinality(a.contact_ids) as total,
                 a.contact_ids[a.expanded_count + 1 : a.expanded_count + ${slice}] as contact_ids,
                 a.addresses[a.expanded_count + 1 : a.expanded_count + ${slice}] as addresses,
                 a.channels[a.expanded_count + 1 : a.expanded_count + ${slice}] as channels
            from campaign_audience a
           where a.campaign_id = ${campaignId}::uuid and a.expanded_at is null ${held}
           order by a.part limit 1 for update of a skip locked
        ),
        marked as (
          update campaign_audience a
             set expanded_count = least(part.total, part.taken + ${slice}),
                 expanded_at = case when part.taken + ${slice} >= part.total then now() end
            from part
           where a.campaign_id = ${campaignId}::uuid and a.part = part.part
          returning 1
        ),
        wanted as (
          select u.contact_id, u.address, u.channel
            from part cross join lateral unnest(part.contact_ids, part.addresses, part.channels)
                 as u(contact_id, address, channel)
        ),
        ins as (
          insert into campaign_recipients
                 (campaign_id, tenant_id, contact_id, address, channel, status, claim_epoch, claimed_by, claimed_at,
                  attempts)
          select ${campaignId}::uuid, ${tenantId}::uuid, c.id, wanted.address, wanted.channel, ${row}
            from wanted left join contacts c on c.id = wanted.contact_id
           order by wanted.contact_id
          on conflict (campaign_id, address, occurrence) do nothing
          returning id, contact_id, address, channel, attempts
        ),
        lost as (
          update campaigns set recipients = recipients - ((select count(*) from wanted) - (select count(*) from ins))
           where id = ${campaignId}::uuid and (select count(*) from wanted) > (select count(*) from ins)
          returning 1
        )`;
}

/**
 * Takes the next `slice` recipients of the next waiting part into rows with `status` (expansionSql).
 * False when no part was waiting (or the waiting ones are another process's at this moment).
 */
export async function expandPart(
  db: Queryable,
  campaignId: string,
  tenantId: string,
  status: 'queued' | 'skipped',
  slice = AUDIENCE_PART,
): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`${expansionSql(campaignId, tenantId, status, slice)}
        select (select count(*) from marked)::int as parts, (select count(*) from lost)::int as lost`,
  );
  return row ? intOf(row, 'parts') > 0 : false;
}

/** Parts of the campaign's audience not yet taken into `campaign_recipients` (also another process's in hand). */
export async function partsWaiting(db: Queryable, campaignId: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n from campaign_audience where campaign_id = ${campaignId}::uuid and expanded_at is null`,
  );
  return row ? intOf(row, 'n') : 0;
}
