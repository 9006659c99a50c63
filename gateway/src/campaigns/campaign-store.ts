/**
 * Campaigns of one tenant as stored: the grid query, reading, creating, saving (autosave with a base
 * version), duplicating and deleting. Every query is scoped by the tenant; another tenant's id (or a
 * malformed one) is simply not found. Ids a campaign refers to (lists, segments, template) must be
 * the tenant's: anything else is a 400 naming the field.
 */
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  AudienceSelection,
  Campaign,
  CampaignCreate,
  CampaignListQuery,
  CampaignPage,
  CampaignUpdate,
} from '../contracts';
import { CAMPAIGN_LIMITS } from '../contracts';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { campaigns, communities, lists, segments, templates, tenants, type CampaignRow } from '../db/schema';
import { badRequest, conflict, INVALID_INPUT, notFound, type FieldErrors } from '../errors';
import { isUuid, validIds } from '../lib/db-helpers';
import { likePattern, paginate, pageWindow } from '../lib/pagination';
import { normaliseEmail } from '../audience/index';
import { senderRefusal } from '../domains/index';
import { allows, CAMPAIGN_RULES } from './campaign-rules';
import { selectionIds, slugOf, toCampaign, toCampaignSummary } from './campaign-wire';

export const CAMPAIGN_NOT_FOUND = 'E-mail not found.';
export const STALE_VERSION =
  'A newer version of this e-mail was saved in another tab. Reload it to see the latest changes.';

// Carriers of transactional messages (kind 'transactional') are not e-mails of the grid or the compose API.
const scoped = (id: string, tenantId: string) =>
  and(eq(campaigns.id, id), eq(campaigns.tenantId, tenantId), eq(campaigns.kind, 'campaign'));

/** The tenant's campaign row, or 404. */
export async function campaignRow(db: Database, tenantId: string, id: string): Promise<CampaignRow> {
  const [row] = isUuid(id) ? await db.select().from(campaigns).where(scoped(id, tenantId)) : [];
  if (!row) throw notFound(CAMPAIGN_NOT_FOUND);
  return row;
}

/** Names of the tenant's lists and segments among `ids` (for the audience in words). */
export async function audienceNames(
  db: Database,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const valid = validIds(ids);
  const names = new Map<string, string>();
  if (valid.length === 0) return names;
  const [listRows, segmentRows] = await Promise.all([
    db
      .select({ id: lists.id, name: lists.name })
      .from(lists)
      .where(and(eq(lists.tenantId, tenantId), inArray(lists.id, valid))),
    db
      .select({ id: segments.id, name: segments.name })
      .from(segments)
      .where(and(eq(segments.tenantId, tenantId), inArray(segments.id, valid))),
  ]);
  for (const r of [...listRows, ...segmentRows]) names.set(r.id, r.name);
  return names;
}

/** The campaign on the wire, its audience named. */
export async function campaignOut(db: Database, row: CampaignRow): Promise<Campaign> {
  return toCampaign(row, await audienceNames(db, row.tenantId, selectionIds(row.audience)));
}

/** GET /v1/campaigns/{id}. */
export async function getCampaign(db: Database, tenantId: string, id: string): Promise<Campaign> {
  return campaignOut(db, await campaignRow(db, tenantId, id));
}

const SORT: Record<CampaignListQuery['sortField'], SQL> = {
  updated_at: sql`${campaigns.updatedAt}`,
  created_at: sql`${campaigns.createdAt}`,
  name: sql`lower(${campaigns.name})`,
  scheduled_at: sql`${campaigns.scheduledAt}`,
};

/**
 * GET /v1/campaigns: the spec's list behaviour (section 4: page, size, sort, order, search), search
 * on the name (anywhere in it), a status filter. Each sort is one of the (tenant, key, id) indexes.
 */
export async function listCampaigns(db: Database, tenantId: string, q: CampaignListQuery): Promise<CampaignPage> {
  const conditions: SQL[] = [eq(campaigns.tenantId, tenantId), eq(campaigns.kind, 'campaign')];
  const search = q.searchString.trim();
  if (search) conditions.push(ilike(campaigns.name, likePattern(search)));
  if (q.status) conditions.push(eq(campaigns.status, q.status));
  const where = and(...conditions);
  const direction = q.sortOrder === 'asc' ? asc : desc;
  const { offset, limit } = pageWindow(q.page, q.perPage);
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(campaigns).where(where),
    db
      .select()
      .from(campaigns)
      .where(where)
      .orderBy(direction(SORT[q.sortField]), direction(campaigns.id))
      .limit(limit)
      .offset(offset),
  ]);
  const names = await audienceNames(
    db,
    tenantId,
    rows.flatMap((r) => selectionIds(r.audience)),
  );
  return {
    records: rows.map((r) => toCampaignSummary(r, names)),
    pagination: paginate(q.page, q.perPage, total?.n ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Validation of what a campaign refers to
// ---------------------------------------------------------------------------------------------

const NOT_YOURS = {
  include_lists: 'Some of these lists do not exist (any more). Choose lists again.',
  exclude_lists: 'Some of these lists do not exist (any more). Choose lists again.',
  include_segments: 'Some of these segments do not exist (any more). Choose segments again.',
  exclude_segments: 'Some of these segments do not exist (any more). Choose segments again.',
} as const;

/** Field errors for list and segment ids that are not the tenant's (keys `audience.include_lists`, ...). */
export async function audienceErrors(
  db: Database,
  tenantId: string,
  selection: AudienceSelection,
  prefix = 'audience.',
): Promise<FieldErrors> {
  const known = await audienceNames(db, tenantId, selectionIds(selection));
  const errors: FieldErrors = {};
  for (const field of ['include_lists', 'include_segments', 'exclude_lists', 'exclude_segments'] as const) {
    if (selection[field].some((id) => !known.has(id.toLowerCase()) && !known.has(id))) {
      errors[`${prefix}${field}`] = [NOT_YOURS[field]];
    }
  }
  return errors;
}

/** The selection with each id once (lower-cased as stored). */
function tidySelection(selection: AudienceSelection): AudienceSelection {
  const once = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];
  return {
    include_lists: once(selection.include_lists),
    include_segments: once(selection.include_segments),
    exclude_lists: once(selection.exclude_lists),
    exclude_segments: once(selection.exclude_segments),
  };
}

export const TEMPLATE_NOT_USABLE = 'Choose one of your marketing templates.';

/** The tenant's marketing template, or a field error. */
async function marketingTemplate(
  db: Database,
  tenantId: string,
  id: string,
): Promise<{ subject: string; previewText: string } | null> {
  const [row] = isUuid(id)
    ? await db
        .select({ subject: templates.subject, previewText: templates.previewText, kind: templates.kind })
        .from(templates)
        .where(and(eq(templates.id, id), eq(templates.tenantId, tenantId)))
    : [];
  return row && row.kind === 'marketing' ? row : null;
}

/** An address field: '' stays '' (not set yet), else a valid e-mail address (lower-cased). */
function address(value: string | undefined, field: string, errors: FieldErrors): string | undefined {
  if (value === undefined) return undefined;
  const result = normaliseEmail(value);
  if (!result.ok) {
    errors[field] = [result.reason];
    return undefined;
  }
  return result.value ?? '';
}

// ---------------------------------------------------------------------------------------------
// Create, save, duplicate, delete
// ---------------------------------------------------------------------------------------------

/**
 * What a new e-mail starts with (General Settings): the default sender name, else the community's
 * name (its title, else the tenant's name); the default reply-to address, else none ('').
 */
async function senderDefaults(db: Database, tenantId: string): Promise<{ fromName: string; replyTo: string }> {
  const [row] = await db
    .select({
      tenantName: tenants.name,
      title: communities.title,
      senderName: tenants.defaultSenderName,
      replyTo: tenants.defaultReplyTo,
    })
    .from(tenants)
    .leftJoin(communities, eq(communities.tenantId, tenants.id))
    .where(eq(tenants.id, tenantId));
  const fromName = row?.senderName?.trim() || row?.title?.trim() || row?.tenantName || '';
  return { fromName: fromName.slice(0, CAMPAIGN_LIMITS.fromName), replyTo: row?.replyTo ?? '' };
}

/**
 * POST /v1/campaigns: a new draft (from a template: its subject and preview text are copied). From
 * name and reply-to are General Settings' defaults, from address the platform's sender, opens and clicks tracked, UTM source
 * 'community-console', medium 'email', campaign a slug of the name.
 */
export async function createCampaign(
  db: Database,
  config: Pick<Config, 'campaigns'>,
  tenantId: string,
  userId: string | null,
  input: CampaignCreate,
): Promise<Campaign> {
  let content = { subject: '', previewText: '' };
  const templateId = input.template_id ?? null;
  if (templateId) {
    const template = await marketingTemplate(db, tenantId, templateId);
    if (!template) throw badRequest(INVALID_INPUT, { template_id: [TEMPLATE_NOT_USABLE] });
    content = template;
  }
  const [row] = await db
    .insert(campaigns)
    .values({
      tenantId,
      name: input.name,
      subject: content.subject.slice(0, CAMPAIGN_LIMITS.subject),
      previewText: content.previewText.slice(0, CAMPAIGN_LIMITS.previewText),
      templateId: templateId ? templateId.toLowerCase() : null,
      ...(await senderDefaults(db, tenantId)),
      fromEmail: config.campaigns.defaultFrom,
      trackOpens: true,
      trackClicks: true,
      utm: { source: 'community-console', medium: 'email', campaign: slugOf(input.name), term: '', content: '' },
      createdBy: userId,
    })
    .returning();
  if (!row) throw new Error('campaign was not stored');
  return campaignOut(db, row);
}

/**
 * PATCH /v1/campaigns/{id}: drafts and scheduled campaigns (a scheduled one keeps its schedule).
 * Every save bumps the version; a save on a stale `base_version` is refused (409) and changes nothing.
 */
export async function updateCampaign(
  db: Database,
  tenantId: string,
  id: string,
  input: CampaignUpdate,
  platformFrom: string,
): Promise<Campaign> {
  const current = await campaignRow(db, tenantId, id);
  if (!allows('edit', current.status)) throw conflict(CAMPAIGN_RULES.edit.refused);
  if (input.base_version !== undefined && input.base_version !== current.version) throw conflict(STALE_VERSION);

  const errors: FieldErrors = {};
  const set: Partial<typeof campaigns.$inferInsert> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.subject !== undefined) set.subject = input.subject;
  if (input.preview_text !== undefined) set.previewText = input.preview_text;
  if (input.from_name !== undefined) set.fromName = input.from_name.trim();
  const from = address(input.from_email, 'from_email', errors);
  if (from !== undefined) {
    const refused = await senderRefusal(db, tenantId, from, platformFrom);
    if (refused) errors.from_email = [refused];
    else set.fromEmail = from;
  }
  const replyTo = address(input.reply_to, 'reply_to', errors);
  if (replyTo !== undefined) set.replyTo = replyTo;
  if (input.track_opens !== undefined) set.trackOpens = input.track_opens;
  if (input.track_clicks !== undefined) set.trackClicks = input.track_clicks;
  if (input.utm !== undefined) set.utm = input.utm;
  if (input.template_id !== undefined) {
    if (input.template_id === null) set.templateId = null;
    else if (await marketingTemplate(db, tenantId, input.template_id)) set.templateId = input.template_id.toLowerCase();
    else errors.template_id = [TEMPLATE_NOT_USABLE];
  }
  if (input.audience !== undefined) {
    Object.assign(errors, await audienceErrors(db, tenantId, input.audience));
    set.audience = tidySelection(input.audience);
  }
  if (Object.keys(errors).length > 0) throw badRequest(INVALID_INPUT, errors);

  const editable = inArray(campaigns.status, [...CAMPAIGN_RULES.edit.from]);
  const [row] = await db
    .update(campaigns)
    .set({ ...set, version: sql`${campaigns.version} + 1`, updatedAt: sql`now()` })
    .where(and(scoped(current.id, tenantId), eq(campaigns.version, current.version), editable))
    .returning();
  if (row) return campaignOut(db, row);
  // Another save or a status change came in between.
  const now = await campaignRow(db, tenantId, id);
  if (!allows('edit', now.status)) throw conflict(CAMPAIGN_RULES.edit.refused);
  throw conflict(STALE_VERSION);
}

/** 'Copy of …', within the name's length. */
function copyName(name: string): string {
  return `Copy of ${name}`.slice(0, CAMPAIGN_LIMITS.name).trim();
}

/** POST /v1/campaigns/{id}/duplicate: a draft with the same content and audience, no schedule, no figures. */
export async function duplicateCampaign(
  db: Database,
  tenantId: string,
  userId: string | null,
  id: string,
  name: string | undefined,
): Promise<Campaign> {
  const source = await campaignRow(db, tenantId, id);
  const [row] = await db
    .insert(campaigns)
    .values({
      tenantId,
      name: name ?? copyName(source.name),
      subject: source.subject,
      previewText: source.previewText,
      templateId: source.templateId,
      audience: source.audience,
      fromName: source.fromName,
      fromEmail: source.fromEmail,
      replyTo: source.replyTo,
      trackOpens: source.trackOpens,
      trackClicks: source.trackClicks,
      utm: source.utm,
      timeZone: source.timeZone,
      createdBy: userId,
    })
    .returning();
  if (!row) throw new Error('campaign was not stored');
  return campaignOut(db, row);
}

/** DELETE /v1/campaigns/{id}: drafts, cancelled and failed campaigns (409 otherwise). */
export async function deleteCampaign(db: Database, tenantId: string, id: string): Promise<void> {
  const row = await campaignRow(db, tenantId, id);
  if (!allows('delete', row.status)) throw conflict(CAMPAIGN_RULES.delete.refused);
  const deleted = await db
    .delete(campaigns)
    .where(and(scoped(row.id, tenantId), inArray(campaigns.status, [...CAMPAIGN_RULES.delete.from])))
    .returning({ id: campaigns.id });
  if (deleted.length === 0) throw conflict(CAMPAIGN_RULES.delete.refused);
}
