/**
 * A campaign's figures as the console shows them (CampaignStats): its counters, and open and click
 * rates over delivered messages, from unique human opens and clicks (machine opens are recorded, not
 * counted).
 */
import type { CampaignStats } from '../contracts';

export interface CampaignCounters {
  recipients: number;
  sent: number;
  delivered: number;
  bounced: number;
  failed: number;
  unconfirmed: number;
  opened: number;
  clicked: number;
  unsubscribed: number;
  complained: number;
}

const COUNTERS = [
  'recipients',
  'sent',
  'delivered',
  'bounced',
  'failed',
  'unconfirmed',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
] as const;

/** A share of delivered messages, 0..1 (0 before anything is delivered). */
export function rateOf(count: number, delivered: number): number {
  return delivered > 0 ? Math.min(1, count / delivered) : 0;
}

/** The figures of a campaign row (a drizzle row or a raw one: the counters have the same names). */
export function campaignStats(row: Partial<Record<(typeof COUNTERS)[number], unknown>>): CampaignStats {
  const counters = Object.fromEntries(
    COUNTERS.map((key) => [key, Number(row[key] ?? 0)]),
  ) as unknown as CampaignCounters;
  return {
    ...counters,
    open_rate: rateOf(counters.opened, counters.delivered),
    click_rate: rateOf(counters.clicked, counters.delivered),
  };
}
