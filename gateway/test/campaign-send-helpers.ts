// Shared by the campaign delivery suites: a real SMTP peer, contacts and campaigns written straight
// into the database (the compose routes are another area's), and waits on the rows the sender keeps.
import net, { type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { AudienceSelection } from '../src/contracts';
import type { Database } from '../src/db/index';
import { intOf, queryRows, textOf, type Queryable } from '../src/lib/raw-sql';

export interface ReceivedMail {
  to: string;
  /** The envelope sender (MAIL FROM). */
  from: string;
  raw: Buffer;
}

export interface SmtpPeer {
  port: number;
  received: ReceivedMail[];
  /** Answer for a recipient at RCPT time (null: accept). */
  rcpt: (address: string) => { code: number; message: string } | null;
  /** Answer after the data (null: 250). */
  data: (address: string) => { code: number; message: string } | null;
  /** Milliseconds to wait before answering the data. */
  delayMs: number;
  close(): Promise<void>;
}

/** An SMTP server on a free port that keeps every message whose data ended (an aborted DATA is not a message). */
export async function startSmtpPeer(keep = true): Promise<SmtpPeer> {
  const peer: SmtpPeer = {
    port: 0,
    received: [],
    rcpt: () => null,
    data: () => null,
    delayMs: 0,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const answer = peer.rcpt(address.address);
      if (!answer) return callback();
      const error = new Error(answer.message) as Error & { responseCode: number };
      error.responseCode = answer.code;
      callback(error);
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => {
        if (keep) chunks.push(c);
      });
      stream.on('end', () => {
        const to = session.envelope.rcptTo[0]?.address ?? '';
        const finish = () => {
          const answer = peer.data(to);
          if (answer) {
            const error = new Error(answer.message) as Error & { responseCode: number };
            error.responseCode = answer.code;
            return callback(error);
          }
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          peer.received.push({ to, from, raw: Buffer.concat(chunks) });
          callback();
        };
        if (peer.delayMs > 0) setTimeout(finish, peer.delayMs);
        else finish();
      });
    },
  });
  // A client killed mid-session (the SIGKILL tests) resets its connection: the peer carries on.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.server.address() as AddressInfo).port;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}

export function parseMail(raw: Buffer): Promise<Email> {
  return PostalMime.parse(raw);
}

/** `n` contacts `<prefix><i>@<domain>` of a tenant, subscribed, in list `listId` when given. */
export async function insertContacts(
  db: Queryable,
  tenantId: string,
  n: number,
  prefix: string,
  options: { listId?: string; domain?: string; status?: string; firstName?: string } = {},
): Promise<void> {
  const domain = options.domain ?? 'send.test';
  await db.execute(sql`
    with made as (
      insert into contacts (tenant_id, email, first_name, last_name, status, source)
      select ${tenantId}::uuid, ${prefix} || g || ${`@${domain}`}, ${options.firstName ?? 'Reader'}, 'No' || g,
             ${options.status ?? 'subscribed'}, 'api'
        from generate_series(1, ${n}) g
      returning id)
    insert into list_members (list_id, contact_id)
    select ${options.listId ?? null}::uuid, id from made where ${options.listId ?? null}::uuid is not null`);
}

export async function createList(db: Queryable, tenantId: string, name: string): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`insert into lists (tenant_id, name) values (${tenantId}::uuid, ${name}) returning id::text`,
  );
  return textOf(row ?? {}, 'id') ?? '';
}

export async function addToList(db: Queryable, listId: string, contactId: string): Promise<void> {
  await db.execute(sql`insert into list_members (list_id, contact_id) values (${listId}::uuid, ${contactId}::uuid)`);
}

export interface CampaignInput {
  tenantId: string;
  templateId: string;
  audience: Partial<AudienceSelection>;
  status?: 'sending' | 'scheduled';
  scheduledAt?: Date | null;
  subject?: string;
  fromName?: string;
  fromEmail?: string;
  replyTo?: string;
  utm?: Record<string, string>;
}

/** A campaign ready to send (as the compose routes leave it on "send now" or a schedule). */
export async function createCampaign(db: Queryable, c: CampaignInput): Promise<string> {
  const audience = { include_lists: [], include_segments: [], exclude_lists: [], exclude_segments: [], ...c.audience };
  const utm = { source: '', medium: '', campaign: '', term: '', content: '', ...c.utm };
  const [row] = await queryRows(
    db,
    sql`insert into campaigns (tenant_id, name, subject, template_id, status, audience, from_name, from_email,
                               reply_to, utm, scheduled_at, started_at)
        values (${c.tenantId}::uuid, 'Test send', ${c.subject ?? 'Hello {{ contact.first_name }}'},
                ${c.templateId}::uuid, ${c.status ?? 'sending'}, ${JSON.stringify(audience)}::jsonb,
                ${c.fromName ?? 'Acme News'}, ${c.fromEmail ?? ''}, ${c.replyTo ?? ''}, ${JSON.stringify(utm)}::jsonb,
                ${c.scheduledAt ?? null}, ${c.status === 'scheduled' ? null : new Date()})
        returning id::text`,
  );
  return textOf(row ?? {}, 'id') ?? '';
}

export async function campaignRow(db: Queryable, id: string): Promise<Record<string, unknown>> {
  const [row] = await queryRows(
    db,
    sql`select status, recipients, sent, delivered, bounced, failed, unconfirmed, failure_reason, version,
               template_version, audience_taken_at::text from campaigns where id = ${id}::uuid`,
  );
  if (!row) throw new Error(`no campaign ${id}`);
  return row;
}

export async function recipientStatuses(db: Queryable, id: string): Promise<Record<string, number>> {
  const rows = await queryRows(
    db,
    sql`select status, count(*)::int as n from campaign_recipients where campaign_id = ${id}::uuid group by 1`,
  );
  return Object.fromEntries(rows.map((r) => [textOf(r, 'status') ?? '', intOf(r, 'n')]));
}

/**
 * Waits until `check` is true (polls every 50 ms); the default bound only stops a hang on a loaded machine.
 * `what` names the condition in the error; a function is called at the timeout (the state then, not at the call).
 */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 120_000,
  what: string | (() => string) = 'condition',
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function waitForStatus(db: Database, id: string, status: string, timeoutMs = 120_000): Promise<void> {
  await waitUntil(async () => textOf(await campaignRow(db, id), 'status') === status, timeoutMs, `campaign ${status}`);
}

/** No plan limits in the way (a test of the volume sets its own). */
export async function generousPlans(db: Queryable): Promise<void> {
  await db.execute(sql`update plan_prices set email_limit = 10000000`);
}

export const TEMPLATE_MJML = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Hi {{ contact.first_name }} {{ contact.last_name }}, news from {{ community.name }}.</mj-text>
        <mj-button href="https://example.org/news?x=1">Read the news</mj-button>
        <mj-text><a href="{{ view_in_browser_url }}">View in browser</a> <a href="{{ unsubscribe_url }}">Unsubscribe</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

/** drizzle's `sql`, for the campaign bench (bench/ has no drizzle-orm of its own). */
export { sql };

/**
 * The floor the campaign bench compares with: nodemailer's pooled transport (`pool` connections)
 * sending `n` pre-rendered messages to the SMTP server on `port`; messages/s.
 */
export async function nodemailerPoolRate(
  port: number,
  n: number,
  pool: number,
  /** Each message before the timing starts (the bench signs them: "the same pre-signed message"). */
  prepare: (raw: Buffer) => Promise<Buffer> = async (raw) => raw,
): Promise<number> {
  const messages: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const composer = new MailComposer({
      from: 'News <news@console.test>',
      to: `b${i}@bench.test`,
      subject: `Hello Reader ${i}`,
      html: `<p>Hi Reader ${i}</p><p><a href="https://example.org/?r=${i}">Read</a></p>`.repeat(20),
      text: `Hi Reader ${i}\nhttps://example.org/?r=${i}\n`.repeat(20),
    });
    messages.push(await prepare(await composer.compile().build()));
  }
  // TCP_NODELAY on nodemailer's sockets too: it never sets it, so the end of each message's data
  // waits for the peer's delayed ACK (40 ms on Linux; bench/README.md, "The campaign bench's baseline").
  // The baseline is nodemailer at its best, as the campaign transport runs (transport.ts).
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: pool,
    maxMessages: Infinity,
    host: '127.0.0.1',
    port,
    ignoreTLS: true,
    getSocket: (_options: unknown, callback: (error: null, socket: { connection: net.Socket }) => void) => {
      const connection = net.connect(port, '127.0.0.1');
      connection.setNoDelay(true);
      callback(null, { connection });
    },
  } as SMTPPool.Options);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: pool * 2 }, async () => {
      while (next < messages.length) {
        const i = next++;
        await transport.sendMail({
          envelope: { from: 'news@console.test', to: [`b${i}@bench.test`] },
          raw: messages[i],
        });
      }
    }),
  );
  const rate = (messages.length / (performance.now() - t0)) * 1000;
  transport.close();
  return rate;
}
