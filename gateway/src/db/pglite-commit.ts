import type { EmbeddedPglite } from './pglite-thread';

/** A simple-query message (PostgreSQL frontend protocol 'Q'): the text, NUL-terminated. */
function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message[0] = 0x51; // 'Q'
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}

const COMMIT_AND_BEGIN = simpleQuery('COMMIT; BEGIN');

/**
 * The error in a backend response, if it holds one: the 'M' (message) field of its first
 * ErrorResponse ('E'), else null. Backend messages are a type byte and a length that counts itself.
 */
export function responseError(response: Uint8Array): string | null {
  const bytes = Buffer.from(response.buffer, response.byteOffset, response.byteLength);
  for (let at = 0; at + 5 <= bytes.length;) {
    const type = bytes[at];
    const end = at + 1 + bytes.readInt32BE(at + 1);
    if (type === 0x45) {
      // ErrorResponse: fields of a code byte and a NUL-terminated string, ended by a zero byte.
      for (let f = at + 5; f < end && bytes[f] !== 0;) {
        const stop = bytes.indexOf(0, f + 1);
        if (bytes[f] === 0x4d) return bytes.toString('utf8', f + 1, stop);
        f = stop + 1;
      }
      return 'the commit failed';
    }
    at = end;
  }
  return null;
}

/**
 * Commits the transaction that runs on embedded PGlite now, synchronously, and opens an empty one in
 * its place (which `transaction()`'s own COMMIT then ends at no cost). Call it from inside
 * `transaction()`, after the transaction's last statement answered.
 *
 * Why (campaigns/sender: exactly once): PGlite runs in this process, and a row it commits is on disk
 * when the WebAssembly call returns. Through `transaction()`, the caller learns of the commit only
 * after PGlite has parsed the answer and a chain of promises has settled: a process killed in between
 * leaves rows committed 'sent' whose SMTP data it never ended (the message is lost). Here the caller's
 * next statement runs in the same synchronous frame as the commit.
 *
 * Throws the server's error when the commit fails (a deferred constraint): nothing was committed,
 * and `transaction()`'s ROLLBACK after the throw finds no transaction (a warning, no error).
 *
 * Notifications raised in the transaction (pg_notify) arrive in this answer and are not delivered to
 * PGlite's listeners: commit this way only transactions that touch no table with a notify trigger
 * (users, tenants, plans, communities: drizzle/0011, 0013).
 */
export function commitInPlace(client: EmbeddedPglite): void {
  const error = responseError(client.execProtocolRawSync(COMMIT_AND_BEGIN));
  if (error !== null) throw new Error(error);
}
