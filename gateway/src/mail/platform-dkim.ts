/**
 * The platform's own DKIM key (docs/domains.md, "Platform signing"): every message the platform sends
 * is signed with it (signing-keys.ts). It is read once per process, when the settings are loaded
 * (config.ts):
 * - PLATFORM_DKIM_PRIVATE_KEY (the PEM itself; `\n` written as two characters is read as a line break)
 *   or PLATFORM_DKIM_PRIVATE_KEY_FILE (a PEM file);
 * - neither, outside production: an RSA-2048 key generated once and kept in the data directory, so a
 *   restart keeps signing with the key whose record was published;
 * - neither, with NODE_ENV=production: the gateway refuses to start. A key nobody published signs
 *   nothing a receiver can check, and unsigned bulk mail is refused by Gmail and Yahoo.
 * - PLATFORM_DKIM=off: no platform key (the mail server at SMTP_URL signs for the platform, as an MTA
 *   with its own DKIM signing does); custom domains still sign, and the gateway warns at start.
 * - PLATFORM_DKIM_COSIGN=on: mail from a tenant's verified domain is signed by the platform's key too,
 *   beneath the tenant's (signing-keys.ts); off by default, one signature, the aligned one.
 * The key is RSA of at least 1024 bits (RFC 8301 section 3.2; 2048 recommended), signed RSA-SHA256.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';

/** A DKIM signing key: d= the domain, s= the selector, the PEM private key (domains/dkim.ts signs with it). */
export interface DkimKey {
  domain: string;
  selector: string;
  privateKey: string;
}

/** The TXT value of a DKIM key record (RFC 6376 section 3.6.1), for the platform's and custom domains' keys. */
export const dkimValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;

export interface PlatformDkim extends DkimKey {
  /** The public key as published in the record's `p=` (base64 of the DER SubjectPublicKeyInfo). */
  publicKey: string;
  /** Where the key was generated and is kept (development without a key), else null. */
  generatedFile: string | null;
  /** PLATFORM_DKIM_COSIGN: also sign mail from a tenant's verified domain (beneath the tenant's signature). */
  cosign: boolean;
}

/** The generated key's file in the data directory. */
export const PLATFORM_KEY_FILE = 'platform-dkim.pem';
export const PLATFORM_SELECTOR_DEFAULT = 'console1';

export const PLATFORM_SIGNING_OFF =
  'PLATFORM_DKIM=off: the gateway does not sign mail with a platform key; the mail server at SMTP_URL must ' +
  '(mailbox providers refuse unsigned bulk mail; docs/domains.md).';
const MIN_BITS = 1024;

export const PLATFORM_KEY_MISSING =
  'PLATFORM_DKIM_PRIVATE_KEY or PLATFORM_DKIM_PRIVATE_KEY_FILE must be set when NODE_ENV=production: every ' +
  'e-mail the platform sends is DKIM-signed with it, and mailbox providers refuse unsigned bulk mail. Create one ' +
  'with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out platform-dkim.pem`, publish the DNS ' +
  'record the gateway prints at start, and set PLATFORM_DKIM_PRIVATE_KEY_FILE to the file (docs/domains.md).';

/** One or more DNS labels: a DKIM selector (RFC 6376 section 3.1), or a domain name with `.` between labels. */
const LABELS = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

type Env = Record<string, string | undefined>;

/** The key in `pem` (named `source` in errors), checked: RSA of at least 1024 bits. */
function parseKey(pem: string, source: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`${source} is not a PEM private key: ${(error as Error).message}`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error(`${source} must be an RSA private key (rsa-sha256), not ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  if (bits < MIN_BITS) throw new Error(`${source} is ${bits} bits: a DKIM key has at least ${MIN_BITS} (RFC 8301)`);
  return key;
}

/** The PEM kept in `dir`, generated (RSA-2048) by the first process that needs it. */
export function keptKey(dir: string): { pem: string; file: string } {
  const file = path.join(dir, PLATFORM_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // Written whole, then linked into place: another process never reads half a key, and the first link wins.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(temp, pem, { mode: 0o600 });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.unlinkSync(temp);
    }
  }
  return { pem: fs.readFileSync(file, 'utf8'), file };
}

/**
 * The platform's signing key from the settings. `defaultDomain`: the domain of the platform's From
 * address (MAIL_FROM), used when PLATFORM_DKIM_DOMAIN is not set. Null with PLATFORM_DKIM=off. Throws on a
 * setting that cannot work.
 */
export function loadPlatformDkim(env: Env, dataDir: string, defaultDomain: string): PlatformDkim | null {
  const mode = (env.PLATFORM_DKIM ?? '').trim().toLowerCase();
  if (mode === 'off') return null;
  if (mode !== '' && mode !== 'on') throw new Error(`PLATFORM_DKIM must be "on" or "off", got "${env.PLATFORM_DKIM}"`);
  const domainSetting = env.PLATFORM_DKIM_DOMAIN?.trim() || defaultDomain;
  const domain = domainToASCII(domainSetting.toLowerCase().replace(/\.$/, ''));
  if (!LABELS.test(domain) || !domain.includes('.')) {
    throw new Error(
      `PLATFORM_DKIM_DOMAIN (default: MAIL_FROM's domain) must be a domain name such as mail.example.com, got "${domainSetting}"`,
    );
  }
  const cosignSetting = (env.PLATFORM_DKIM_COSIGN ?? '').trim().toLowerCase();
  if (cosignSetting !== '' && cosignSetting !== 'on' && cosignSetting !== 'off') {
    throw new Error(`PLATFORM_DKIM_COSIGN must be "on" or "off", got "${env.PLATFORM_DKIM_COSIGN}"`);
  }
  const selector = (env.PLATFORM_DKIM_SELECTOR?.trim() || PLATFORM_SELECTOR_DEFAULT).toLowerCase();
  if (!LABELS.test(selector)) {
    throw new Error(
      `PLATFORM_DKIM_SELECTOR must be a DNS label such as ${PLATFORM_SELECTOR_DEFAULT}, got "${selector}"`,
    );
  }
  const inline = env.PLATFORM_DKIM_PRIVATE_KEY?.trim();
  const fileSetting = env.PLATFORM_DKIM_PRIVATE_KEY_FILE?.trim();
  if (inline && fileSetting) {
    throw new Error('Set PLATFORM_DKIM_PRIVATE_KEY or PLATFORM_DKIM_PRIVATE_KEY_FILE, not both');
  }
  let key: KeyObject;
  let generatedFile: string | null = null;
  if (inline) {
    key = parseKey(inline.replace(/\\n/g, '\n'), 'PLATFORM_DKIM_PRIVATE_KEY');
  } else if (fileSetting) {
    let pem: string;
    try {
      pem = fs.readFileSync(path.resolve(fileSetting), 'utf8');
    } catch (error) {
      throw new Error(`PLATFORM_DKIM_PRIVATE_KEY_FILE cannot be read: ${(error as Error).message}`);
    }
    key = parseKey(pem, `PLATFORM_DKIM_PRIVATE_KEY_FILE (${fileSetting})`);
  } else if (env.NODE_ENV === 'production') {
    throw new Error(PLATFORM_KEY_MISSING);
  } else {
    const kept = keptKey(dataDir);
    key = parseKey(kept.pem, kept.file);
    generatedFile = kept.file;
  }
  return {
    domain,
    selector,
    privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64'),
    generatedFile,
    cosign: cosignSetting === 'on',
  };
}

/** The TXT record receivers look the platform's key up at (RFC 6376 section 3.6.2.1), as custom domains show theirs. */
export function platformDkimRecord(key: Pick<PlatformDkim, 'domain' | 'selector' | 'publicKey'>) {
  return { type: 'TXT' as const, name: `${key.selector}._domainkey.${key.domain}`, value: dkimValue(key.publicKey) };
}

/** DMARC's relaxed alignment (RFC 7489 section 3.1.1): both names have the same organizational domain. */
export function relaxedAligned(a: string, b: string): boolean {
  const org = (name: string) => getDomain(name, { allowPrivateDomains: true }) ?? name;
  return org(a.toLowerCase()) === org(b.toLowerCase());
}

/** A warning when mail from `address` (a platform From setting) would not align with the platform's signature. */
export function alignmentWarning(setting: string, address: string, key: Pick<DkimKey, 'domain'>): string | null {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (relaxedAligned(domain, key.domain)) return null;
  return (
    `${setting} (${address}) is not on PLATFORM_DKIM_DOMAIN (${key.domain}): its mail is signed, ` +
    'but DMARC does not pass without an aligned signature (RFC 7489).'
  );
}
