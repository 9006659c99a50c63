/**
 * Campaign rows as the wire shows them (spec section 3 style: `_id`, snake_case): the grid's summary
 * with its figures and rates, the whole campaign for compose, and the audience in words.
 */
import type { AudienceSelection, Campaign, CampaignSummary } from '../contracts';
import { campaignStats } from './campaign-stats';
import type { CampaignRow } from '../db/schema';

/** What an empty audience reads as in the grid. */
export const NO_AUDIENCE = 'No audience yet';

/** A name for an id of a list or segment that is gone (deleted since it was chosen). */
const DELETED = '(deleted)';

/** Every list and segment id a selection names. */
export function selectionIds(selection: AudienceSelection): string[] {
  return [
    ...selection.include_lists,
    ...selection.include_segments,
    ...selection.exclude_lists,
    ...selection.exclude_segments,
  ];
}

/**
 * The audience in words: included lists and segments, then ' − ' and the excluded ones
 * ('Newsletter, Holders − Bounced'); 'No audience yet' when nothing is included.
 */
export function audienceLabel(selection: AudienceSelection, names: ReadonlyMap<string, string>): string {
  const nameOf = (id: string) => names.get(id) ?? DELETED;
  const included = [...selection.include_lists, ...selection.include_segments].map(nameOf);
  if (included.length === 0) return NO_AUDIENCE;
  const excluded = [...selection.exclude_lists, ...selection.exclude_segments].map(nameOf);
  return excluded.length > 0 ? `${included.join(', ')} − ${excluded.join(', ')}` : included.join(', ');
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toCampaignSummary(row: CampaignRow, names: ReadonlyMap<string, string>): CampaignSummary {
  return {
    _id: row.id,
    name: row.name,
    subject: row.subject,
    status: row.status,
    audience_label: audienceLabel(row.audience, names),
    scheduled_at: iso(row.scheduledAt),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    stats: campaignStats(row),
    failure_reason: row.failureReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toCampaign(row: CampaignRow, names: ReadonlyMap<string, string>): Campaign {
  return {
    ...toCampaignSummary(row, names),
    preview_text: row.previewText,
    template_id: row.templateId,
    audience: row.audience,
    from_name: row.fromName,
    from_email: row.fromEmail,
    reply_to: row.replyTo,
    track_opens: row.trackOpens,
    track_clicks: row.trackClicks,
    utm: row.utm,
    time_zone: row.timeZone,
    version: row.version,
  };
}

/** 'Spring Drop 2026!' -> 'spring-drop-2026' (the default utm_campaign). */
export function slugOf(name: string, max = 100): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}
