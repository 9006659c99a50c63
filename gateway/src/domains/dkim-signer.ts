/**
 * DKIM signatures computed from the message in one pass (RFC 6376): relaxed/relaxed canonicalization
 * (section 3.4.2 for the header fields, 3.4.4 for the body), the body hash with SHA-256, RSA-SHA256
 * (section 3.3) or Ed25519-SHA256 (RFC 8463). Synchronous and allocation-light: the key is parsed once
 * per process (a Node KeyObject kept by its PEM), the body canonicalized with a few regular
 * expressions over its bytes, and only the header fields named in the signature are canonicalized.
 *
 * mailauth stays the reference: the tests verify these signatures with mailauth's verifier, and a
 * message this signer does not read plainly (a bare LF, no header/body separator) is signed by
 * mailauth (dkim.ts).
 */
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';

export interface DkimSigningKey {
  domain: string;
  selector: string;
  /** PEM: an RSA key (rsa-sha256) or an Ed25519 key (ed25519-sha256). */
  privateKey: string;
}

/** Keys parsed so far, by their PEM (a handful per process: the platform's and tenants' domains). */
const parsedKeys = new Map<string, KeyObject>();
const KEYS_KEPT = 200;

function keyObject(pem: string): KeyObject {
  let key = parsedKeys.get(pem);
  if (!key) {
    key = createPrivateKey(pem);
    if (parsedKeys.size >= KEYS_KEPT) parsedKeys.clear();
    parsedKeys.set(pem, key);
  }
  return key;
}

/** The message as this signer reads it: its header block and body as latin1 text (one char a byte). */
export interface SplitMessage {
  head: string;
  body: string;
}

/** Header block and body, or null when the message is not plain CRLF text this signer reads. */
export function splitMessage(raw: Buffer): SplitMessage | null {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  // A bare LF or CR: leave it to mailauth's canonicalization.
  if (/(?<!\r)\n|\r(?!\n)/.test(text)) return null;
  return { head: text.slice(0, end + 2), body: text.slice(end + 4) };
}

/** RFC 6376 section 3.4.4: WSP runs as one SP, none at a line's end, no empty lines at the end, a final CRLF. */
export function relaxedBody(body: string): string {
  let out = body;
  if (/[ \t]/.test(out))
    out = out
      .replace(/[ \t]+/g, ' ')
      .replace(/ \r\n/g, '\r\n')
      .replace(/ $/, '');
  let end = out.length;
  while (end >= 2 && out.charCodeAt(end - 1) === 10 && out.charCodeAt(end - 2) === 13) end -= 2;
  out = out.slice(0, end);
  return out.length === 0 ? '' : `${out}\r\n`;
}

/** The base64 SHA-256 of the relaxed body (the bh= tag). */
export function bodyHash(body: string): string {
  return createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
}

/** Header fields in order: [lowercase name, the whole field as written (folded lines joined)]. */
function fieldsOf(head: string): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (const line of head.split('\r\n')) {
    if (!line) continue;
    const last = fields[fields.length - 1];
    if ((line[0] === ' ' || line[0] === '\t') && last) last[1] += `\r\n${line}`;
    else
      fields.push([
        line
          .slice(0, Math.max(0, line.indexOf(':')))
          .trim()
          .toLowerCase(),
        line,
      ]);
  }
  return fields;
}

/** RFC 6376 section 3.4.2: name in lower case, unfolded, WSP runs as one SP, none around the colon or at the end. */
function relaxedField(field: string): string {
  const colon = field.indexOf(':');
  const name = field.slice(0, colon).trim().toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

/**
 * The canonicalized header fields to sign and their names for h=: of each name of `headerList` that
 * the message has, its instances from the last up (RFC 6376 section 5.4.2).
 */
export function signedFields(head: string, headerList: readonly string[]): { names: string[]; canonical: string } {
  const fields = fieldsOf(head);
  const names: string[] = [];
  let canonical = '';
  for (const wanted of headerList) {
    const name = wanted.toLowerCase();
    for (let i = fields.length - 1; i >= 0; i--) {
      const field = fields[i];
      if (!field || field[0] !== name) continue;
      names.push(name);
      canonical += `${relaxedField(field[1])}\r\n`;
    }
  }
  return { names, canonical };
}

/** Splits a base64 value for a header (after the first WSP, folding is not signed: RFC 6376 section 3.5). */
function fold(value: string): string {
  return value.replace(/.{1,72}/g, (chunk, at: number) => (at === 0 ? chunk : `\r\n ${chunk}`));
}

/**
 * The DKIM-Signature header fields (each ending in CRLF) for `keys`, over a message already split:
 * the body hashed once, the header fields canonicalized once, one signature per key.
 */
export function dkimSignatures(
  message: SplitMessage,
  keys: readonly DkimSigningKey[],
  headerList: readonly string[],
  signTime: Date = new Date(),
): string {
  const bh = bodyHash(message.body);
  const { names, canonical } = signedFields(message.head, headerList);
  const t = Math.floor(signTime.getTime() / 1000);
  let out = '';
  for (const key of keys) {
    const privateKey = keyObject(key.privateKey);
    const ed25519 = privateKey.asymmetricKeyType === 'ed25519';
    const tags = [
      'v=1',
      `a=${ed25519 ? 'ed25519-sha256' : 'rsa-sha256'}`,
      'c=relaxed/relaxed',
      `d=${key.domain}`,
      `s=${key.selector}`,
      `t=${t}`,
      `h=${names.join(':')}`,
      `bh=${bh}`,
      'b=',
    ];
    // Signed as the verifier canonicalizes the field: unfolded, b= empty (RFC 6376 section 3.7).
    const data = Buffer.from(`${canonical}dkim-signature:${tags.join('; ')}`, 'latin1');
    // RFC 8463 section 3: Ed25519 signs the SHA-256 hash of the data (PureEdDSA over the hash).
    const b = ed25519
      ? sign(null, createHash('sha256').update(data).digest(), privateKey)
      : sign('sha256', data, privateKey);
    out += `DKIM-Signature: ${tags.join(';\r\n ')}${fold(b.toString('base64'))}\r\n`;
  }
  return out;
}
