/**
 * The rule for a sending domain's name (our choice, after the best sending services): a registrable
 * domain or a subdomain of one, stored lower case in ASCII (internationalised names in punycode).
 * Public suffixes come from the Public Suffix List with its private section (`tldts`), so a shared
 * host's suffix such as `github.io` is refused while `me.github.io` is fine.
 */
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';

export const NAME_MAX = 253;
export const LABEL_MAX = 63;

export const DOMAIN_REQUIRED = 'Enter a domain.';
export const DOMAIN_INVALID = 'Enter a domain name such as mail.example.com.';
export const DOMAIN_IP = 'Enter a domain name, not an IP address.';
export const DOMAIN_NO_DOT = 'Enter a full domain name such as example.com.';
export const DOMAIN_TOO_LONG = `A domain name has at most ${NAME_MAX} characters.`;
export const LABEL_TOO_LONG = `Each part of a domain name has at most ${LABEL_MAX} characters.`;
export const PUBLIC_SUFFIX = 'This is a public suffix, not a domain of yours. Enter your domain or a subdomain of it.';

/** Letters, digits and hyphens, not starting or ending with a hyphen (RFC 1123 host names, in ASCII). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export type NameCheck = { ok: true; domain: string } | { ok: false; message: string };

/** The stored form of `input`, or why it cannot be a sending domain. */
export function normalizeDomain(input: string): NameCheck {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (!trimmed) return { ok: false, message: DOMAIN_REQUIRED };
  if (isIP(trimmed) || isIP(trimmed.replace(/^\[|\]$/g, ''))) return { ok: false, message: DOMAIN_IP };
  if (!trimmed.includes('.')) return { ok: false, message: DOMAIN_NO_DOT };
  // domainToASCII answers '' for a name that cannot be a domain (spaces, forbidden code points).
  const ascii = domainToASCII(trimmed);
  if (!ascii) return { ok: false, message: DOMAIN_INVALID };
  if (ascii.length > NAME_MAX) return { ok: false, message: DOMAIN_TOO_LONG };
  const labels = ascii.split('.');
  if (labels.some((l) => l.length > LABEL_MAX)) return { ok: false, message: LABEL_TOO_LONG };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, message: DOMAIN_INVALID };
  // An all-numeric last label is no top-level domain (and domainToASCII may turn odd forms into IPs).
  if (isIP(ascii) || /^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return { ok: false, message: DOMAIN_IP };
  const parsed = parse(ascii, { allowPrivateDomains: true, extractHostname: false });
  if (parsed.isIp) return { ok: false, message: DOMAIN_IP };
  if (!parsed.domain || !parsed.publicSuffix || ascii === parsed.publicSuffix) {
    return { ok: false, message: PUBLIC_SUFFIX };
  }
  return { ok: true, domain: ascii };
}
