/**
 * Which From addresses a community may send with (custom domains, spec section 2's
 * account/custom-domains): the platform's sender address, or any address on one of its own verified
 * sending domains. One rule for compose (a field error), for "send now" / schedule (the domain may have
 * stopped verifying since), and for the sender, which falls back to the platform's address when the
 * domain is no longer verified (the owners were told by the daily re-check), keeping the chosen address
 * as Reply-To so answers still reach it.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/index';
import { sendingDomains } from '../db/schema';
import { domainOfAddress } from './dkim';

export const SENDER_NOT_VERIFIED =
  "Send from the platform's address or from an address on one of your verified domains (Custom Domains).";

/** The tenant's verified sending domains, by name. */
export async function verifiedDomains(db: Database, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: sendingDomains.domain })
    .from(sendingDomains)
    .where(and(eq(sendingDomains.tenantId, tenantId), eq(sendingDomains.status, 'verified')))
    .orderBy(asc(sendingDomains.domain));
  return rows.map((r) => r.domain);
}

/** The pure rule: empty (the platform's address), the platform's address itself, or a verified domain's. */
export function senderAllowed(address: string, platformFrom: string, verified: readonly string[]): boolean {
  const wanted = address.trim().toLowerCase();
  if (wanted === '' || wanted === platformFrom.trim().toLowerCase()) return true;
  const domain = domainOfAddress(wanted);
  return domain !== null && verified.includes(domain);
}

/** Null when the tenant may send from `address`, else the field error. */
export async function senderRefusal(
  db: Database,
  tenantId: string,
  address: string,
  platformFrom: string,
): Promise<string | null> {
  if (senderAllowed(address, platformFrom, [])) return null;
  return senderAllowed(address, platformFrom, await verifiedDomains(db, tenantId)) ? null : SENDER_NOT_VERIFIED;
}

/**
 * The addresses a send really uses: the chosen one while allowed; otherwise the platform's, with the
 * chosen one as Reply-To when none was set.
 */
export async function effectiveSender(
  db: Database,
  tenantId: string,
  chosen: { from: string; replyTo: string },
  platformFrom: string,
): Promise<{ from: string; replyTo: string; fellBack: boolean }> {
  const from = chosen.from.trim() || platformFrom;
  if ((await senderRefusal(db, tenantId, from, platformFrom)) === null) {
    return { from, replyTo: chosen.replyTo, fellBack: false };
  }
  return { from: platformFrom, replyTo: chosen.replyTo || from, fellBack: true };
}
