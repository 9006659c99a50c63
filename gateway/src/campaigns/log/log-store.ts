/**
 * The delivery log (spec section 2: engagement/emails/log/:id; the automations log is "the same
 * delivery log view"): the chart, the per-recipient grid, a recipient's timeline, the links and the
 * CSV export. Every query takes the sends' source, a campaign today (`LogSource`); automations and
 * transactional e-mails add theirs by giving their recipient and event tables the same columns.
 *
 * Nothing here grows with the campaign's size:
 * - the chart reads campaign_event_minutes (a row per minute and type), never the events;
 * - the grid walks the index (campaign_id, address) or (campaign_id, status, id) with LIMIT; totals
 *   come from the campaign's counters when the filter is one of them, else from a count stopped at
 *   COUNT_CAP rows past the page (the answer then says `count_capped`);
 * - a timeline and the links are read through their indexes, bounded by LIMIT;
 * - the export is read in keyset slices of EXPORT_SLICE rows, a turn of the event loop between them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type {
  CampaignEventType,
  DeliveryEventList,
  DeliveryLinkList,
  DeliveryRecipient,
  DeliveryRecipientPage,
  DeliveryRecipientQuery,
  DeliveryTimeline,
  RecipientChannel,
  RecipientStatus,
} from '../../contracts';
import type { Database } from '../../db/index';
import { notFound } from '../../errors';
import { readInIndexOrder, readThroughIndexes, yieldToRequests } from '../../db/storage';
import { CSV_BOM, csvLine } from '../../lib/csv';
import { isUuid } from '../../lib/db-helpers';
import { paginate, pageWindow } from '../../lib/pagination';
import { intOf, queryRows, textOf, type Row } from '../../lib/raw-sql';
import { headedChunks } from '../../lib/streamed-file';

export const CAMPAIGN_NOT_FOUND = 'E-mail not found.';
export const RECIPIENT_NOT_FOUND = 'Recipient not found.';

/** Whose sends the log shows: a campaign, or a transactional template (its carriers' rows); automations later. */
export interface LogSource {
  kind: 'campaign' | 'transactional';
  id: string;
  /** The campaigns whose rows and events the log reads: the campaign itself, or a template's carriers. */
  campaignIds: string[];
  tenantId: string;
  /** A search naming one message by its id (transactional message ids): that row's condition, else null. */
  idSearch?: (search: string) => SQL | null;
  /** The campaign's figures, kept with the rows they count. */
  counters: Record<'recipients' | 'opened' | 'clicked' | 'unsubscribed' | 'complained', number>;
}

/** At most this many points on the chart. */
export const MAX_BUCKETS = 200;
/** Counts past the page stop here (the grid says "more than"). */
export const COUNT_CAP = 10_000;
/** Rows per statement of the CSV export. */
export const EXPORT_SLICE = 1_000;
/** Events of one recipient shown at most (a person opening an e-mail every day for years). */
export const MAX_RECIPIENT_EVENTS = 1_000;
/** Links of one e-mail shown at most. */
export const MAX_LINKS = 1_000;

/** The campaign of the tenant (another tenant's, or no such id: 404). */
export async function campaignSource(db: Database, tenantId: string, id: string): Promise<LogSource> {
  const [row] = isUuid(id)
    ? await queryRows(
        db,
        sql`select id, recipients, opened, clicked, unsubscribed, complained
              from campaigns where id = ${id} and tenant_id = ${tenantId}`,
      )
    : [];
  if (!row) throw notFound(CAMPAIGN_NOT_FOUND);
  return {
    kind: 'campaign',
    id: textOf(row, 'id') ?? id,
    campaignIds: [textOf(row, 'id') ?? id],
    tenantId,
    counters: {
      recipients: intOf(row, 'recipients'),
      opened: intOf(row, 'opened'),
      clicked: intOf(row, 'clicked'),
      unsubscribed: intOf(row, 'unsubscribed'),
      complained: intOf(row, 'complained'),
    },
  };
}

/** `column` is one of the source's campaigns (one parameter whatever their number). */
export function ofSource(column: SQL, source: Pick<LogSource, 'campaignIds'>): SQL {
  const [only] = source.campaignIds;
  if (source.campaignIds.length === 1 && only) return sql`${column} = ${only}::uuid`;
  return sql`${column} = any(${`{${source.campaignIds.join(',')}}`}::uuid[])`;
}

function iso(row: Row, column: string): string | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

// ---------------------------------------------------------------------------------------------
// Chart
// ---------------------------------------------------------------------------------------------

const NICE_BUCKETS = [60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];
const CHART_TYPES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed'] as const;

/** The smallest round bucket width (seconds) that covers `spanSeconds` in at most MAX_BUCKETS points. */
export function bucketSeconds(spanSeconds: number): number {
  for (const width of NICE_BUCKETS) if (Math.floor(spanSeconds / width) + 1 <= MAX_BUCKETS) return width;
  const week = 604800;
  return Math.ceil((spanSeconds + 1) / (MAX_BUCKETS - 1) / week) * week;
}

/** The chart: counts per bucket from the first to the last minute with events, zeros included. */
export async function deliveryTimeline(db: Database, source: LogSource): Promise<DeliveryTimeline> {
  const [range] = await queryRows(
    db,
    sql`select (extract(epoch from min(minute)))::float8 as first, (extract(epoch from max(minute)))::float8 as last
          from campaign_event_minutes where ${ofSource(sql`campaign_id`, source)}`,
  );
  if (!range || range.first === null || range.first === undefined) return { bucket_seconds: 60, buckets: [] };
  const first = intOf(range, 'first');
  const last = intOf(range, 'last');
  const width = bucketSeconds(last - first);
  const start = Math.floor(first / width) * width;
  const rows = await queryRows(
    db,
    sql`select floor((extract(epoch from minute) - ${start}) / ${width})::int as bucket, type, sum(count)::int as n
          from campaign_event_minutes where ${ofSource(sql`campaign_id`, source)}
         group by 1, 2`,
  );
  const count = Math.floor((last - start) / width) + 1;
  const buckets = Array.from({ length: count }, (_, i) => ({
    at: new Date((start + i * width) * 1000).toISOString(),
    sent: 0,
    delivered: 0,
    opened: 0,
    clicked: 0,
    bounced: 0,
    complained: 0,
    unsubscribed: 0,
  }));
  for (const row of rows) {
    const bucket = buckets[intOf(row, 'bucket')];
    const type = textOf(row, 'type');
    const chartType = CHART_TYPES.find((t) => t === type);
    if (bucket && chartType) bucket[chartType] += intOf(row, 'n');
  }
  return { bucket_seconds: width, buckets };
}

// ---------------------------------------------------------------------------------------------
// Recipients
// ---------------------------------------------------------------------------------------------

export type RecipientFilter = Pick<DeliveryRecipientQuery, 'status' | 'event' | 'searchString'>;

const STATUS_EVENTS = new Set<CampaignEventType>(['sent', 'delivered', 'deferred', 'bounced', 'failed']);
const COLUMN_EVENTS = { opened: 'opened_at', clicked: 'clicked_at', unsubscribed: 'unsubscribed_at' } as const;

/** `like` pattern of a prefix, wildcards escaped. */
function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The WHERE clause of a filter (also the export's). Addresses are stored lower-cased. */
export function recipientWhere(source: LogSource, filter: RecipientFilter): SQL {
  const parts: SQL[] = [ofSource(sql`r.campaign_id`, source)];
  if (filter.status) parts.push(sql`r.status = ${filter.status}`);
  const event = filter.event;
  if (event) {
    if (event === 'opened' || event === 'clicked' || event === 'unsubscribed')
      parts.push(sql`${sql.raw(`r.${COLUMN_EVENTS[event]}`)} is not null`);
    else if (event === 'complained')
      parts.push(
        sql`r.id in (select e.recipient_id from campaign_events e
                      where ${ofSource(sql`e.campaign_id`, source)} and e.type = 'complained')`,
      );
    else if (STATUS_EVENTS.has(event)) parts.push(sql`r.status = ${event}`);
  }
  const search = filter.searchString.trim().toLowerCase();
  const byId = search ? source.idSearch?.(search) : null;
  if (byId) parts.push(byId);
  else if (search) {
    // A prefix ("starts with", as the contacts grid): a range of the address index, and LIKE for
    // collations where the range alone would be loose.
    parts.push(sql`r.address >= ${search} and r.address < ${`${search}\u{10FFFF}`}`);
    parts.push(sql`r.address like ${prefixPattern(search)}`);
  }
  return sql.join(parts, sql` and `);
}

/** The total of a filter when the campaign's counters hold it (null: count the rows). */
function countedTotal(source: LogSource, filter: RecipientFilter): number | null {
  if (filter.status || filter.searchString.trim()) return null;
  if (!filter.event) return source.counters.recipients;
  if (filter.event === 'opened' || filter.event === 'clicked' || filter.event === 'unsubscribed')
    return source.counters[filter.event];
  if (filter.event === 'complained') return source.counters.complained;
  return null;
}

/** The grid's order, or its exact reverse (the same rows read from the other end). */
function orderBy(q: Pick<DeliveryRecipientQuery, 'sortField' | 'sortOrder'>, reverse = false): SQL {
  const ascending = (q.sortOrder === 'asc') !== reverse;
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  // Unsent rows (no sent_at) come last in either direction of the grid.
  const nulls = sql.raw(reverse ? 'nulls first' : 'nulls last');
  return q.sortField === 'sent_at' ? sql`r.sent_at ${dir} ${nulls}, r.id ${dir}` : sql`r.address ${dir}`;
}

const RECIPIENT_COLUMNS = sql`r.id, r.contact_id, r.address, r.channel, r.status, r.attempts, r.sent_at,
  r.opened_at, r.clicked_at, r.unsubscribed_at, r.error, r.soft_bounces`;

function recipientOf(row: Row): DeliveryRecipient {
  const channel: RecipientChannel = textOf(row, 'channel') === 'wallet' ? 'wallet' : 'email';
  return {
    _id: String(intOf(row, 'id')),
    contact_id: textOf(row, 'contact_id'),
    address: textOf(row, 'address') ?? '',
    channel,
    // The column's check constraint holds it to RECIPIENT_STATUSES.
    status: (textOf(row, 'status') ?? 'queued') as RecipientStatus,
    attempts: intOf(row, 'attempts'),
    sent_at: iso(row, 'sent_at'),
    opened_at: iso(row, 'opened_at'),
    clicked_at: iso(row, 'clicked_at'),
    unsubscribed_at: iso(row, 'unsubscribed_at'),
    error: textOf(row, 'error'),
    soft_bounces: intOf(row, 'soft_bounces'),
  };
}

/** A page of the grid, with the spec's pagination. */
export async function deliveryRecipients(
  db: Database,
  source: LogSource,
  q: DeliveryRecipientQuery,
): Promise<DeliveryRecipientPage> {
  const where = recipientWhere(source, q);
  const { offset, limit } = pageWindow(q.page, q.perPage);
  let count = countedTotal(source, q);
  let capped = false;
  if (count === null) {
    const cap = offset + limit + COUNT_CAP;
    const [row] = await readThroughIndexes(db, (d) =>
      queryRows(
        d,
        sql`select count(*)::int as n from (select 1 from campaign_recipients r where ${where} limit ${cap + 1}) x`,
      ),
    );
    count = Math.min(intOf(row ?? {}, 'n'), cap);
    capped = intOf(row ?? {}, 'n') > cap;
  }
  // A page past the middle of an exact count is read from the end in reverse: the worst page skips
  // half the rows, not all of them.
  const reverse = !capped && offset > count / 2 && offset < count;
  const window = reverse
    ? { offset: Math.max(0, count - offset - limit), limit: Math.min(limit, count - offset) }
    : { offset, limit };
  const walk = q.sortField === 'address' ? readInIndexOrder : readThroughIndexes;
  const rows = await walk(db, (d) =>
    queryRows(
      d,
      sql`select ${RECIPIENT_COLUMNS} from campaign_recipients r where ${where}
           order by ${orderBy(q, reverse)} limit ${window.limit} offset ${window.offset}`,
    ),
  );
  if (reverse) rows.reverse();
  return {
    records: rows.map(recipientOf),
    pagination: paginate(q.page, q.perPage, count),
    ...(capped && { count_capped: true }),
  };
}

/**
 * One recipient's timeline, oldest first: its stored events (opens, clicks, answers other than
 * delivered, unsubscribes, complaints), with its row's `sent_at` and `delivered_at` as the 'sent' and
 * 'delivered' entries (the sender records them there, not as events). Rows recorded before that kept
 * their 'sent' and 'delivered' events: a time from the row is shown only when no such event was stored.
 * At the same instant, sent comes before delivered, and both before the stored events.
 */
export async function recipientEvents(
  db: Database,
  source: LogSource,
  recipientId: string,
): Promise<DeliveryEventList> {
  const id = /^[1-9][0-9]{0,15}$/.test(recipientId) ? Number(recipientId) : null;
  const [found] =
    id !== null && Number.isSafeInteger(id)
      ? await queryRows(
          db,
          sql`select sent_at, delivered_at from campaign_recipients where id = ${id} and ${ofSource(sql`campaign_id`, source)}`,
        )
      : [];
  if (!found || id === null) throw notFound(RECIPIENT_NOT_FOUND);
  const rows = await queryRows(
    db,
    sql`select type, at, machine, detail from (
          select id, type, at, machine, detail from campaign_events where recipient_id = ${id}
           order by id limit ${MAX_RECIPIENT_EVENTS}) e
         order by at, id`,
  );
  const stored = rows.map((row) => ({
    // The recorders write only CAMPAIGN_EVENT_TYPES.
    type: (textOf(row, 'type') ?? 'sent') as CampaignEventType,
    at: iso(row, 'at') ?? '',
    machine: row.machine === true,
    detail: textOf(row, 'detail'),
  }));
  const fromRow = (['sent', 'delivered'] as const).flatMap((type) => {
    const at = iso(found, `${type}_at`);
    return at === null || stored.some((e) => e.type === type) ? [] : [{ type, at, machine: false, detail: null }];
  });
  // A stable sort: entries of the same instant keep the order above.
  return { records: [...fromRow, ...stored].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)) };
}

/** The links clicked, most clicked first. */
export async function deliveryLinks(db: Database, source: LogSource): Promise<DeliveryLinkList> {
  const rows = await queryRows(
    db,
    sql`select url, clicks, unique_clicks from campaign_links where ${ofSource(sql`campaign_id`, source)}
         order by clicks desc, index limit ${MAX_LINKS}`,
  );
  return {
    records: rows.map((row) => ({
      url: textOf(row, 'url') ?? '',
      clicks: intOf(row, 'clicks'),
      unique_clicks: intOf(row, 'unique_clicks'),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// CSV export
// ---------------------------------------------------------------------------------------------

export const EXPORT_COLUMNS = [
  'address',
  'channel',
  'status',
  'attempts',
  'sent_at',
  'opened_at',
  'clicked_at',
  'unsubscribed_at',
  'error',
] as const;

/** `delivery-log-2026-05-01.csv` */
export function exportFileName(now: Date): string {
  return `delivery-log-${now.toISOString().slice(0, 10)}.csv`;
}

/** The recipients of a filter, by address, EXPORT_SLICE at a time (keyset on the address index). */
async function* recipientSlices(db: Database, source: LogSource, filter: RecipientFilter): AsyncGenerator<string> {
  const where = recipientWhere(source, filter);
  let after: string | null = null;
  for (;;) {
    const from: SQL = after === null ? sql`true` : sql`r.address > ${after}`;
    const rows = await readInIndexOrder(db, (d) =>
      queryRows(
        d,
        sql`select ${RECIPIENT_COLUMNS} from campaign_recipients r where ${where} and ${from}
             order by r.address limit ${EXPORT_SLICE}`,
      ),
    );
    if (rows.length === 0) return;
    yield rows
      .map(recipientOf)
      .map((r) =>
        csvLine([
          r.address,
          r.channel,
          r.status,
          r.attempts,
          r.sent_at,
          r.opened_at,
          r.clicked_at,
          r.unsubscribed_at,
          r.error,
        ]),
      )
      .join('');
    if (rows.length < EXPORT_SLICE) return;
    after = textOf(rows[rows.length - 1] ?? {}, 'address');
    await yieldToRequests();
  }
}

/** The file as chunks: the BOM and header with the first slice, then a chunk per slice. */
export function exportRecipients(db: Database, source: LogSource, filter: RecipientFilter): AsyncGenerator<string> {
  return headedChunks(CSV_BOM + csvLine(EXPORT_COLUMNS), recipientSlices(db, source, filter));
}
