/**
 * The daily re-check of verified (and failed) sending domains (our choice, after the best sending
 * services: a domain whose records were removed stops being used, and its owners hear of it). One
 * firing a day for all gateway processes; a run works in slices of {@link RECHECK_SLICE} domains,
 * oldest check first, and each domain's check is stored on its own, so a run cut short loses nothing
 * (the next run starts with the domains not yet checked today).
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/index';
import { sendingDomains, tenants, users } from '../db/schema';
import type { JobRunner } from '../jobs/runner';
import type { Mailer } from '../mail/mailer';
import { domainFailedMail } from '../mail/messages';
import type { DnsLookup } from './dns-lookup';
import { createDnsLookup } from './dns-lookup';
import { checksOf, REQUIRED_KINDS } from './records';
import { checkDomain } from './sending-domains';

export const RECHECK_QUEUE = 'domains.recheck';
export const RECHECK_SLICE = 25;
/** Domains checked within this long are not checked again by a run. */
const RECHECK_AFTER_MS = 20 * 60 * 60 * 1000;
/** One run checks at most this many slices; the rest wait for the next day's run. */
const RECHECK_MAX_SLICES = 400;

export interface RecheckDeps {
  db: Database;
  config: Config;
  mailer: Mailer;
  dns?: DnsLookup;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

export interface RecheckResult {
  checked: number;
  /** Domains that stopped verifying in this run (their owners were e-mailed). */
  failed: string[];
}

/** Re-checks the verified and failed domains not checked in the last 20 hours. */
export async function recheckDomains(
  { db, config, mailer, dns = createDnsLookup(config.domains), log }: RecheckDeps,
  now: Date = new Date(),
  signal?: AbortSignal,
): Promise<RecheckResult> {
  const result: RecheckResult = { checked: 0, failed: [] };
  const before = new Date(now.getTime() - RECHECK_AFTER_MS);
  for (let slice = 0; slice < RECHECK_MAX_SLICES && !signal?.aborted; slice++) {
    const rows = await db
      .select()
      .from(sendingDomains)
      .where(
        and(
          inArray(sendingDomains.status, ['verified', 'failed']),
          or(isNull(sendingDomains.lastCheckedAt), lt(sendingDomains.lastCheckedAt, before)),
        ),
      )
      .orderBy(asc(sendingDomains.lastCheckedAt), asc(sendingDomains.id))
      .limit(RECHECK_SLICE);
    if (rows.length === 0) break;
    for (const row of rows) {
      try {
        const checked = await checkDomain(db, config.domains, dns, row, now);
        result.checked++;
        if (row.status === 'verified' && checked.status === 'failed') {
          result.failed.push(row.domain);
          const checks = checksOf(checked.checks);
          const failing = REQUIRED_KINDS.filter((k) => checks?.records[k].state !== 'verified');
          await mailOwners(db, config, mailer, row.tenantId, row.domain, failing.map(recordLabel));
        }
      } catch (error) {
        // One domain's failure (e.g. verified meanwhile by another tenant) does not stop the others;
        // its row is marked checked so the slice moves on.
        log?.warn({ err: error, domain: row.domain }, 'domains: re-check failed');
        await db.update(sendingDomains).set({ lastCheckedAt: now }).where(eq(sendingDomains.id, row.id));
      }
    }
    if (rows.length < RECHECK_SLICE) break;
  }
  return result;
}

function recordLabel(kind: string): string {
  return kind === 'spf' ? 'SPF' : kind === 'dkim' ? 'DKIM' : kind;
}

async function mailOwners(
  db: Database,
  config: Config,
  mailer: Mailer,
  tenantId: string,
  domain: string,
  failing: string[],
): Promise<void> {
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  const owners = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'tenant_admin')));
  const link = `${config.consoleUrl}/account/custom-domains`;
  for (const owner of owners) {
    await mailer.send(domainFailedMail(owner.email, owner.firstName, tenant?.name ?? '', domain, failing, link));
  }
}

export function registerDomainJobs(
  jobs: JobRunner,
  db: Database,
  config: Config,
  log: FastifyBaseLogger,
  mailer: Mailer,
): void {
  jobs.work(
    RECHECK_QUEUE,
    async ({ signal }) => {
      const { checked, failed } = await recheckDomains({ db, config, mailer, log }, new Date(), signal);
      if (checked > 0) log.info({ checked, failed: failed.length }, 'domains: daily re-check done');
    },
    { policy: 'singleton', retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 60 * 60, batchSize: 1 },
  );
  // Once a day at 03:17 UTC (off the hour, when little else runs).
  jobs.schedule(RECHECK_QUEUE, '17 3 * * *');
}
