/**
 * DNS lookups of a domain's records, through `node:dns` with the configured servers (DNS_SERVERS,
 * default: the system's) and a short timeout. "No such name" and "no such record" read as nothing
 * found; any other failure as unknown (null), so a check can tell an outage from a missing record.
 */
import { Resolver } from 'node:dns/promises';
import type { DomainsConfig } from '../config';
import type { SendingDomainRow } from '../db/schema';
import { type Lookups, recordNames } from './records';

const NOT_FOUND = new Set(['ENODATA', 'ENOTFOUND']);

export interface DnsLookup {
  lookups(row: Pick<SendingDomainRow, 'domain' | 'dkimSelector'>): Promise<Lookups>;
}

export function createDnsLookup(config: DomainsConfig): DnsLookup {
  const resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 2 });
  if (config.dnsServers?.length) resolver.setServers(config.dnsServers);

  async function answer<T>(lookup: () => Promise<T[]>): Promise<T[] | null> {
    try {
      return await lookup();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      return NOT_FOUND.has(code) ? [] : null;
    }
  }
  // TXT answers come as chunks of at most 255 characters: one record is its chunks joined.
  const txt = (name: string) => answer(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')));

  return {
    async lookups(row) {
      const names = recordNames(row);
      const [verification, root, dkim, dmarc, tracking] = await Promise.all([
        txt(names.verification),
        txt(names.spf),
        txt(names.dkim),
        txt(names.dmarc),
        answer(() => resolver.resolveCname(names.tracking)),
      ]);
      return { verification, root, dkim, dmarc, tracking };
    },
  };
}
