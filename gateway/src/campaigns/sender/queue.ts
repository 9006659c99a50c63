/**
 * The campaign send queue on the job runner: one job per campaign run. A job starts a scheduled
 * campaign when its time comes (or sends now), takes the audience once, then sends in slices until
 * every recipient is settled, the campaign is paused or cancelled, or the runner stops (then the job
 * is sent again and carries on where the recipients' rows say it stopped).
 */
import type { JobRunner } from '../../jobs/index';

export const CAMPAIGN_SEND_QUEUE = 'campaigns.send';

export interface CampaignSendJob {
  campaignId: string;
}

/**
 * Runs of carriers of transactional messages (carrier.ts): a 'stately' queue, so a burst of messages
 * to one carrier makes at most one waiting run next to the one sending (the waiting run claims them all).
 */
export const CARRIER_SEND_QUEUE = 'campaigns.carrier';

/** Queues a run of the carrier now, unless one is already waiting. */
export async function enqueueCarrier(jobs: JobRunner, campaignId: string): Promise<void> {
  const data: CampaignSendJob = { campaignId };
  await jobs.send(CARRIER_SEND_QUEUE, data, { singletonKey: campaignId });
}

/** Queues a run of the campaign now, or at `startAfter` (a schedule). */
export async function enqueueCampaign(jobs: JobRunner, campaignId: string, startAfter?: Date): Promise<void> {
  const data: CampaignSendJob = { campaignId };
  await jobs.send(CAMPAIGN_SEND_QUEUE, data, startAfter ? { startAfter } : {});
}
