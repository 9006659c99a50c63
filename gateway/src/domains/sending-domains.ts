/**
 * A tenant's sending domains (spec section 2, account/custom-domains): add, list, check, delete.
 * Every statement is scoped by the caller's tenant; another tenant's id answers 404.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { SendingDomain } from '../contracts';
import type { DomainsConfig } from '../config';
import type { Database } from '../db/index';
import { sendingDomains, type SendingDomainRow } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { isUuid, uniqueViolation } from '../lib/db-helpers';
import type { DnsLookup } from './dns-lookup';
import { normalizeDomain } from './domain-name';
import { buildRecords, judge, nextStatus } from './records';

export const DKIM_SELECTOR = 'cc1';
/** A community's domains (our choice: plenty for brands and regions, bounded for the list and the checks). */
export const DOMAINS_MAX = 50;

export const VERIFIED_ELSEWHERE = 'This domain is verified by another account.';
export const ALREADY_ADDED = 'This domain is already in your list.';
export const TOO_MANY = `A community has at most ${DOMAINS_MAX} sending domains. Delete one first.`;
const NO_DOMAIN = 'This domain does not exist.';

const generateKeys = promisify(generateKeyPair);

/** A new RSA-2048 key pair (off the event loop): PKCS#8 PEM, and the SPKI DER in base64 for `p=`. */
export async function newDkimKeys(): Promise<{ privateKey: string; publicKey: string }> {
  const { privateKey, publicKey } = await generateKeys('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKey, publicKey: publicKey.toString('base64') };
}

export function toSendingDomain(row: SendingDomainRow, config: DomainsConfig): SendingDomain {
  return {
    _id: row.id,
    domain: row.domain,
    status: row.status,
    records: buildRecords(row, config),
    verified_at: row.verifiedAt?.toISOString() ?? null,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The result of one check, stored on the row (shared by POST /verify and the daily re-check). */
export async function checkDomain(
  db: Database,
  config: DomainsConfig,
  dns: DnsLookup,
  row: SendingDomainRow,
  now: Date,
): Promise<SendingDomainRow> {
  const checks = judge(row, config, await dns.lookups(row));
  const status = nextStatus(row.status, checks);
  const verifiedAt = status === 'verified' ? (row.status === 'verified' ? (row.verifiedAt ?? now) : now) : null;
  try {
    const [updated] = await db
      .update(sendingDomains)
      .set({ checks, status, verifiedAt, lastCheckedAt: now })
      .where(eq(sendingDomains.id, row.id))
      .returning();
    if (!updated) throw notFound(NO_DOMAIN);
    return updated;
  } catch (error) {
    // Another tenant verified the same name first (sending_domains_verified_idx): this one stays unverified.
    if (uniqueViolation(error) !== 'sending_domains_verified_idx') throw error;
    const [updated] = await db
      .update(sendingDomains)
      .set({ checks, status: row.status === 'pending' ? 'pending' : 'failed', verifiedAt: null, lastCheckedAt: now })
      .where(eq(sendingDomains.id, row.id))
      .returning();
    if (!updated) throw notFound(NO_DOMAIN);
    throw badRequest(VERIFIED_ELSEWHERE, { domain: [VERIFIED_ELSEWHERE] });
  }
}

export class SendingDomains {
  constructor(
    private readonly db: Database,
    private readonly config: DomainsConfig,
    private readonly dns: DnsLookup,
    private readonly clock: () => Date,
  ) {}

  async list(tenantId: string): Promise<SendingDomain[]> {
    const rows = await this.db
      .select()
      .from(sendingDomains)
      .where(eq(sendingDomains.tenantId, tenantId))
      .orderBy(asc(sendingDomains.domain))
      .limit(DOMAINS_MAX);
    return rows.map((r) => toSendingDomain(r, this.config));
  }

  async get(tenantId: string, id: string): Promise<SendingDomain> {
    return toSendingDomain(await this.row(tenantId, id), this.config);
  }

  async add(tenantId: string, input: string): Promise<SendingDomain> {
    const name = normalizeDomain(input);
    if (!name.ok) throw badRequest(name.message, { domain: [name.message] });
    const { domain } = name;
    const existing = await this.db
      .select({ tenantId: sendingDomains.tenantId, status: sendingDomains.status })
      .from(sendingDomains)
      .where(eq(sendingDomains.domain, domain));
    if (existing.some((d) => d.tenantId === tenantId)) throw badRequest(ALREADY_ADDED, { domain: [ALREADY_ADDED] });
    if (existing.some((d) => d.status === 'verified')) {
      throw badRequest(VERIFIED_ELSEWHERE, { domain: [VERIFIED_ELSEWHERE] });
    }
    const own = await this.db
      .select({ id: sendingDomains.id })
      .from(sendingDomains)
      .where(eq(sendingDomains.tenantId, tenantId))
      .limit(DOMAINS_MAX);
    if (own.length >= DOMAINS_MAX) throw badRequest(TOO_MANY, { domain: [TOO_MANY] });
    const keys = await newDkimKeys();
    try {
      const [row] = await this.db
        .insert(sendingDomains)
        .values({
          tenantId,
          domain,
          verificationToken: randomBytes(24).toString('base64url'),
          dkimSelector: DKIM_SELECTOR,
          dkimPrivateKey: keys.privateKey,
          dkimPublicKey: keys.publicKey,
          createdAt: this.clock(),
        })
        .returning();
      if (!row) throw new Error('the domain was not stored');
      return toSendingDomain(row, this.config);
    } catch (error) {
      if (uniqueViolation(error) === 'sending_domains_tenant_domain_idx') {
        throw badRequest(ALREADY_ADDED, { domain: [ALREADY_ADDED] });
      }
      throw error;
    }
  }

  /** Looks the records up now and stores what was found. */
  async verify(tenantId: string, id: string): Promise<SendingDomain> {
    const row = await this.row(tenantId, id);
    if (row.status !== 'verified') {
      const [taken] = await this.db
        .select({ id: sendingDomains.id })
        .from(sendingDomains)
        .where(
          and(
            eq(sendingDomains.domain, row.domain),
            eq(sendingDomains.status, 'verified'),
            ne(sendingDomains.tenantId, tenantId),
          ),
        )
        .limit(1);
      if (taken) throw badRequest(VERIFIED_ELSEWHERE, { domain: [VERIFIED_ELSEWHERE] });
    }
    const checked = await checkDomain(this.db, this.config, this.dns, row, this.clock());
    return toSendingDomain(checked, this.config);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw notFound(NO_DOMAIN);
    const gone = await this.db
      .delete(sendingDomains)
      .where(and(eq(sendingDomains.id, id), eq(sendingDomains.tenantId, tenantId)))
      .returning({ id: sendingDomains.id });
    if (gone.length === 0) throw notFound(NO_DOMAIN);
  }

  private async row(tenantId: string, id: string): Promise<SendingDomainRow> {
    if (!isUuid(id)) throw notFound(NO_DOMAIN);
    const [row] = await this.db
      .select()
      .from(sendingDomains)
      .where(and(eq(sendingDomains.id, id), eq(sendingDomains.tenantId, tenantId)));
    if (!row) throw notFound(NO_DOMAIN);
    return row;
  }
}
