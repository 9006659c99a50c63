/**
 * Where an endpoint may point (docs/webhooks.md, "Addresses"): https to a host whose every address is
 * public (lib/public-address.ts: ipaddr.js's ranges, so loopback, private, link-local, unique-local,
 * multicast, reserved, IPv4-mapped and IPv4-compatible, 6to4 and Teredo forms are all refused). With
 * WEBHOOKS_ALLOW_LOOPBACK (tests, a local receiver) loopback addresses are allowed too, and only they
 * may be reached over plain http. Checked when an endpoint is saved and again before each delivery.
 */
import { isIP } from 'node:net';
import { PrivateAddressError, resolveChecked, systemResolver, type Resolver } from '../lib/guarded-lookup';
import { isLoopbackAddress, isPublicAddress } from '../lib/public-address';
import { WEBHOOK_MESSAGES } from '../contracts';

export interface AddressPolicy {
  allowLoopback: boolean;
  /** The host name resolver (node:dns by default; tests inject one). */
  resolve?: Resolver;
}

export const ADDRESS_MESSAGES = {
  https: WEBHOOK_MESSAGES.url,
  credentials: 'Remove the user name and password from the address.',
  private: 'This address is private (loopback, link-local or a private network): webhooks go to public addresses only.',
  notFound: 'This host name was not found.',
} as const;

/** The address rule of one URL scheme: https reaches public addresses (and loopback when allowed), http loopback only. */
export function addressAllowed(policy: AddressPolicy, protocol: string): (address: string) => boolean {
  if (protocol === 'http:') return (address) => policy.allowLoopback && isLoopbackAddress(address);
  return (address) => isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
}

/** The URL's shape: null when it is one an endpoint may have, else the field's message. Pure. */
export function urlShapeError(value: string, policy: AddressPolicy): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ADDRESS_MESSAGES.https;
  }
  if (url.hostname === '') return ADDRESS_MESSAGES.https;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) return ADDRESS_MESSAGES.https;
  if (url.username !== '' || url.password !== '') return ADDRESS_MESSAGES.credentials;
  return null;
}

/** The host of a URL as node:net reads it (IPv6 without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Checks `value` fully: its shape, then every address its host resolves to. Null when allowed, else the
 * message for the `url` field.
 */
export async function urlError(value: string, policy: AddressPolicy): Promise<string | null> {
  const shape = urlShapeError(value, policy);
  if (shape) return shape;
  const url = new URL(value);
  const allowed = addressAllowed(policy, url.protocol);
  const host = hostOf(url);
  // Plain http is only for loopback: anywhere else the address needs https.
  const refused = url.protocol === 'http:' ? ADDRESS_MESSAGES.https : ADDRESS_MESSAGES.private;
  if (isIP(host)) return allowed(host) ? null : refused;
  try {
    await resolveChecked(host, allowed, policy.resolve ?? systemResolver);
    return null;
  } catch (error) {
    return error instanceof PrivateAddressError ? refused : ADDRESS_MESSAGES.notFound;
  }
}
