/**
 * A campaign message as MIME (RFC 5322, 2045-2047): multipart/alternative with the text and HTML
 * parts in quoted-printable, built synchronously from strings. The headers every recipient shares
 * (From, Reply-To) are encoded once per send by nodemailer's MimeNode; per recipient only To,
 * Subject, Message-ID, Date and the tracking headers are written.
 *
 * Why not nodemailer's MailComposer per recipient: its stream pipeline costs ten times as much per
 * message (bench/README.md, "Figures behind rules in the code").
 */
import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import mimeFuncs from 'nodemailer/lib/mime-funcs';
import MimeNode from 'nodemailer/lib/mime-node';

export interface SendHeaders {
  from: { name: string; address: string };
  replyTo?: string;
}

export interface RecipientMessage {
  to: string;
  subject: string;
  messageId: string;
  html: string;
  text: string;
  /** Further headers (List-Unsubscribe, ...), ASCII. */
  headers: Record<string, string>;
  date?: Date;
}

/** The encoded header lines a send shares (From, Reply-To), without a final line break. */
export function sharedHeaders(shared: SendHeaders): string {
  const node = new MimeNode('text/plain');
  // MimeNode takes an address object ({ name, address }) at runtime; its typings say string only.
  node.setHeader('From', shared.from as unknown as string);
  if (shared.replyTo) node.setHeader('Reply-To', shared.replyTo);
  return node
    .buildHeaders()
    .split('\r\n')
    .filter((line: string) => !/^(Content-Type|Content-Transfer-Encoding|Date|Message-ID|MIME-Version):/i.test(line))
    .join('\r\n');
}

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;

/** A header value with non-ASCII words as RFC 2047 encoded words (Q for mostly Latin text, else B). */
function encodeText(value: string): string {
  const oneLine = value.replace(/[\r\n]+/g, ' ');
  if (ASCII_PRINTABLE.test(oneLine)) return oneLine;
  const nonLatin = (oneLine.match(/[\u0080-\uFFFF]/g) ?? []).length;
  const latin = (oneLine.match(/[a-z]/gi) ?? []).length;
  return mimeFuncs.encodeWords(oneLine, nonLatin < latin ? 'Q' : 'B', 52);
}

/** An address with its domain in ASCII (IDNA); the local part as it is. */
function encodeAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0 || ASCII_PRINTABLE.test(address)) return address;
  return `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`;
}

function header(name: string, value: string): string {
  return mimeFuncs.foldLines(`${name}: ${value}`, 76);
}

/** Bytes quoted-printable writes as they are: printable ASCII other than '='. */
const LITERAL = new Uint8Array(256);
for (let b = 0x20; b <= 0x7e; b++) LITERAL[b] = b === 0x3d ? 0 : 1;
/** Of those, the ones a run copies without looking further: not a space or a tab (encoded at a line's end). */
const PLAIN = new Uint8Array(256);
for (let b = 0x21; b <= 0x7e; b++) PLAIN[b] = b === 0x3d ? 0 : 1;
const HEX_DIGITS = Buffer.from('0123456789ABCDEF', 'latin1');
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const DOT = 0x2e;
const EQUALS = 0x3d;
/** The encoder's output buffer, reused (the result is copied out of it). */
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * Quoted-printable (RFC 2045 section 6.7) of the UTF-8 of `text`, as bytes: lines end in CRLF (CR,
 * LF or CRLF in the text), bytes outside printable ASCII and '=' are =XX, a space or tab at the end
 * of a line is encoded, lines longer than 76 characters are broken with soft line breaks (=) that
 * never split an =XX. A '.' that starts a line is written =2E, so these parts never need SMTP's
 * dot-stuffing (RFC 5321 section 4.5.2).
 *
 * One pass over the bytes, copying runs of plain ones, into a reused buffer: the send encodes two
 * parts per recipient, and the regular-expression version of this was a tenth of a sending
 * process's time. (No helper closures: `o` and `col` captured by one run twice as slow.)
 */
export function quotedPrintableBytes(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  room(0, bytes.length);
  return Buffer.from(scratch.subarray(0, encodeInto(bytes, scratch, 0)));
}

/** The most bytes quoted-printable makes of `n`: every byte =XX, plus a soft break (=CRLF) per 25 of them. */
const worstCase = (n: number) => n * 3 + Math.ceil(n / 25) * 3 + 8;

/** `scratch` holds `used` bytes to keep and room for the quoted-printable of `n` more. */
function room(used: number, n: number): void {
  const need = used + worstCase(n);
  if (scratch.length >= need) return;
  const grown = Buffer.allocUnsafe(Math.max(need, scratch.length * 2));
  scratch.copy(grown, 0, 0, used);
  scratch = grown;
}

/** Writes the quoted-printable of `bytes` into `out` from `o` (room checked by the caller); the end offset. */
function encodeInto(bytes: Buffer, out: Buffer, start: number): number {
  const n = bytes.length;
  let o = start;
  let col = 0;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (PLAIN[b] === 1 && (col > 0 || b !== DOT) && col < 75) {
      // A run of plain bytes, as far as the line has room (the 76th column only when the run ends
      // the line).
      let j = i + 1;
      const limit = Math.min(n, i + 76 - col);
      while (j < limit && PLAIN[bytes[j] as number] === 1) j++;
      if (col + (j - i) > 75) {
        const after = j < n ? (bytes[j] as number) : LF;
        if (!(after === CR || after === LF)) j = i + 75 - col;
      }
      for (let k = i; k < j; k++) out[o++] = bytes[k] as number;
      col += j - i;
      i = j;
      continue;
    }
    if (b === CR || b === LF) {
      if (b === CR && bytes[i + 1] === LF) i++;
      out[o++] = CR;
      out[o++] = LF;
      col = 0;
      i++;
      continue;
    }
    const next = i + 1 < n ? (bytes[i + 1] as number) : LF;
    const endsLine = next === CR || next === LF;
    const encode = LITERAL[b] === 0 || ((b === SPACE || b === TAB) && endsLine) || (b === DOT && col === 0);
    if (col + (encode ? 3 : 1) > 75 && !(endsLine && col + (encode ? 3 : 1) <= 76)) {
      out[o++] = EQUALS;
      out[o++] = CR;
      out[o++] = LF;
      col = 0;
    }
    // After a soft break a '.' starts the line: encoded too.
    if (encode || (b === DOT && col === 0)) {
      out[o++] = EQUALS;
      out[o++] = HEX_DIGITS[b >> 4] as number;
      out[o++] = HEX_DIGITS[b & 15] as number;
      col += 3;
    } else {
      out[o++] = b;
      col += 1;
    }
    i++;
  }
  return o;
}

/** {@link quotedPrintableBytes} as a string. */
export function quotedPrintable(text: string): string {
  return quotedPrintableBytes(text).toString('latin1');
}

/**
 * Boundaries: a random prefix per process and a counter. A boundary must not occur in the parts;
 * they are quoted-printable (no line of them starts with "--" followed by 24 random characters).
 */
const BOUNDARY_PREFIX = `----=_cmp_${randomBytes(9).toString('base64url')}`;
let boundaries = 0;

/** One recipient's message. `shared`: {@link sharedHeaders} of the send. */
export function buildMime(shared: string, message: RecipientMessage): Buffer {
  const boundary = `${BOUNDARY_PREFIX}_${(boundaries++).toString(36)}`;
  const head = [
    shared,
    header('To', encodeAddress(message.to)),
    header('Subject', encodeText(message.subject)),
    header('Message-ID', message.messageId),
    ...Object.entries(message.headers).map(([name, value]) => header(name, encodeText(value))),
    header('Date', (message.date ?? new Date()).toUTCString().replace(/GMT/, '+0000')),
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    '',
  ].join('\r\n');
  const middle = [
    '',
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    '',
  ].join('\r\n');
  const end = `\r\n--${boundary}--\r\n`;
  // Written into one reused buffer and copied out once: a message is one allocation, not seven.
  const text = Buffer.from(message.text, 'utf8');
  const html = Buffer.from(message.html, 'utf8');
  room(0, Buffer.byteLength(head, 'utf8') + text.length + middle.length + html.length + end.length);
  let o = scratch.write(head, 0, 'utf8');
  o = encodeInto(text, scratch, o);
  o += scratch.write(middle, o, 'latin1');
  o = encodeInto(html, scratch, o);
  o += scratch.write(end, o, 'latin1');
  return Buffer.from(scratch.subarray(0, o));
}
