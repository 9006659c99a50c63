/**
 * Which keys sign a message the platform sends (docs/domains.md, "Platform signing"): the platform's own
 * key; with a verified custom domain of the tenant as the From domain, that domain's key instead, or,
 * with PLATFORM_DKIM_COSIGN=on, both (double signing, as some large sending services do: the tenant's
 * signature aligns with From for DMARC, the platform's carries the platform's reputation to feedback
 * loops that attribute by signing domain). Each signature is an RSA operation a message.
 * Order: the tenant's signature first (topmost), as if the platform signed first and the tenant's
 * domain last (RFC 6376 section 5.6 inserts a new DKIM-Signature before those already there); verifiers
 * may limit the signatures they try (section 6.1), so the aligned one is the first they meet. Neither
 * signature covers the other (DKIM-Signature is not in the signed header list), so each verifies on its
 * own.
 */
import type { DkimKey } from './platform-dkim';

/** The platform's key as the rule needs it: the key, and whether it co-signs a verified domain's mail. */
export type PlatformKey = DkimKey & { cosign: boolean };

/**
 * The keys, in header order (first = topmost): the tenant's verified domain's, then the platform's
 * when it co-signs (null: PLATFORM_DKIM=off, the mail server signs for the platform).
 */
export function signingKeys(tenant: DkimKey | null, platform: PlatformKey | null): DkimKey[] {
  if (!platform) return tenant ? [tenant] : [];
  if (!tenant) return [platform];
  if (!platform.cosign) return [tenant];
  // The same signing domain twice adds nothing a receiver can use.
  return tenant.domain === platform.domain ? [tenant] : [tenant, platform];
}

/** Signs a message with each of `keys`, the first ending on top (domains/dkim-sign.ts, `dkimSignMessageWith`). */
export type MessageSigner = (raw: Buffer, keys: readonly DkimKey[]) => Promise<Buffer>;
