/**
 * One limit for every test e-mail the console sends (a template's and a campaign's "Send test", and
 * any test route to come), counted in e-mails (one per address) in fixed 10-minute windows stored in
 * public_throttle, so it holds across routes, restarts and gateway processes: 20 per user, and 50 per
 * tenant for all of its users together. Over either, 429 with Retry-After, and nothing is sent.
 */
import type { Database } from '../db/index';
import { HttpError } from '../errors';
import { WindowThrottle } from './window-throttle';

export const TEST_SEND_LIMIT = { perUser: 20, perTenant: 50, windowMs: 10 * 60_000 } as const;

const MINUTES = TEST_SEND_LIMIT.windowMs / 60_000;
export const TOO_MANY_TESTS = `You can send ${TEST_SEND_LIMIT.perUser} test e-mails every ${MINUTES} minutes. Please wait a few minutes and try again.`;
export const TOO_MANY_TENANT_TESTS = `Your community can send ${TEST_SEND_LIMIT.perTenant} test e-mails every ${MINUTES} minutes. Please wait a few minutes and try again.`;

/** The counters' keys of a user and of their tenant. */
export function testSendKeys(tenantId: string, userId: string): { user: string; tenant: string } {
  return { user: `test-send:user:${userId}`, tenant: `test-send:tenant:${tenantId}` };
}

export class TestSendLimit {
  private readonly throttle: WindowThrottle;

  constructor(db: Database) {
    this.throttle = new WindowThrottle(db, TEST_SEND_LIMIT.windowMs);
  }

  /** Takes `emails` test e-mails from the user's and the tenant's allowance, or throws 429. */
  async take(tenantId: string, userId: string, emails: number): Promise<void> {
    const keys = testSendKeys(tenantId, userId);
    const checks = [
      { key: keys.user, max: TEST_SEND_LIMIT.perUser, message: TOO_MANY_TESTS },
      { key: keys.tenant, max: TEST_SEND_LIMIT.perTenant, message: TOO_MANY_TENANT_TESTS },
    ];
    for (const check of checks) {
      const wait = await this.throttle.take(check, emails);
      if (wait > 0) throw new HttpError(429, check.message, undefined, { 'Retry-After': String(wait) });
    }
  }
}
