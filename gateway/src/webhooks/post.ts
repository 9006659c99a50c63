/**
 * One attempt's HTTP request (docs/webhooks.md, "Delivery"): a POST of the signed body to the endpoint,
 * to an address checked just before connecting (address-policy.ts, through the guarded lookup: the
 * socket gets exactly the addresses checked, so DNS cannot rebind between check and connect), no
 * redirect followed (a 3xx is a failure), one deadline for the whole exchange, and at most
 * `RESPONSE_BODY_CAP` bytes of the answer kept.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, PrivateAddressError } from '../lib/guarded-lookup';
import { addressAllowed, hostOf, urlShapeError, ADDRESS_MESSAGES, type AddressPolicy } from './address-policy';

/** The bytes of an answer's body the log keeps. */
export const RESPONSE_BODY_CAP = 1024;

export interface PostOutcome {
  /** The HTTP status; null when none came. */
  statusCode: number | null;
  /** From the start to the end of the answer (or the failure). */
  ms: number;
  error: string | null;
  body: string | null;
}

export interface PostOptions {
  policy: AddressPolicy;
  timeoutMs: number;
}

function reasonOf(error: unknown, timedOut: boolean, timeoutMs: number, protocol: string): string {
  // Plain http is only for loopback: anywhere else the address needs https.
  if (error instanceof PrivateAddressError)
    return protocol === 'http:' ? ADDRESS_MESSAGES.https : ADDRESS_MESSAGES.private;
  if (timedOut) return `No answer within ${Math.ceil(timeoutMs / 1000)} s.`;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return ADDRESS_MESSAGES.notFound;
  if (code === 'ECONNREFUSED') return 'The connection was refused.';
  if (code === 'ECONNRESET') return 'The connection was closed before an answer.';
  if (code.startsWith('ERR_TLS') || code.includes('CERT')) return `The TLS handshake failed (${code}).`;
  return `The request failed${code ? ` (${code})` : ''}.`;
}

/** POSTs `body` with `headers` to `address`; never throws. */
export function postSigned(
  address: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const shape = urlShapeError(address, options.policy);
  if (shape) return Promise.resolve({ statusCode: null, ms: 0, error: shape, body: null });
  const url = new URL(address);
  const allowed = addressAllowed(options.policy, url.protocol);
  const host = hostOf(url);
  if (isIP(host) && !allowed(host)) {
    const error = reasonOf(new PrivateAddressError(), false, options.timeoutMs, url.protocol);
    return Promise.resolve({ statusCode: null, ms: 0, error, body: null });
  }
  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        signal,
        agent: false,
        lookup: guardedLookup(allowed, options.policy.resolve),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'community-console-webhooks/1',
        },
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_BODY_CAP) return;
          const piece = chunk.subarray(0, RESPONSE_BODY_CAP - kept);
          chunks.push(piece);
          kept += piece.length;
          // Enough is kept: the rest is not read.
          if (kept >= RESPONSE_BODY_CAP) {
            finish({ statusCode, ms: elapsed(), error: null, body: Buffer.concat(chunks).toString('utf8') });
            res.destroy();
          }
        });
        res.on('end', () =>
          finish({ statusCode, ms: elapsed(), error: null, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (error) =>
          finish({
            statusCode,
            ms: elapsed(),
            error: reasonOf(error, signal.aborted, options.timeoutMs, url.protocol),
            body: null,
          }),
        );
      },
    );
    req.on('error', (error) =>
      finish({
        statusCode: null,
        ms: elapsed(),
        error: reasonOf(error, signal.aborted, options.timeoutMs, url.protocol),
        body: null,
      }),
    );
    req.end(body);
  });
}
