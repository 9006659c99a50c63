/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retries"): after attempt n (1-based) the
 * next comes `schedule[n - 1]` seconds later; when the schedule is spent the delivery has failed. The
 * default (config WEBHOOK_RETRY_SECONDS) is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts
 * over about 27.6 hours, as Svix and the Standard Webhooks guidance schedule them. Pure.
 */

/** The time of the next attempt after attempt `attempt` failed at `at`, or null when none is left. */
export function nextAttemptAt(schedule: readonly number[], attempt: number, at: Date): Date | null {
  const delay = schedule[attempt - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay * 1000);
}

/** How many attempts a delivery gets in all. */
export function attemptsAllowed(schedule: readonly number[]): number {
  return schedule.length + 1;
}
