/**
 * How a receiver checks a delivery (Standard Webhooks): shown on the page and in docs/webhooks.md, the
 * same text. Node's own crypto, no package needed.
 */
export const VERIFY_RECIPE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: the endpoint's signing secret (whsec_...); body: the raw request body, as text.
export function verifyWebhook(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  // Refuse old or future deliveries (replays): 5 minutes either way.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  // The header may carry several signatures ("v1,<base64> v1,<base64>"): one must match.
  return headers['webhook-signature'].split(' ').some((part) => {
    const [version, signature] = part.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}`;
