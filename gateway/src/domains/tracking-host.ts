/**
 * Tracking links on the tenant's own domain: mail from an address at a verified sending domain whose
 * tracking CNAME (`track.<domain>`, pointing at the platform's tracking host, TRACKING_CNAME_TARGET) is
 * verified carries its open, click, unsubscribe and web-version links under `https://track.<domain>`
 * (with the tracking address's path), so the links' domain aligns with the From address, as mailbox
 * providers prefer. The routes answer on any host; the tokens are signed alike.
 */
import type { Database } from '../db/index';
import { verifiedDomainOf } from './dkim';
import { checksOf, recordNames } from './records';

/** The tracking base of mail from `fromAddress` for the tenant, or null for the platform's (`trackingUrl`). */
export async function trackingBaseFor(
  db: Database,
  tenantId: string,
  fromAddress: string,
  trackingUrl: string,
): Promise<string | null> {
  const row = await verifiedDomainOf(db, tenantId, fromAddress);
  if (!row || checksOf(row.checks)?.records.tracking?.state !== 'verified') return null;
  const path = new URL(trackingUrl).pathname.replace(/\/+$/, '');
  return `https://${recordNames(row).tracking}${path}`;
}
