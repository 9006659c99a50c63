import { z } from 'zod';

/** One queue's jobs by state (JobRunner.counts), as the health and admin routes answer them. */
export const QueueCountsSchema = z.object({
  queue: z.string(),
  waiting: z.number().int(),
  active: z.number().int(),
  failed: z.number().int(),
  completed: z.number().int(),
});
