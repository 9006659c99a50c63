/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com, "Signature scheme"): the signed
 * content is `{webhook-id}.{webhook-timestamp}.{body}`, signed with HMAC-SHA256 keyed by the secret's
 * bytes (the base64 after `whsec_`), sent as `webhook-signature: v1,<base64 signature>`. Pure.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 24 random bytes (the spec allows 24 to 64). */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/** The key bytes of a `whsec_…` secret. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header's value for one message. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt (timestamp: whole seconds since the epoch). */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
  };
}

/** An event id: `msg_` + 24 random URL-safe characters (the `webhook-id`, unique per event). */
export function newEventId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}
