/** The delivery chart's series (spec: sent, delivered, opened, clicked, bounced, complained, unsubscribed). Pure. */
import type { DeliveryTimeline } from '@console/shared/contracts';

export const SERIES = [
  { key: 'sent', label: 'Sent', color: '#475569' },
  { key: 'delivered', label: 'Delivered', color: '#0369a1' },
  { key: 'opened', label: 'Opened', color: '#047857' },
  { key: 'clicked', label: 'Clicked', color: '#6d28d9' },
  { key: 'bounced', label: 'Bounced', color: '#b45309' },
  { key: 'complained', label: 'Complained', color: '#b91c1c' },
  { key: 'unsubscribed', label: 'Unsubscribed', color: '#be185d' },
] as const;
export type SeriesKey = (typeof SERIES)[number]['key'];

/** Columns for the chart: seconds since the epoch, then one array per series. */
export function chartColumns(timeline: DeliveryTimeline): [number[], ...number[][]] {
  const x = timeline.buckets.map((b) => Math.floor(Date.parse(b.at) / 1000));
  return [x, ...SERIES.map((s) => timeline.buckets.map((b) => b[s.key]))];
}
