/**
 * PLACEHOLDER in the delivery pipeline's branch: the compose engineer's usage-notices.ts (the owner's
 * warning at 80% and the e-mail at 100% of the plan's volume, spec section 3) replaces this file at
 * merge. The sender calls it after each committed group of sends; this version does nothing.
 */
import type { Database } from '../db/index';
import type { Mailer } from '../mail/mailer';

export async function checkUsageNotices(_db: Database, _mailer: Mailer, _tenantId: string, _now: Date): Promise<void> {}
