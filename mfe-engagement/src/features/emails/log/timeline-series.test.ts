import { timelineChart } from './timeline-series';

const bucket = (at: string, sent: number, delivered: number) => ({
  at,
  sent,
  delivered,
  opened: 0,
  clicked: 0,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
});
const seconds = (iso: string) => Date.parse(iso) / 1000;

test('a send within one minute rises from an empty minute and falls back once the next has begun', () => {
  const timeline = { bucket_seconds: 60, buckets: [bucket('2026-11-01T10:00:00.000Z', 44, 43)] };
  const chart = timelineChart(timeline, Date.parse('2026-11-01T10:05:00.000Z'));
  expect(chart.times).toEqual([
    seconds('2026-11-01T09:59:00.000Z'),
    seconds('2026-11-01T10:00:00.000Z'),
    seconds('2026-11-01T10:01:00.000Z'),
  ]);
  expect(chart.series.find((s) => s.label === 'Sent')?.values).toEqual([0, 44, 0]);
  expect(chart.series.find((s) => s.label === 'Delivered')?.values).toEqual([0, 43, 0]);
  expect(chart.series.map((s) => s.label)).toEqual([
    'Sent',
    'Delivered',
    'Opened',
    'Clicked',
    'Bounced',
    'Complained',
    'Unsubscribed',
  ]);
});

test('while the last bucket is still running, the chart ends with it (no zero drawn in the future)', () => {
  const timeline = {
    bucket_seconds: 300,
    buckets: [bucket('2026-11-01T10:00:00.000Z', 10, 9), bucket('2026-11-01T10:05:00.000Z', 5, 0)],
  };
  const chart = timelineChart(timeline, Date.parse('2026-11-01T10:07:00.000Z'));
  expect(chart.times).toEqual([
    seconds('2026-11-01T09:55:00.000Z'),
    seconds('2026-11-01T10:00:00.000Z'),
    seconds('2026-11-01T10:05:00.000Z'),
  ]);
  expect(chart.series[0]?.values).toEqual([0, 10, 5]);
});

test('no buckets: nothing to draw', () => {
  expect(timelineChart({ bucket_seconds: 60, buckets: [] }, 0).times).toEqual([]);
});
