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

/** One series per figure, a value per minute bucket (the shared time-series chart draws them). */
export function timelineSeries(timeline: DeliveryTimeline): { label: string; values: number[] }[] {
  return SERIES.map((s) => ({ label: s.label, values: timeline.buckets.map((b) => b[s.key]) }));
}
