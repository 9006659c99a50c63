/**
 * The messages of a send: the send's context loaded once per run (its template's compiled sources,
 * the sender, the key), then each batch of claimed rows built in the off-loop pool (build.ts), a few
 * recipients per task (docs/sending.md, "Building messages off the event loop").
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import { offLoop, OffLoopRetry } from '../../lib/off-loop/pool';
import { loadCompiled, loadMergeContext } from '../../templates/index';
import { dkimKeyFor, effectiveSender, trackingBaseFor } from '../../domains/index';
import { signingKeys } from '../../mail/signing-keys';
import { campaignSources } from '../campaign-preview';
import { campaignListHeaders } from '../tracking/decorate';
import type { Claimed } from './claim';
import { buildTask, type Built, type CampaignState, type SendContext } from './build';
import { sharedHeaders } from './mime';

export type { Built, CampaignState, Message, SendContext } from './build';

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/**
 * The send's context: the From address (the platform's when the tenant's domain stopped verifying)
 * and the DKIM keys that sign it (mail/signing-keys.ts), the template at the campaign's version with the community's merge
 * values bound. Throws when the template cannot be loaded.
 */
export async function loadSendContext(db: Database, config: Config, campaign: CampaignState): Promise<SendContext> {
  const sender = await effectiveSender(
    db,
    campaign.tenantId,
    { from: campaign.fromEmail, replyTo: campaign.replyTo },
    config.campaigns.defaultFrom,
  );
  const dkim = signingKeys(await dkimKeyFor(db, campaign.tenantId, sender.from), config.platformDkim);
  const trackingUrl =
    (await trackingBaseFor(db, campaign.tenantId, sender.from, config.campaigns.trackingUrl)) ??
    config.campaigns.trackingUrl;
  const templates = { db, publicUrl: config.onboarding.publicUrl };
  // A carrier sends its template's current version (transactional/carriers.ts); a campaign the one it started with.
  const version = campaign.kind === 'transactional' ? null : campaign.templateVersion;
  const loaded = await loadCompiled(templates, campaign.tenantId, campaign.templateId ?? '', version);
  const merge = await loadMergeContext(db, campaign.tenantId, config.onboarding.publicUrl);
  const from = { name: campaign.fromName || merge.community.name, address: sender.from };
  const { walletMailDomain, trackingSecret, unsubscribeMailbox, bounceDomain } = config.campaigns;
  return {
    key: randomUUID(),
    campaign,
    sources: campaignSources(loaded.version, campaign),
    merge,
    from,
    headers: sharedHeaders({ from, ...(sender.replyTo ? { replyTo: sender.replyTo } : {}) }),
    senderDomain: domainOf(from.address),
    trackingUrl,
    listHeaders: campaignListHeaders(campaign, merge.community.name, domainOf(config.campaigns.defaultFrom)),
    dkim,
    settings: { walletMailDomain, trackingSecret, unsubscribeMailbox, bounceDomain },
  };
}

/** Why rows are deferred when the pool gave their task up (past its guard, its worker died, full). */
export const RENDER_TOO_SLOW = 'The e-mail could not be rendered in time: it is tried again later.';

/** Recipients per task of the pool: few enough that a slow template's task stays short, enough to pay the hop. */
export const RECIPIENTS_PER_TASK = 4;

/** A Buffer over what crossed the thread boundary (a Uint8Array after structured cloning). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A send's tasks in the pool at once, per thread: enough that a thread never waits for the next. */
export const TASKS_PER_THREAD = 4;

/**
 * The rows' messages, built in the off-loop pool RECIPIENTS_PER_TASK at a time, in the rows' order. At
 * most TASKS_PER_THREAD tasks per thread are in the pool at once, so a send's batch never queues far
 * ahead of other requests' renders (a preview waits for at most that many of a send's tasks).
 * A task the pool gave up (OffLoopRetry) defers its rows: they are tried again like a 4xx answer.
 */
export async function buildMessages(ctx: SendContext, rows: Claimed[]): Promise<Built[]> {
  const pool = offLoop();
  const chunks: Claimed[][] = [];
  for (let i = 0; i < rows.length; i += RECIPIENTS_PER_TASK) chunks.push(rows.slice(i, i + RECIPIENTS_PER_TASK));
  const built: Built[][] = [];
  const buildChunk = async (chunk: Claimed[]): Promise<Built[]> => {
    try {
      const out = await pool.run(buildTask, { ctx, rows: chunk });
      return out.map((b) => ('raw' in b ? { ...b, raw: asBuffer(b.raw) } : b));
    } catch (error) {
      if (!(error instanceof OffLoopRetry)) throw error;
      return chunk.map(() => ({ deferred: RENDER_TOO_SLOW }));
    }
  };
  let next = 0;
  const lanes = Math.min(chunks.length, pool.settings.threads * TASKS_PER_THREAD);
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = next++; i < chunks.length; i = next++) built[i] = await buildChunk(chunks[i] ?? []);
    }),
  );
  return built.flat();
}
