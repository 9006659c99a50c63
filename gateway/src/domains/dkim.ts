/**
 * DKIM signing of outgoing mail with a tenant's verified sending domain (our choice, after the best
 * sending services): a message whose From address is at a domain the tenant verified is signed with
 * that domain's key (d= the domain, s= its selector; RSA-SHA256, relaxed/relaxed, RFC 6376), with
 * `mailauth`. Mail from any other address is sent unsigned here.
 */
import { and, eq } from 'drizzle-orm';
import { domainToASCII } from 'node:url';
import type { Database } from '../db/index';
import { sendingDomains } from '../db/schema';
import { once } from '../lib/once';

export interface DkimKey {
  domain: string;
  selector: string;
  privateKey: string;
}

/** The signed header fields: what identifies and shapes the message (RFC 6376 section 5.4.1). */
const HEADER_LIST = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Id',
  'Feedback-ID',
];

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

/** mailauth's signer, loaded on the first signed message. */
const signer = once(() => import('mailauth/lib/dkim/sign'));

/** The message with its DKIM-Signature header in front; throws when mailauth could not sign. */
export async function dkimSignMessage(raw: Buffer, key: DkimKey, signTime?: Date): Promise<Buffer> {
  const signature = { signingDomain: key.domain, selector: key.selector, privateKey: key.privateKey };
  // mailauth signs what `signatureData` lists (its typings also ask for the fields at the top).
  const { dkimSign } = await signer();
  const { signatures, errors } = await dkimSign(raw, {
    ...signature,
    signatureData: [signature],
    canonicalization: 'relaxed/relaxed',
    algorithm: 'rsa-sha256',
    headerList: HEADER_LIST,
    ...(signTime ? { signTime } : {}),
  });
  if (!signatures) {
    const reason = errors?.map((e) => e.err.message).join('; ');
    throw new Error(`DKIM signing failed for ${key.domain}${reason ? `: ${reason}` : ''}`);
  }
  return Buffer.concat([Buffer.from(signatures, 'utf8'), raw]);
}
