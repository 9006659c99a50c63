/**
 * The rules of the e-mails screens (spec section 2: engagement/emails, compose, log), as pure
 * functions: what a row offers by status, how rates read, what keeps a campaign from being sent,
 * how the audience count reads, and a schedule's local date and time as an instant.
 */
import type {
  AudienceCount,
  AudienceSelection,
  CampaignStatus,
  CampaignSummary,
  RecipientStatus,
} from '@console/shared/contracts';
import { formatCount } from '@console/shared/format';

export const STATUS_LABELS: Record<CampaignStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export const RECIPIENT_STATUS_LABELS: Record<RecipientStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  handing: 'Awaiting answer',
  delivered: 'Delivered',
  deferred: 'Deferred',
  bounced: 'Bounced',
  failed: 'Failed',
  unconfirmed: 'Unconfirmed',
  skipped: 'Skipped',
};

export type RowAction = 'edit' | 'duplicate' | 'pause' | 'resume' | 'cancel' | 'log' | 'delete';

/** Changeable in compose: drafts and scheduled campaigns (the gateway answers 409 for the rest). */
export function isEditable(status: CampaignStatus): boolean {
  return status === 'draft' || status === 'scheduled';
}

/** Sending has begun (there is a log to show): sending, paused or sent, or a cancelled or failed one that had started. */
export function hasStarted(campaign: Pick<CampaignSummary, 'status' | 'started_at'>): boolean {
  if (campaign.status === 'sending' || campaign.status === 'paused' || campaign.status === 'sent') return true;
  return campaign.started_at !== null;
}

/**
 * A row's actions by status (the status rules of the campaigns API): edit a draft or a scheduled
 * one, duplicate any, pause while sending, resume when paused, cancel until it is done, view the
 * log of anything that started, delete drafts, cancelled and failed ones.
 */
export function rowActions(campaign: Pick<CampaignSummary, 'status' | 'started_at'>): RowAction[] {
  const { status } = campaign;
  const actions: RowAction[] = [];
  if (isEditable(status)) actions.push('edit');
  if (hasStarted(campaign)) actions.push('log');
  actions.push('duplicate');
  if (status === 'sending') actions.push('pause');
  if (status === 'paused') actions.push('resume');
  if (status === 'scheduled' || status === 'sending' || status === 'paused') actions.push('cancel');
  if (status === 'draft' || status === 'cancelled' || status === 'failed') actions.push('delete');
  return actions;
}

/** The grid refreshes its figures while a row is sending (every POLL_MS). */
export const POLL_MS = 3000;

export function anySending(rows: readonly Pick<CampaignSummary, 'status'>[] | undefined): boolean {
  return (rows ?? []).some((row) => row.status === 'sending');
}

const RATE = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** A rate (0..1) as '42.5%'; '—' while nothing is delivered (there is nothing to rate yet). */
export function formatRate(rate: number, delivered: number): string {
  if (delivered <= 0 || !Number.isFinite(rate)) return '—';
  return RATE.format(Math.min(1, Math.max(0, rate)));
}

/** 'n of m' as a whole percent of progress, 0 when there is nothing to send. */
export function progressOf(sent: number, recipients: number): number {
  if (recipients <= 0) return 0;
  return Math.min(100, Math.round((sent / recipients) * 100));
}

// ---------------------------------------------------------------------------------------------
// Compose: steps and what keeps a campaign from being sent
// ---------------------------------------------------------------------------------------------

export const STEPS = ['audience', 'content', 'settings', 'review'] as const;
export type Step = (typeof STEPS)[number];
export const STEP_LABELS: Record<Step, string> = {
  audience: 'Audience',
  content: 'Content',
  settings: 'Settings',
  review: 'Review',
};

export interface Issue {
  step: Exclude<Step, 'review'>;
  field: string;
  message: string;
}

/** What compose edits (and autosaves). */
export interface ComposeDraft {
  name: string;
  subject: string;
  preview_text: string;
  template_id: string | null;
  audience: AudienceSelection;
  from_name: string;
  from_email: string;
  reply_to: string;
  track_opens: boolean;
  track_clicks: boolean;
  utm: { source: string; medium: string; campaign: string; term: string; content: string };
}

export function includesSomething(audience: AudienceSelection): boolean {
  return audience.include_lists.length + audience.include_segments.length > 0;
}

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What is missing before the e-mail can be sent, step by step (the send answers 400 for the same
 * fields: audience, template_id, subject). `count` is the audience count when known: an audience
 * that reaches nobody is incomplete too.
 */
export function incompleteItems(draft: ComposeDraft, count?: AudienceCount | null): Issue[] {
  const issues: Issue[] = [];
  if (!includesSomething(draft.audience)) {
    issues.push({ step: 'audience', field: 'audience', message: 'Choose at least one list or segment to send to.' });
  } else if (count && count.reachable === 0) {
    issues.push({ step: 'audience', field: 'audience', message: 'Nobody in this audience can receive e-mail.' });
  }
  if (!draft.template_id) issues.push({ step: 'content', field: 'template_id', message: 'Choose a template.' });
  if (!draft.subject.trim()) issues.push({ step: 'content', field: 'subject', message: 'Write a subject.' });
  if (draft.from_email.trim() && !ADDRESS.test(draft.from_email.trim())) {
    issues.push({ step: 'settings', field: 'from_email', message: 'The from address is not a valid e-mail address.' });
  }
  if (draft.reply_to.trim() && !ADDRESS.test(draft.reply_to.trim())) {
    issues.push({
      step: 'settings',
      field: 'reply_to',
      message: 'The reply-to address is not a valid e-mail address.',
    });
  }
  return issues;
}

/** The send's 400 field errors as issues of their steps (a field compose does not know goes to content). */
export function issuesFromErrors(errors: Record<string, string[]>): Issue[] {
  const stepOf = (field: string): Issue['step'] => {
    if (field.startsWith('audience')) return 'audience';
    if (
      ['from_name', 'from_email', 'reply_to', 'track_opens', 'track_clicks'].includes(field) ||
      field.startsWith('utm')
    )
      return 'settings';
    return 'content';
  };
  return Object.entries(errors).flatMap(([field, messages]) =>
    messages.slice(0, 1).map((message) => ({ step: stepOf(field), field, message })),
  );
}

// ---------------------------------------------------------------------------------------------
// Audience count
// ---------------------------------------------------------------------------------------------

export interface CountLine {
  key: string;
  label: string;
  value: number;
}

/**
 * How the count reads: who will receive it, per channel (by wallet inbox only when the gateway has a
 * wallet mail domain), then why the others are left out, in the gateway's order (reasons at 0 are left out).
 */
export function audienceLines(count: AudienceCount): { reachable: CountLine[]; leftOut: CountLine[] } {
  const reachable: CountLine[] = [{ key: 'email', label: 'By e-mail address', value: count.email }];
  if (count.wallet_mail_domain) {
    reachable.push({ key: 'wallet', label: `By wallet inbox (@${count.wallet_mail_domain})`, value: count.wallet });
  }
  const reasons: CountLine[] = [
    { key: 'excluded', label: 'Excluded', value: count.excluded },
    { key: 'unsubscribed', label: 'Unsubscribed', value: count.unsubscribed },
    { key: 'bounced', label: 'Bounced', value: count.bounced },
    { key: 'complained', label: 'Marked as spam', value: count.complained },
    {
      key: 'no_address',
      label: count.wallet_mail_domain ? 'No address' : 'No address (wallet only)',
      value: count.no_address,
    },
    { key: 'duplicates', label: 'Same address twice (sent once)', value: count.duplicates },
  ];
  return { reachable, leftOut: reasons.filter((line) => line.value > 0) };
}

/** '1,204 people will receive it.' */
export function receiveText(reachable: number): string {
  if (reachable === 0) return 'Nobody will receive it.';
  return reachable === 1 ? '1 person will receive it.' : `${formatCount(reachable)} people will receive it.`;
}

// ---------------------------------------------------------------------------------------------
// Autosave
// ---------------------------------------------------------------------------------------------

/** A 409 on autosave: another tab (or person) saved a newer version, or the e-mail has started sending. */
export const CONFLICT_MESSAGE =
  'This e-mail was changed in another tab or window. Reload it to see the latest version: your last change here was not saved.';

// ---------------------------------------------------------------------------------------------
// Schedule: a local date and time in a time zone, as an instant
// ---------------------------------------------------------------------------------------------

const partsCache = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsCache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsCache.set(timeZone, format);
  }
  return format;
}

/** The wall-clock fields of an instant in a zone. */
function wallClock(ms: number, timeZone: string) {
  const fields: Record<string, number> = {};
  for (const part of zoneFormat(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? 0,
    month: fields.month ?? 1,
    day: fields.day ?? 1,
    hour: fields.hour ?? 0,
    minute: fields.minute ?? 0,
    second: fields.second ?? 0,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

export function isTimeZone(zone: string): boolean {
  try {
    zoneFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * A date ('2026-12-01') and time ('09:30') on the wall clock of `timeZone`, as an ISO instant; null
 * when either is not a real date or time. A time skipped by a daylight-saving change moves forward
 * with the clock; a repeated one takes its first occurrence.
 */
export function zonedToInstant(date: string, time: string, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t || !isTimeZone(timeZone)) return null;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  if (new Date(asUtc).getUTCDate() !== day) return null;
  // The zone's offsets a day before and a day after: the wall time is one of them (both around a
  // daylight-saving change). Of the instants that show this wall time, the earlier wins; none shows
  // it in a skipped hour, then the offset before the change moves it forward with the clock.
  const before = asUtc - offsetAt(asUtc - 86_400_000, timeZone);
  const after = asUtc - offsetAt(asUtc + 86_400_000, timeZone);
  const exact = [before, after]
    .filter((ms) => {
      const w = wallClock(ms, timeZone);
      return w.year === year && w.month === month && w.day === day && w.hour === hour && w.minute === minute;
    })
    .sort((a, b) => a - b);
  return new Date(exact[0] ?? before).toISOString();
}

/** An instant's date ('2026-12-01') and time ('09:30') on the wall clock of `timeZone`. */
export function instantToZoned(iso: string, timeZone: string): { date: string; time: string } {
  const w = wallClock(Date.parse(iso), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return { date: `${w.year}-${two(w.month)}-${two(w.day)}`, time: `${two(w.hour)}:${two(w.minute)}` };
}

/**
 * Why a schedule cannot be taken: not a date and time, in the past, or more than a year ahead
 * (CAMPAIGN_LIMITS.scheduleAheadDays); null when it is fine.
 */
export function scheduleProblem(instant: string | null, now: number, aheadDays: number): string | null {
  if (instant === null) return 'Choose a date and a time.';
  const at = Date.parse(instant);
  if (at <= now) return 'Choose a time in the future.';
  if (at > now + aheadDays * 86_400_000) return `Choose a time within ${aheadDays} days.`;
  return null;
}

/** 'Dec 1, 2026, 9:30 AM (Europe/Madrid)': a schedule on the wall clock it was chosen in. */
export function formatSchedule(iso: string, timeZone: string): string {
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  const text = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
    new Date(iso),
  );
  return `${text} (${zone})`;
}
