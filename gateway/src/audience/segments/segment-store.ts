/**
 * Saved segments of one tenant, and the preview (live count and first matches) of a rule. Rules are
 * checked by the same compiler on save as on count, so a stored rule always compiles (unless an
 * attribute it names was deleted since: then counting it is a 400 naming that field). A rule on a
 * contract no longer watched is refused on save and in the preview of a rule being edited, and matches
 * nobody in a segment saved before (segment-context.ts).
 */
import { and, asc, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type {
  Segment,
  SegmentGroup,
  SegmentInput,
  SegmentListQuery,
  SegmentPage,
  SegmentPreview,
  SegmentPreviewBody,
} from '../../contracts';
import type { Database } from '../../db/index';
import { contacts, segments, type SegmentRow } from '../../db/schema';
import { badRequest, HttpError, notFound, type FieldErrors, INVALID_INPUT } from '../../errors';
import { likePattern, paginate, pageWindow } from '../../lib/pagination';
import { toContacts } from '../contacts/contact-wire';
import { isUuid, uniqueViolation } from '../../lib/db-helpers';
import { readThroughIndexes } from '../../db/storage';
import { SEGMENT_RULES_MESSAGE, segmentCondition, segmentWhere } from './segment-sql';
import { segmentContext } from './segment-context';

export const DUPLICATE_SEGMENT_NAME = 'A segment with this name already exists.';
export const SEGMENT_NOT_FOUND = 'Segment not found.';

export function toSegment(row: SegmentRow): Segment {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    rule: row.rule,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const SORT: Record<SegmentListQuery['sortField'], SQL> = {
  created_at: sql`${segments.createdAt}`,
  name: sql`lower(${segments.name})`,
  updated_at: sql`${segments.updatedAt}`,
};

/** GET /v1/segments: search on the name (anywhere in it), sorted, paged. */
export async function listSegments(db: Database, tenantId: string, q: SegmentListQuery): Promise<SegmentPage> {
  const conditions: SQL[] = [eq(segments.tenantId, tenantId)];
  const search = q.searchString.trim();
  if (search) conditions.push(ilike(segments.name, likePattern(search)));
  const where = and(...conditions);
  const [total] = await db.select({ n: count() }).from(segments).where(where);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const rows = await db
    .select()
    .from(segments)
    .where(where)
    .orderBy(direction(SORT[q.sortField]), direction(segments.id))
    .limit(limit)
    .offset(offset);
  return { records: rows.map(toSegment), pagination: paginate(q.page, q.perPage, total?.n ?? 0) };
}

const tenantSegment = (id: string, tenantId: string) => and(eq(segments.id, id), eq(segments.tenantId, tenantId));

/** The tenant's segment, or null (ids of other tenants and malformed ids alike). */
export async function findSegment(db: Database, tenantId: string, id: string): Promise<SegmentRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(segments).where(tenantSegment(id, tenantId));
  return row ?? null;
}

export async function getSegment(db: Database, tenantId: string, id: string): Promise<Segment> {
  const row = await findSegment(db, tenantId, id);
  if (!row) throw notFound(SEGMENT_NOT_FOUND);
  return toSegment(row);
}

/** Messages for a rule that does not compile against the tenant's fields (none when it does). */
async function ruleErrors(db: Database, tenantId: string, rule: SegmentGroup): Promise<string[]> {
  try {
    segmentCondition(rule, await segmentContext(db, tenantId, 'refuse'));
    return [];
  } catch (error) {
    if (error instanceof HttpError && error.errors?.rule) return error.errors.rule;
    throw error;
  }
}

async function nameTaken(db: Database, tenantId: string, name: string, exceptId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.tenantId, tenantId), sql`lower(${segments.name}) = lower(${name})`))
    .limit(1);
  return row !== undefined && row.id !== exceptId;
}

/** One 400 naming every problem: `errors.rule` (from the compiler) and `errors.name` (taken). */
async function checkInput(db: Database, tenantId: string, input: SegmentInput, exceptId: string | null) {
  const errors: FieldErrors = {};
  const rule = await ruleErrors(db, tenantId, input.rule);
  if (rule.length > 0) errors.rule = rule;
  if (await nameTaken(db, tenantId, input.name, exceptId)) errors.name = [DUPLICATE_SEGMENT_NAME];
  if (errors.name) throw badRequest(INVALID_INPUT, errors);
  if (errors.rule) throw badRequest(SEGMENT_RULES_MESSAGE, errors);
}

/** A concurrent save that took the name first. */
function duplicateName(error: unknown): Error | null {
  return uniqueViolation(error) === 'segments_tenant_name_idx'
    ? badRequest(INVALID_INPUT, { name: [DUPLICATE_SEGMENT_NAME] })
    : null;
}

export async function createSegment(db: Database, tenantId: string, input: SegmentInput): Promise<Segment> {
  await checkInput(db, tenantId, input, null);
  try {
    const [row] = await db
      .insert(segments)
      .values({ tenantId, name: input.name, description: input.description, rule: input.rule })
      .returning();
    if (!row) throw new Error('segment was not stored');
    return toSegment(row);
  } catch (error) {
    throw duplicateName(error) ?? error;
  }
}

export async function updateSegment(db: Database, tenantId: string, id: string, input: SegmentInput): Promise<Segment> {
  const existing = await findSegment(db, tenantId, id);
  if (!existing) throw notFound(SEGMENT_NOT_FOUND);
  await checkInput(db, tenantId, input, existing.id);
  try {
    const [row] = await db
      .update(segments)
      .set({ name: input.name, description: input.description, rule: input.rule, updatedAt: sql`now()` })
      .where(tenantSegment(existing.id, tenantId))
      .returning();
    if (!row) throw notFound(SEGMENT_NOT_FOUND);
    return toSegment(row);
  } catch (error) {
    throw duplicateName(error) ?? error;
  }
}

export async function deleteSegment(db: Database, tenantId: string, id: string): Promise<void> {
  const deleted = isUuid(id)
    ? await db.delete(segments).where(tenantSegment(id, tenantId)).returning({ id: segments.id })
    : [];
  if (deleted.length === 0) throw notFound(SEGMENT_NOT_FOUND);
}

/**
 * POST /v1/segments/preview: how many of the tenant's contacts match (the count a send would reach:
 * the same `segmentWhere`) and the newest `limit` of them.
 */
export async function previewSegment(
  db: Database,
  tenantId: string,
  body: SegmentPreviewBody,
): Promise<SegmentPreview> {
  const context = await segmentContext(db, tenantId, 'refuse');
  const where = segmentWhere(tenantId, body.rule, context);
  // Through the tenant's indexes, never a scan of the table that holds every tenant's contacts.
  const [total, rows] = await readThroughIndexes(db, (q) =>
    Promise.all([
      q.select({ n: count() }).from(contacts).where(where),
      body.limit === 0
        ? Promise.resolve([])
        : q.select().from(contacts).where(where).orderBy(desc(contacts.createdAt), desc(contacts.id)).limit(body.limit),
    ]),
  );
  return { count: total[0]?.n ?? 0, records: await toContacts(db, rows, context.attributes) };
}
