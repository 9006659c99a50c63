/**
 * Where campaign e-mails go, in two steps so that a recipient is never sent twice (campaigns/sender):
 *
 * 1. `prepare`: everything but the very end. SMTP: MAIL FROM, RCPT TO, DATA, then the whole message
 *    body written and handed to the kernel, holding back the end of the data (`<CRLF>.<CRLF>`).
 *    Outbox: `<name>.eml.tmp` written.
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
 * SMTP runs on this gateway's own client (smtp-client.ts: pipelined commands, the data's end written
 * on its own). A pool of `poolSize` connections; a connection carries one message at a time (SMTP
 * has one transaction per connection).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SmtpClient, smtpSettings, type SmtpAnswer, type SmtpSettings } from './smtp-client';

export { smtpSettings, type SmtpAnswer } from './smtp-client';

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
  const answer = (error as { answer?: SmtpAnswer }).answer;
  return answer ?? { code: 0, text: error instanceof Error ? error.message : String(error) };
}

/** One pooled connection: connected lazily, replaced when it fails. */
class PooledConnection {
  private client: Promise<SmtpClient> | null = null;

  constructor(private readonly settings: SmtpSettings) {}

  private connect(): Promise<SmtpClient> {
    this.client ??= SmtpClient.connect(this.settings).catch((error: unknown) => {
      this.client = null;
      throw error;
    });
    return this.client;
  }

  async prepare(message: OutgoingMessage): Promise<PrepareResult> {
    let client: SmtpClient;
    try {
      client = await this.connect();
      if (!client.alive) {
        this.client = null;
        client = await this.connect();
      }
    } catch (error) {
      return { refused: answerOf(error) };
    }
    const refused = await client.begin(message.from, message.to);
    if (refused) {
      if (!client.alive) this.client = null;
      return { refused };
    }
    await client.writeData(message.raw);
    const endsWithLineBreak = message.raw.length >= 2 && message.raw[message.raw.length - 1] === 0x0a;
    return {
      prepared: {
        finish: async () => {
          const answer = await client.endData(endsWithLineBreak);
          if (!client.alive) this.client = null;
          return answer;
        },
        abort: () => {
          client.destroy();
          this.client = null;
        },
      },
    };
  }

  close(): void {
    void this.client?.then((c) => c.close()).catch(() => {});
    this.client = null;
  }
}

/** The SMTP pool (SMTP_URL). A caller never prepares more than `slots` messages at once. */
export function smtpTransport(smtpUrl: string | SmtpSettings, poolSize: number): CampaignTransport {
  const settings = typeof smtpUrl === 'string' ? smtpSettings(smtpUrl) : smtpUrl;
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
