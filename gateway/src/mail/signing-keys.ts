/**
 * Which keys sign a message the platform sends (docs/domains.md, "Platform signing"): always the
 * platform's own key; with a verified custom domain of the tenant as the From domain, that domain's key
 * too (double signing, as the large sending services do: the tenant's signature aligns with From for
 * DMARC, the platform's carries the platform's reputation and the Feedback-ID that mailbox providers'
 * feedback loops attribute by signing domain).
 * Order: the tenant's signature first (topmost), as if the platform signed first and the tenant's
 * domain last (RFC 6376 section 5.6 inserts a new DKIM-Signature before those already there); verifiers
 * may limit the signatures they try (section 6.1), so the aligned one is the first they meet. Neither
 * signature covers the other (DKIM-Signature is not in the signed header list), so each verifies on its
 * own.
 */
import type { DkimKey } from './platform-dkim';

/**
 * The keys, in header order (first = topmost): the tenant's verified domain's, then the platform's
 * (null: PLATFORM_DKIM=off, the mail server signs for the platform).
 */
export function signingKeys(tenant: DkimKey | null, platform: DkimKey | null): DkimKey[] {
  if (!platform) return tenant ? [tenant] : [];
  if (!tenant) return [platform];
  // The same signing domain twice adds nothing a receiver can use.
  return tenant.domain === platform.domain ? [tenant] : [tenant, platform];
}

/** Signs a message with each of `keys`, the first ending on top (domains/dkim-sign.ts, `dkimSignMessageWith`). */
export type MessageSigner = (raw: Buffer, keys: readonly DkimKey[]) => Promise<Buffer>;
