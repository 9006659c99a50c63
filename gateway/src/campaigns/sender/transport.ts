/**
 * Where campaign e-mails go, in two steps so that a recipient is never sent twice (campaigns/sender):
 *
 * 1. `prepare`: everything but the very end. SMTP: MAIL FROM, RCPT TO, DATA, then the whole message
 *    body written, holding back the end of the data (`<CRLF>.<CRLF>`). Outbox: `<name>.eml.tmp` written.
 * 2. The sender commits the recipient 'sent'.
 * 3. `finish`: SMTP: the end of the data is written and the server's answer read. Outbox: the file is
 *    renamed to `<name>.eml` (readers never see `.tmp` files).
 *
 * A process killed before step 2 drops the connection in the middle of DATA (an SMTP server discards a
 * message whose data never ended: RFC 5321 section 4.1.1.4) or leaves a `.tmp` file nobody reads; the
 * row is still 'sending' and goes back to the queue. After step 2 only the write of the end of the data
 * (or the rename) remains: a kill in that instant loses that message (the row says 'sent'), it never
 * sends it twice.
 *
 * SMTP runs on nodemailer's SMTPConnection (nodemailer/lib/smtp-connection), driven directly: its
 * `send(envelope, message)` calls `message.pipe(dataStream)` once DATA is accepted (354), and the data
 * stream (a DataStream piped into the socket with `end: false`) writes the terminating dot only when
 * it is ended. A refused envelope is answered through the send callback (the message is then piped
 * into a PassThrough that only drains it). A pool of `poolSize` connections; a
 * connection carries one message at a time (SMTP has one transaction per connection).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

/** An SMTP answer: its code (250, 451, 550, ...) or 0 when the connection failed without one. */
export interface SmtpAnswer {
  code: number;
  text: string;
}

/** A message whose data is written but not ended. */
export interface PreparedMessage {
  /** Ends the data and reads the answer (outbox: publishes the file, 250). */
  finish(): Promise<SmtpAnswer>;
  /** Drops it (the server discards the message; the outbox file is removed). */
  abort(): void;
}

export interface OutgoingMessage {
  from: string;
  to: string;
  raw: Buffer;
}

/** `prepared`, or the answer that refused it before any data (RCPT TO refused, connection failed). */
export type PrepareResult = { prepared: PreparedMessage } | { refused: SmtpAnswer };

export interface CampaignTransport {
  /** Messages that can be prepared at once (held open until their commit). */
  readonly slots: number;
  prepare(message: OutgoingMessage): Promise<PrepareResult>;
  close(): Promise<void>;
}

function answerOf(error: unknown): SmtpAnswer {
  const e = error as { responseCode?: number; response?: string; message?: string; rejectedErrors?: unknown[] };
  const first = Array.isArray(e.rejectedErrors) ? (e.rejectedErrors[0] as typeof e | undefined) : undefined;
  const code = first?.responseCode ?? e.responseCode ?? 0;
  return { code: typeof code === 'number' ? code : 0, text: first?.response ?? e.response ?? e.message ?? 'failed' };
}

interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string } | null;
  ignoreTLS: boolean;
}

/** smtp://user:pass@host:port (smtps:// for implicit TLS). */
export function smtpSettings(smtpUrl: string): SmtpSettings {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : null,
    ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
  };
}

/** One pooled connection: connected lazily, replaced when it fails. */
class PooledConnection {
  private conn: SMTPConnection | null = null;
  private ready: Promise<SMTPConnection> | null = null;
  /** Fails the message in flight when the connection ends or errs. */
  private onLost: ((answer: SmtpAnswer) => void) | null = null;

  constructor(private readonly settings: SmtpSettings) {}

  private connect(): Promise<SMTPConnection> {
    this.ready ??= new Promise<SMTPConnection>((resolve, reject) => {
      const conn = new SMTPConnection({
        host: this.settings.host,
        port: this.settings.port,
        secure: this.settings.secure,
        ignoreTLS: this.settings.ignoreTLS,
        connectionTimeout: 30_000,
        greetingTimeout: 30_000,
        socketTimeout: 60_000,
      });
      let connected = false;
      const lost = (error: unknown) => {
        if (this.conn === conn) {
          this.conn = null;
          this.ready = null;
        }
        if (!connected) reject(error instanceof Error ? error : new Error(String(error)));
        const fail = this.onLost;
        this.onLost = null;
        fail?.(answerOf(error ?? new Error('the SMTP connection closed')));
      };
      conn.on('error', lost);
      conn.on('end', () => lost(new Error('the SMTP connection closed')));
      conn.connect(() => {
        // Small writes (the end of the data after the commit) go out at once: with Nagle's algorithm
        // they wait for the ACK of the body, up to the peer's delayed-ACK time (40 ms on Linux).
        (conn as unknown as { _socket?: { setNoDelay?: (on: boolean) => void } })._socket?.setNoDelay?.(true);
        const done = () => {
          connected = true;
          this.conn = conn;
          resolve(conn);
        };
        if (!this.settings.auth) return done();
        conn.login(this.settings.auth, (error) => (error ? lost(error) : done()));
      });
    });
    return this.ready;
  }

  async prepare(message: OutgoingMessage): Promise<PrepareResult> {
    let conn: SMTPConnection;
    try {
      conn = await this.connect();
    } catch (error) {
      return { refused: answerOf(error) };
    }
    return new Promise<PrepareResult>((resolve) => {
      let answered: ((answer: SmtpAnswer) => void) | null = null;
      let settled = false;
      const answer = new Promise<SmtpAnswer>((res) => (answered = res));
      const settle = (value: SmtpAnswer) => {
        this.onLost = null;
        if (!settled) {
          // Refused before DATA was accepted: the MAIL transaction is left open on the server, so the
          // connection is closed (a new one is opened for the next message) rather than reused.
          settled = true;
          this.close();
          resolve({ refused: value });
        } else answered?.(value);
      };
      this.onLost = settle;
      // SMTPConnection pipes the message into its data stream once DATA is accepted (354): the body
      // goes in at once; `end()` (which writes the final dot) waits for the sender's commit.
      const body = {
        on: () => body,
        pipe: (data: Writable) => {
          // On a refused envelope SMTPConnection pipes the message into a PassThrough to drain it,
          // then reports the refusal: that is not the data stream.
          if (data instanceof PassThrough) {
            data.end();
            return data;
          }
          data.write(message.raw);
          settled = true;
          resolve({
            prepared: {
              finish: () => {
                data.end();
                return answer;
              },
              abort: () => {
                this.onLost = null;
                conn.close();
              },
            },
          });
          return data;
        },
      };
      conn.send({ from: message.from, to: [message.to] }, body as never, (error, info) => {
        if (error) settle(answerOf(error));
        else settle({ code: Number(/^\d{3}/.exec(info.response)?.[0] ?? 250), text: info.response });
      });
    });
  }

  close(): void {
    this.conn?.quit();
    this.conn = null;
    this.ready = null;
  }
}

/** The SMTP pool (SMTP_URL). A caller never prepares more than `slots` messages at once. */
export function smtpTransport(smtpUrl: string, poolSize: number): CampaignTransport {
  const settings = smtpSettings(smtpUrl);
  const idle = Array.from({ length: poolSize }, () => new PooledConnection(settings));
  const all = [...idle];
  return {
    slots: poolSize,
    async prepare(message) {
      const conn = idle.pop();
      if (!conn) throw new Error('more messages prepared than the SMTP pool has connections');
      const result = await conn.prepare(message);
      if ('refused' in result) {
        idle.push(conn);
        return result;
      }
      const { prepared } = result;
      return {
        prepared: {
          finish: async () => {
            try {
              return await prepared.finish();
            } finally {
              idle.push(conn);
            }
          },
          abort: () => {
            prepared.abort();
            idle.push(conn);
          },
        },
      };
    },
    async close() {
      for (const conn of all) conn.close();
    },
  };
}

/** The outbox (no SMTP_URL): `<outbox>/<time>-<random>.eml`, as the gateway's other mail (mail/mailer.ts). */
export function outboxTransport(outboxDir: string, slots = 50): CampaignTransport {
  let made = false;
  return {
    slots,
    async prepare(message) {
      if (!made) {
        await fs.mkdir(outboxDir, { recursive: true });
        made = true;
      }
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await fs.writeFile(`${file}.tmp`, message.raw);
      return {
        prepared: {
          finish: async () => {
            await fs.rename(`${file}.tmp`, file);
            return { code: 250, text: '250 written to the outbox' };
          },
          abort: () => void fs.rm(`${file}.tmp`, { force: true }),
        },
      };
    },
    async close() {},
  };
}
