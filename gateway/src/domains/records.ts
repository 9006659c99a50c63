/**
 * The DNS records a sending domain publishes, and how what was found is judged (pure: no lookups).
 * Which records and values: our choice, after the best sending services.
 * - verification TXT `_console-verification.<domain>` = `console-verification=<token>`: proves the
 *   tenant controls the domain (the token is the tenant's own, so nobody verifies another's domain).
 * - SPF TXT at the domain: one `v=spf1` record that includes our servers (RFC 7208 section 3.2: more
 *   than one SPF record is an error).
 * - DKIM TXT `<selector>._domainkey.<domain>` whose `p=` is our public key (strings joined, RFC 6376
 *   section 3.6.2.2).
 * - DMARC TXT `_dmarc.<domain>`: we suggest `v=DMARC1; p=none;`; shown as required only when the domain
 *   has no DMARC record (mailbox providers want one from bulk senders); an existing policy is kept.
 * - tracking CNAME `track.<domain>` to our tracking host: optional.
 * The domain verifies when verification, SPF and DKIM are verified.
 */
import type { DnsRecord, DnsRecordKind, DnsRecordState, DomainStatus } from '../contracts';
import type { DomainsConfig } from '../config';
import type { SendingDomainRow } from '../db/schema';
import { dkimValue } from '../mail/platform-dkim';

export { dkimValue };

export const VERIFICATION_PREFIX = '_console-verification';
export const TRACKING_PREFIX = 'track';
/** The records a domain needs to verify. */
export const REQUIRED_KINDS: readonly DnsRecordKind[] = ['verification', 'spf', 'dkim'];

export interface RecordCheck {
  state: DnsRecordState;
  /** What was found instead (failed), or the existing DMARC record. */
  found: string | null;
}

/** The `checks` column: what the last check found per record. */
export interface DomainChecks {
  records: Record<DnsRecordKind, RecordCheck>;
  /** Some lookup did not answer (timeout, server failure): the check proves nothing either way. */
  inconclusive: boolean;
}

/** What the lookups answered for one domain: the TXT strings per name (null: the lookup failed). */
export interface Lookups {
  verification: string[] | null;
  root: string[] | null;
  dkim: string[] | null;
  dmarc: string[] | null;
  /** CNAME targets of the tracking name. */
  tracking: string[] | null;
}

type DomainKeys = Pick<SendingDomainRow, 'domain' | 'verificationToken' | 'dkimSelector' | 'dkimPublicKey'>;

export const verificationValue = (token: string) => `console-verification=${token}`;
export const spfValue = (config: DomainsConfig) => `v=spf1 include:${config.spfInclude} ~all`;
export const DMARC_VALUE = 'v=DMARC1; p=none;';

export function recordNames(row: Pick<SendingDomainRow, 'domain' | 'dkimSelector'>) {
  return {
    verification: `${VERIFICATION_PREFIX}.${row.domain}`,
    spf: row.domain,
    dkim: `${row.dkimSelector}._domainkey.${row.domain}`,
    dmarc: `_dmarc.${row.domain}`,
    tracking: `${TRACKING_PREFIX}.${row.domain}`,
  } satisfies Record<DnsRecordKind, string>;
}

const PENDING: RecordCheck = { state: 'pending', found: null };
const verified = (found: string | null = null): RecordCheck => ({ state: 'verified', found });
const failed = (found: string[]): RecordCheck => ({ state: 'failed', found: found.join(' | ') });

/** The tags of a DKIM or DMARC record (`k=v; k=v`), keys lower case, white space removed from values. */
function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    out.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return out;
}

const isSpf = (txt: string) => /^v=spf1(\s|$)/i.test(txt.trim());
const isDmarc = (txt: string) => /^v=DMARC1\s*(;|$)/i.test(txt.trim());

/** Judges what the lookups found against what the domain must publish. */
export function judge(keys: DomainKeys, config: DomainsConfig, found: Lookups): DomainChecks {
  const inconclusive = Object.values(found).some((v) => v === null);
  const verificationCheck = (): RecordCheck => {
    const txt = found.verification;
    if (!txt?.length) return PENDING;
    return txt.includes(verificationValue(keys.verificationToken)) ? verified() : failed(txt);
  };
  const spfCheck = (): RecordCheck => {
    const spf = (found.root ?? []).filter(isSpf);
    if (spf.length === 0) return PENDING;
    const include = `include:${config.spfInclude}`;
    const ok = spf.length === 1 && spf[0]!.toLowerCase().split(/\s+/).includes(include);
    return ok ? verified() : failed(spf);
  };
  const dkimCheck = (): RecordCheck => {
    const txt = found.dkim;
    if (!txt?.length) return PENDING;
    return txt.some((t) => tags(t).get('p') === keys.dkimPublicKey) ? verified() : failed(txt);
  };
  const dmarcCheck = (): RecordCheck => {
    const txt = found.dmarc;
    if (!txt?.length) return PENDING;
    const dmarc = txt.filter(isDmarc);
    return dmarc.length === 1 ? verified(dmarc[0]) : failed(txt);
  };
  const trackingCheck = (): RecordCheck => {
    const targets = (found.tracking ?? []).map((t) => t.toLowerCase().replace(/\.$/, ''));
    if (targets.length === 0) return PENDING;
    return targets.includes(config.trackingHost) ? verified() : failed(targets);
  };
  return {
    records: {
      verification: verificationCheck(),
      spf: spfCheck(),
      dkim: dkimCheck(),
      dmarc: dmarcCheck(),
      tracking: trackingCheck(),
    },
    inconclusive,
  };
}

/** True when every record a domain needs is verified. */
export function allRequiredVerified(checks: DomainChecks): boolean {
  return REQUIRED_KINDS.every((k) => checks.records[k].state === 'verified');
}

/**
 * The status after a check: verified when every required record is; otherwise a verified (or failed)
 * domain is failed and a new one stays pending. An inconclusive check changes nothing (a DNS outage
 * must not fail a working domain).
 */
export function nextStatus(current: DomainStatus, checks: DomainChecks): DomainStatus {
  if (allRequiredVerified(checks)) return 'verified';
  if (checks.inconclusive) return current;
  return current === 'pending' ? 'pending' : 'failed';
}

/** Reads the `checks` column (written by this module; anything else reads as never checked). */
export function checksOf(value: unknown): DomainChecks | null {
  if (!value || typeof value !== 'object' || !('records' in value)) return null;
  const records = (value as { records: unknown }).records;
  if (!records || typeof records !== 'object') return null;
  return value as DomainChecks;
}

/** The records the console shows for a domain: names and values from the row and config, states from the last check. */
export function buildRecords(row: DomainKeys & Pick<SendingDomainRow, 'checks'>, config: DomainsConfig): DnsRecord[] {
  const names = recordNames(row);
  const checks = checksOf(row.checks);
  const state = (kind: DnsRecordKind) => checks?.records[kind] ?? PENDING;
  const dmarc = state('dmarc');
  // An existing DMARC record (verified) is the domain's own policy: ours is then only a suggestion.
  const dmarcRequired = dmarc.state !== 'verified';
  const entry = (kind: DnsRecordKind, type: 'TXT' | 'CNAME', value: string, required: boolean): DnsRecord => ({
    kind,
    type,
    name: names[kind],
    value,
    required,
    state: state(kind).state,
    found: state(kind).found,
  });
  return [
    entry('verification', 'TXT', verificationValue(row.verificationToken), true),
    entry('spf', 'TXT', spfValue(config), true),
    entry('dkim', 'TXT', dkimValue(row.dkimPublicKey), true),
    entry('dmarc', 'TXT', DMARC_VALUE, dmarcRequired),
    entry('tracking', 'CNAME', config.trackingHost, false),
  ];
}
