/**
 * The one durable job runner (pg-boss) that every area's background work runs on. It knows no area:
 * each area declares its own queues through its `jobs` registration (src/area.ts), which the
 * composition root (src/composition.ts) calls for the gateway and for the workers process alike.
 */
export { JobRunner } from './runner';
export type { JobContext, JobHandler, QueueCounts, QueueOptions, SendOptions } from './runner';
export { QueueCountsSchema } from './queue-counts';
