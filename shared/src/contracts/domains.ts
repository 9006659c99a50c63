/** Custom sending domains (spec section 2, account/custom-domains; permission manage_domains, feature custom_domains). */
import * as z from 'zod/mini';
import { text } from '@console/shared/contracts/core';

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** What one record is for: ownership, sender policy, signing key, DMARC policy, click tracking. */
export const DNS_RECORD_KINDS = ['verification', 'spf', 'dkim', 'dmarc', 'tracking'] as const;
export type DnsRecordKind = (typeof DNS_RECORD_KINDS)[number];

/** pending: nothing found yet; verified: found as shown; failed: something else was found (`found`). */
export const DNS_RECORD_STATES = ['pending', 'verified', 'failed'] as const;
export type DnsRecordState = (typeof DNS_RECORD_STATES)[number];

export const DnsRecord = z.object({
  kind: z.enum(DNS_RECORD_KINDS),
  type: z.enum(['TXT', 'CNAME']),
  /** The full name to publish (e.g. `_dmarc.example.com`). */
  name: z.string(),
  value: z.string(),
  /** Needed for the domain to verify. */
  required: z.boolean(),
  state: z.enum(DNS_RECORD_STATES),
  /** What the last check found instead, when the state is failed. */
  found: z.nullable(z.string()),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const SendingDomain = z.object({
  _id: z.string(),
  /** Lower case; internationalised names in punycode. */
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  records: z.array(DnsRecord),
  verified_at: z.nullable(z.string()),
  last_checked_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type SendingDomain = z.infer<typeof SendingDomain>;

export const SendingDomainList = z.object({ records: z.array(SendingDomain) });
export type SendingDomainList = z.infer<typeof SendingDomainList>;

/** The name is checked by the gateway (domains/domain-name.ts): the rules need the public suffix list. */
export const AddDomainBody = z.object({ domain: text(300, 'Enter a domain of at most 253 characters.') });
export type AddDomainBody = z.infer<typeof AddDomainBody>;
