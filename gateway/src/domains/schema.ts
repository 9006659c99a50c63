/** The custom sending domains' table. */
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';
import { tenants } from '../db/shared-schema';

/**
 * Custom sending domains (account/custom-domains, permission manage_domains, plan feature
 * custom_domains): the DNS records a tenant publishes and what the last check found. The DKIM key is
 * generated per domain (RSA-2048); its public half is the DKIM TXT record. A domain verified by one
 * tenant cannot be verified by another (partial unique index).
 */
export const sendingDomains = pgTable(
  'sending_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Lower case, internationalised names in punycode (ASCII). */
    domain: text('domain').notNull(),
    /** The value of the verification TXT record. */
    verificationToken: text('verification_token').notNull(),
    dkimSelector: text('dkim_selector').notNull(),
    /** PKCS#8 PEM. */
    dkimPrivateKey: text('dkim_private_key').notNull(),
    /** Base64 SubjectPublicKeyInfo (DER): the `p=` of the DKIM record. */
    dkimPublicKey: text('dkim_public_key').notNull(),
    /** 'pending' until every required record verifies; 'failed' when a verified domain stopped verifying. */
    status: text('status').$type<'pending' | 'verified' | 'failed'>().notNull().default('pending'),
    /** What the last check found per record (domains/records.ts). */
    checks: jsonb('checks').$type<unknown>(),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sending_domains_tenant_domain_idx').on(t.tenantId, t.domain),
    uniqueIndex('sending_domains_verified_idx')
      .on(t.domain)
      .where(sql`${t.status} = 'verified'`),
    check('sending_domains_status_check', sql`${t.status} in ('pending', 'verified', 'failed')`),
  ],
);

export type SendingDomainRow = typeof sendingDomains.$inferSelect;
