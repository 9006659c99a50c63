/**
 * The campaign lifecycle (issue text "Status rules", the rules themselves in campaign-rules.ts):
 * send now, schedule (and reschedule), unschedule, pause, resume and cancel, each one guarded update
 * of the campaign row (status checked in the same statement, version bumped), then the send queue.
 *
 * Before a send or a schedule: the campaign must be complete (subject, template, sender, an audience
 * that reaches someone: 400 with field errors), and fit in what is left of the plan's e-mail volume
 * this period (402 saying by how many; spec section 3 usage, section 9 number format).
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { CAMPAIGN_LIMITS, type Campaign, type CampaignSend, type CampaignStatus } from '../contracts';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { campaignRecipients, campaigns, templates, type CampaignRow } from '../db/schema';
import { badRequest, conflict, HttpError, type FieldErrors } from '../errors';
import type { JobRunner } from '../jobs/index';
import { countAudience } from './audience';
import { allows, CAMPAIGN_RULES, type CampaignAction } from './campaign-rules';
import { audienceErrors, campaignOut, campaignRow, TEMPLATE_NOT_USABLE } from './campaign-store';
import { enqueueCampaign } from './sender/queue';
import { emailAllowance, reservedEmails, volumeRefusal } from './usage';

export { allows, nextStatus, CAMPAIGN_RULES, type CampaignAction } from './campaign-rules';
import { senderRefusal } from '../domains/index';

export interface LifecycleContext {
  db: Database;
  jobs: JobRunner;
  config: Pick<Config, 'campaigns'>;
  now: Date;
}

export const NOT_READY = 'This e-mail is not ready to send yet.';
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Checks before sending
// ---------------------------------------------------------------------------------------------

/** When to send: null for now; a 400 for a time that is not an instant in the allowed window. */
export function scheduleTime(raw: string | null | undefined, now: Date): Date | null {
  if (raw === undefined || raw === null || raw.trim() === '') return null;
  const value = raw.trim();
  const at = new Date(value);
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(value) || Number.isNaN(at.getTime())) {
    throw badRequest(NOT_READY, {
      scheduled_at: ['Give a date and time with its offset from UTC, e.g. 2026-12-01T09:00:00Z.'],
    });
  }
  if (at.getTime() <= now.getTime()) throw badRequest(NOT_READY, { scheduled_at: ['Choose a time in the future.'] });
  if (at.getTime() > now.getTime() + CAMPAIGN_LIMITS.scheduleAheadDays * DAY_MS) {
    throw badRequest(NOT_READY, {
      scheduled_at: [`Choose a time at most ${CAMPAIGN_LIMITS.scheduleAheadDays} days ahead.`],
    });
  }
  return at;
}

/** An IANA time zone name ('Europe/Berlin'), or a 400. */
export function timeZoneOf(raw: string | undefined, fallback: string): string {
  const zone = raw?.trim() || fallback;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    throw badRequest(NOT_READY, { time_zone: ['Choose a time zone from the list.'] });
  }
}

/**
 * What is missing before the campaign can go out (field errors: subject, template_id, from_email,
 * audience), and otherwise how many it reaches.
 */
async function readyToSend(ctx: LifecycleContext, row: CampaignRow): Promise<number> {
  const errors: FieldErrors = {};
  if (row.subject.trim() === '') errors.subject = ['Add a subject.'];
  if (row.fromEmail === '') errors.from_email = ['Enter the sender address.'];
  else {
    const refused = await senderRefusal(ctx.db, row.tenantId, row.fromEmail, ctx.config.campaigns.defaultFrom);
    if (refused) errors.from_email = [refused];
  }
  if (!row.templateId) errors.template_id = ['Choose a template.'];
  else {
    const [template] = await ctx.db
      .select({ kind: templates.kind })
      .from(templates)
      .where(and(eq(templates.id, row.templateId), eq(templates.tenantId, row.tenantId)));
    if (template?.kind !== 'marketing') errors.template_id = [TEMPLATE_NOT_USABLE];
  }
  const selection = row.audience;
  let reachable = 0;
  if (selection.include_lists.length + selection.include_segments.length === 0) {
    errors.audience = ['Choose who receives this e-mail: add a list or a segment.'];
  } else {
    const wrong = await audienceErrors(ctx.db, row.tenantId, selection);
    if (Object.keys(wrong).length > 0) Object.assign(errors, wrong);
    else {
      reachable = (await countAudience(ctx.db, row.tenantId, selection, ctx.config.campaigns.walletMailDomain))
        .reachable;
      if (reachable === 0) {
        errors.audience = ['Nobody in this audience can receive it. See who is left out and why.'];
      }
    }
  }
  if (Object.keys(errors).length > 0) throw badRequest(NOT_READY, errors);
  return reachable;
}

/** 402 when `needed` e-mails do not fit in the plan's volume left this period (sent and reserved counted). */
export async function checkVolume(
  ctx: LifecycleContext,
  tenantId: string,
  needed: number,
  campaignId: string,
): Promise<void> {
  const allowance = await emailAllowance(ctx.db, tenantId, ctx.now);
  const reserved = await reservedEmails(ctx.db, tenantId, ctx.config.campaigns.walletMailDomain, campaignId);
  const refusal = volumeRefusal(needed, allowance.limit - allowance.used - reserved);
  if (refusal) throw new HttpError(402, refusal);
}

/** Recipients of a paused campaign still to send (its audience when not taken yet). */
async function stillToSend(ctx: LifecycleContext, row: CampaignRow): Promise<number> {
  if (row.audienceTakenAt === null) {
    return (await countAudience(ctx.db, row.tenantId, row.audience, ctx.config.campaigns.walletMailDomain)).reachable;
  }
  const [left] = await ctx.db
    .select({ n: count() })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.campaignId, row.id),
        inArray(campaignRecipients.status, ['queued', 'deferred', 'sending']),
      ),
    );
  return left?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Transitions
// ---------------------------------------------------------------------------------------------

type Changes = Partial<typeof campaigns.$inferInsert>;

/**
 * Moves the campaign by `action` in one guarded statement (its status must still allow it), bumping
 * its version; 409 with the rule's reason otherwise.
 */
async function move(
  ctx: LifecycleContext,
  row: CampaignRow,
  action: CampaignAction,
  changes: Changes = {},
): Promise<CampaignRow> {
  const rule = CAMPAIGN_RULES[action];
  if (!allows(action, row.status) || rule.to === null) throw conflict(rule.refused);
  const [moved] = await ctx.db
    .update(campaigns)
    .set({ ...changes, status: rule.to, version: sql`${campaigns.version} + 1`, updatedAt: sql`now()` })
    .where(
      and(eq(campaigns.id, row.id), eq(campaigns.tenantId, row.tenantId), inArray(campaigns.status, [...rule.from])),
    )
    .returning();
  if (!moved) throw conflict(rule.refused);
  return moved;
}

/** Queues the send job; if that fails the campaign goes back to where it was (and the error is raised). */
async function enqueueOrUndo(ctx: LifecycleContext, moved: CampaignRow, before: CampaignRow, at?: Date) {
  try {
    await enqueueCampaign(ctx.jobs, moved.id, at);
  } catch (error) {
    await ctx.db
      .update(campaigns)
      .set({
        status: before.status,
        scheduledAt: before.scheduledAt,
        timeZone: before.timeZone,
        version: sql`${campaigns.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(campaigns.id, moved.id), eq(campaigns.status, moved.status)));
    throw error;
  }
}

/**
 * Checks the plan's volume and moves the campaign in one transaction that holds the tenant's row, so
 * that sends of one tenant at the same moment never pass the plan's volume together: the second waits
 * for the first to commit and then counts what the first reserves.
 */
async function reserveAndMove(
  ctx: LifecycleContext,
  row: CampaignRow,
  needed: (ctx: LifecycleContext) => Promise<number>,
  action: CampaignAction,
  changes: Changes,
): Promise<CampaignRow> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from tenants where id = ${row.tenantId}::uuid for update`);
    const locked = { ...ctx, db: tx };
    await checkVolume(locked, row.tenantId, await needed(locked), row.id);
    return move(locked, row, action, changes);
  });
}

/**
 * POST /v1/campaigns/{id}/send: now (→ sending) or at `scheduled_at` (→ scheduled; a scheduled
 * campaign is scheduled again, and the job of its earlier time finds it not due and does nothing).
 */
export async function sendCampaign(
  ctx: LifecycleContext,
  tenantId: string,
  id: string,
  body: CampaignSend,
): Promise<Campaign> {
  const row = await campaignRow(ctx.db, tenantId, id);
  const at = scheduleTime(body.scheduled_at, ctx.now);
  const action: CampaignAction = at ? 'schedule' : 'send';
  if (!allows(action, row.status)) throw conflict(CAMPAIGN_RULES[action].refused);
  const timeZone = timeZoneOf(body.time_zone, row.timeZone);
  const reachable = await readyToSend(ctx, row);
  const moved = await reserveAndMove(ctx, row, async () => reachable, action, {
    scheduledAt: at,
    timeZone,
    failureReason: null,
  });
  await enqueueOrUndo(ctx, moved, row, at ?? undefined);
  return campaignOut(ctx.db, moved);
}

/** POST /v1/campaigns/{id}/unschedule: back to a draft (its job, when it comes, finds nothing to do). */
export async function unscheduleCampaign(ctx: LifecycleContext, tenantId: string, id: string): Promise<Campaign> {
  const row = await campaignRow(ctx.db, tenantId, id);
  return campaignOut(ctx.db, await move(ctx, row, 'unschedule', { scheduledAt: null }));
}

/** POST /v1/campaigns/{id}/pause: the sender stops at its next slice. */
export async function pauseCampaign(ctx: LifecycleContext, tenantId: string, id: string): Promise<Campaign> {
  const row = await campaignRow(ctx.db, tenantId, id);
  return campaignOut(ctx.db, await move(ctx, row, 'pause'));
}

/** POST /v1/campaigns/{id}/resume: sending again where it stopped, if what is left still fits the plan. */
export async function resumeCampaign(ctx: LifecycleContext, tenantId: string, id: string): Promise<Campaign> {
  const row = await campaignRow(ctx.db, tenantId, id);
  if (!allows('resume', row.status)) throw conflict(CAMPAIGN_RULES.resume.refused);
  const moved = await reserveAndMove(ctx, row, (tx) => stillToSend(tx, row), 'resume', { failureReason: null });
  await enqueueOrUndo(ctx, moved, row);
  return campaignOut(ctx.db, moved);
}

const STARTED: readonly CampaignStatus[] = ['sending', 'paused'];

/** POST /v1/campaigns/{id}/cancel: nobody else gets it; a campaign that had started is finished now. */
export async function cancelCampaign(ctx: LifecycleContext, tenantId: string, id: string): Promise<Campaign> {
  const row = await campaignRow(ctx.db, tenantId, id);
  const finishedAt = STARTED.includes(row.status) ? ctx.now : null;
  return campaignOut(ctx.db, await move(ctx, row, 'cancel', { finishedAt }));
}
