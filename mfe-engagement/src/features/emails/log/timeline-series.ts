/** The delivery chart's series (spec: sent, delivered, opened, clicked, bounced, complained, unsubscribed). Pure. */
import type { DeliveryTimeline } from '@console/shared/contracts';

export const SERIES = [
  { key: 'sent', label: 'Sent' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'opened', label: 'Opened' },
  { key: 'clicked', label: 'Clicked' },
  { key: 'bounced', label: 'Bounced' },
  { key: 'complained', label: 'Complained' },
  { key: 'unsubscribed', label: 'Unsubscribed' },
] as const;

type Bucket = DeliveryTimeline['buckets'][number];

/**
 * What the shared time-series chart draws: a point per bucket (seconds since the epoch) and a series
 * per figure. The buckets run from the first to the last with events, so a send that fits in one
 * minute is a single point: dots, not a rise. The chart therefore starts one empty bucket before the
 * first (nothing happened before the send began) and ends one after the last when that bucket had
 * begun as the figures were read (`nowMs`): the counts rise from zero and fall back.
 */
export function timelineChart(
  timeline: DeliveryTimeline,
  nowMs: number,
): { times: number[]; series: { label: string; values: number[] }[] } {
  const width = timeline.bucket_seconds;
  const buckets = timeline.buckets;
  const first = buckets[0];
  const last = buckets[buckets.length - 1];
  if (!first || !last) return { times: [], series: SERIES.map((s) => ({ label: s.label, values: [] })) };
  const secondsOf = (b: Bucket) => Math.floor(Date.parse(b.at) / 1000);
  const times = buckets.map(secondsOf);
  const values = SERIES.map((s) => buckets.map((b) => b[s.key]));
  times.unshift(secondsOf(first) - width);
  for (const v of values) v.unshift(0);
  const after = secondsOf(last) + width;
  if (after * 1000 <= nowMs) {
    times.push(after);
    for (const v of values) v.push(0);
  }
  return { times, series: SERIES.map((s, i) => ({ label: s.label, values: values[i] ?? [] })) };
}
