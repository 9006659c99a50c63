/**
 * Reads an applet's manifest from its address (spec section 7: "validates the manifest address by fetching it
 * from the gateway (only http(s), no private addresses outside tests)"). The gateway is the one reaching out, so:
 * http and https only; every host name is resolved here and refused when any of its addresses is not public
 * (lib/public-address.ts; unless allowed), and the connection uses the address checked (no second lookup to
 * rebind); redirects (at most 3) are checked the same way, each hop's host resolved and checked again; one
 * deadline covers the whole read; the body is capped.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isHttpUrl, type AppletManifest } from '../contracts';
import { guardedLookup, PRIVATE_ADDRESS as PRIVATE, PrivateAddressError, type Resolver } from '../lib/guarded-lookup';
import { isPublicAddress } from '../lib/public-address';
import { manifestOf } from './manifest';

export type { Resolver } from '../lib/guarded-lookup';

export interface ManifestFetchOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  /** The host name resolver (tests inject one; node:dns by default). */
  resolve?: Resolver;
  /** Which addresses may be reached when private ones are not allowed (isPublicAddress by default). */
  isAllowed?: (address: string) => boolean;
}

const MAX_REDIRECTS = 3;

/** Why a manifest could not be read: the message is for the client (the manifest_url field). */
export class ManifestError extends Error {
  constructor(reason: string) {
    super(`The manifest could not be read: ${reason}.`);
    this.name = 'ManifestError';
  }
}

/** True when the options let the gateway reach `address`. */
function reachable(address: string, options: ManifestFetchOptions): boolean {
  return options.allowPrivate || (options.isAllowed ?? isPublicAddress)(address);
}

interface Answer {
  status: number;
  location: string | null;
  body: string;
}

function reasonOf(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (error instanceof PrivateAddressError) return PRIVATE;
  if (signal.aborted) return `no answer within ${Math.ceil(timeoutMs / 1000)} s`;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host was not found';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  return 'the connection failed';
}

function get(url: URL, options: ManifestFetchOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !reachable(host, options)) {
      reject(new PrivateAddressError());
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(
      url,
      {
        signal,
        agent: false,
        lookup: guardedLookup((address) => reachable(address, options), options.resolve),
        headers: { accept: 'application/json' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          resolve({ status, location: res.headers.location ?? null, body: '' });
          return;
        }
        const tooLarge = () => new ManifestError(`it is larger than ${Math.floor(options.maxBytes / 1024)} KB`);
        if (Number(res.headers['content-length'] ?? 0) > options.maxBytes) {
          req.destroy();
          reject(tooLarge());
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            req.destroy();
            reject(tooLarge());
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, location: null, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

/** The manifest at `address`: its name and exposed modules; a ManifestError with the reason otherwise. */
export async function fetchManifest(address: string, options: ManifestFetchOptions): Promise<AppletManifest> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = new URL(address);
  try {
    for (let hop = 0; ; hop++) {
      if (!isHttpUrl(url.href)) throw new ManifestError('it redirects to an address that is not http(s)');
      const answer = await get(url, options, signal);
      if (answer.status >= 300 && answer.status < 400 && answer.location) {
        if (hop >= MAX_REDIRECTS) throw new ManifestError('it redirects too many times');
        url = new URL(answer.location, url);
        continue;
      }
      if (answer.status !== 200) throw new ManifestError(`the server answered ${answer.status}`);
      let json: unknown;
      try {
        json = JSON.parse(answer.body.replace(/^\uFEFF/, ''));
      } catch {
        throw new ManifestError('it is not JSON');
      }
      const manifest = manifestOf(json);
      if (!manifest) throw new ManifestError('it is not a Module Federation manifest (no name or exposes)');
      return manifest;
    }
  } catch (error) {
    if (error instanceof ManifestError) throw error;
    throw new ManifestError(reasonOf(error, signal, options.timeoutMs));
  }
}
