/**
 * Addresses the gateway never connects to on a user's behalf: applet manifests (spec section 7: "no private
 * addresses outside tests") and outgoing webhooks (docs/webhooks.md). Decided by range, with ipaddr.js's table of special-purpose ranges (IANA IPv4 and IPv6
 * Special-Purpose Address Registries): an address is public only when `ipaddr.process(address).range()`
 * is 'unicast' (IPv4-mapped IPv6 is judged as the IPv4 address inside it); an IPv6 address must also lie
 * in the global unicast space 2000::/3 (RFC 4291 section 2.4, IANA IPv6 Address Space), which refuses the
 * deprecated IPv4-compatible form ::a.b.c.d (RFC 4291 section 2.5.5.1) and every other reserved block.
 * Anything that is not an IP literal is refused. Pure.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** True when `address` (an IP literal, IPv6 without brackets) is one the gateway may connect to. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv6') return parsed.match(GLOBAL_UNICAST);
  return true;
}

/** True when `address` is one the gateway must not reach (every address that is not public). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** True when `address` is a loopback address (127/8, ::1, or IPv4-mapped 127/8): tests' local receivers. */
export function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  try {
    return ipaddr.process(address).range() === 'loopback';
  } catch {
    return false;
  }
}
