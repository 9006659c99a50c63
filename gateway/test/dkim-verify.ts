// Verifies a message's DKIM signatures with mailauth, looking the keys up on the given DNS server (the
// suites' authoritative test server): what a receiving mail server does.
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';

export interface DkimResult {
  result: string;
  signingDomain: string;
  selector: string;
  info: string;
}

export async function verifyDkim(raw: Buffer | string, dnsServer: string): Promise<DkimResult[]> {
  const resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([dnsServer]);
  return verifyWith(raw, async (name, type) => (type === 'TXT' ? resolver.resolveTxt(name) : []));
}

/** The same, with the TXT records given (name -> value) instead of a DNS server. */
export function verifyDkimAgainst(raw: Buffer | string, txt: Record<string, string>): Promise<DkimResult[]> {
  return verifyWith(raw, async (name, type) => {
    const value = type === 'TXT' ? txt[name.toLowerCase()] : undefined;
    if (value === undefined) throw Object.assign(new Error(`no record at ${name}`), { code: 'ENOTFOUND' });
    return [[value]];
  });
}

async function verifyWith(
  raw: Buffer | string,
  resolve: (name: string, type: string) => Promise<string[][]>,
): Promise<DkimResult[]> {
  const verified = await dkimVerify(typeof raw === 'string' ? Buffer.from(raw) : raw, { resolver: resolve });
  return verified.results.map((r) => ({
    result: r.status.result,
    signingDomain: r.signingDomain ?? '',
    selector: r.selector ?? '',
    info: r.info ?? '',
  }));
}
