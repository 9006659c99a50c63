/**
 * DKIM signing of outgoing mail with a tenant's verified sending domain (our choice, after the best
 * sending services): a message whose From address is at a domain the tenant verified is signed with
 * that domain's key (d= the domain, s= its selector; RSA-SHA256, relaxed/relaxed, RFC 6376). Mail from
 * any other address is sent unsigned here.
 *
 * Signatures are computed in the off-loop pool (lib/off-loop/pool.ts), never on the gateway's event
 * loop: dkim-sign.ts.
 */
import { and, eq } from 'drizzle-orm';
import { domainToASCII } from 'node:url';
import type { Database } from '../db/index';
import { sendingDomains } from '../db/schema';
import type { DkimKey } from './dkim-sign';

export { dkimSignMessage, dkimSignMessageWith, HEADER_LIST, type DkimKey } from './dkim-sign';

/** The domain of an address, lower case and in ASCII (punycode), as domains are stored. */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  const domain = domainToASCII(
    address
      .slice(at + 1)
      .trim()
      .toLowerCase()
      .replace(/\.$/, ''),
  );
  return domain || null;
}

/** The tenant's verified sending domain of `fromAddress` (its key, selector and last checks), else null. */
export async function verifiedDomainOf(db: Database, tenantId: string, fromAddress: string) {
  const domain = domainOfAddress(fromAddress);
  if (!domain) return null;
  const [row] = await db
    .select({
      domain: sendingDomains.domain,
      dkimSelector: sendingDomains.dkimSelector,
      privateKey: sendingDomains.dkimPrivateKey,
      checks: sendingDomains.checks,
    })
    .from(sendingDomains)
    .where(
      and(
        eq(sendingDomains.tenantId, tenantId),
        eq(sendingDomains.domain, domain),
        eq(sendingDomains.status, 'verified'),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The key to sign mail from `fromAddress` for the tenant: its verified domain of that name, else null. */
export async function dkimKeyFor(db: Database, tenantId: string, fromAddress: string): Promise<DkimKey | null> {
  const row = await verifiedDomainOf(db, tenantId, fromAddress);
  return row && { domain: row.domain, selector: row.dkimSelector, privateKey: row.privateKey };
}
