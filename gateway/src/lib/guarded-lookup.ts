/**
 * Name resolution for connections the gateway opens on a user's behalf (applet manifests, outgoing
 * webhooks): every address a host name resolves to is checked, the host is refused when any of them is
 * not allowed, and the connection is made to exactly the addresses checked (passed to node:http as its
 * `lookup`), so a second lookup cannot hand a different (rebound) address to the socket.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true`). */
export type Resolver = (
  hostname: string,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

export const PRIVATE_ADDRESS = 'its address is private (loopback, link-local or a private network)';

/** The host resolved to an address the gateway may not reach. */
export class PrivateAddressError extends Error {
  constructor() {
    super(PRIVATE_ADDRESS);
    this.name = 'PrivateAddressError';
  }
}

/** All the addresses of `hostname`, or a PrivateAddressError when any of them is not `allowed`. */
export function resolveChecked(
  hostname: string,
  allowed: (address: string) => boolean,
  resolve: Resolver = systemResolver,
): Promise<LookupAddress[]> {
  return new Promise((done, fail) => {
    resolve(hostname, (error, addresses) => {
      if (error) return fail(error);
      if (addresses.length === 0) return fail(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
      if (addresses.some((a) => !allowed(a.address))) return fail(new PrivateAddressError());
      return done(addresses);
    });
  });
}

/** A node:net lookup that resolves with `resolve` and refuses the host when any address is not `allowed`. */
export function guardedLookup(
  allowed: (address: string) => boolean,
  resolve: Resolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, allowed, resolve).then(
      (addresses) => {
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
