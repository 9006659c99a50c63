/**
 * The inbound SMTP receiver (docs/sending.md, "Bounces and complaints"): the MX of BOUNCE_DOMAIN and
 * of the List-Unsubscribe mailbox, on INBOUND_SMTP_PORT, where the job workers run.
 *
 * - RCPT TO: only a VERP address whose signature holds (addresses.ts) or the unsubscribe mailbox;
 *   anything else is refused with 550 (a forged or altered address never reaches the database).
 * - DATA: at most INBOUND_MAX_BYTES (SIZE, RFC 1870; a larger message is refused with 552), of which
 *   only the headers and the report part are decoded (read-report.ts); connections at most
 *   INBOUND_MAX_CLIENTS, so the work on the event loop is bounded per message and in all.
 * - For a VERP address: the report's outcome (reports.ts) is recorded through the same functions as
 *   the mail provider's webhook (tracking/record.ts): a hard bounce marks the recipient's row and the
 *   contact bounced, a complaint marks the contact complained, a soft bounce is counted on the row.
 *   A message that is no report (an auto-reply) is taken and changes nothing.
 * - For the unsubscribe mailbox: the subject's signed token unsubscribes its recipient, as the
 *   one-click unsubscribe does; a subject without a valid token is refused with 550.
 * - A message past the parser's limits is refused with 550; a failure of ours (the database) answers
 *   451: the sending server tries again later.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { readFile } from 'node:fs/promises';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { Config } from '../../config';
import type { Database } from '../../db/index';
import type { JobRunner } from '../../jobs/index';
import { asBackgroundWork } from '../../db/storage';
import {
  recordComplaint,
  recordHardBounce,
  recordSoftBounce,
  recordUnsubscribe,
  trackedRecipient,
} from '../tracking/record';
import { isUnsubscribeMailbox, recipientOfUnsubscribeSubject, recipientOfVerp } from './addresses';
import { readReport, UnreadableMessage } from './read-report';
import { classifyReport, type ReportOutcome } from './reports';

export interface InboundReceiver {
  port: number;
  close(): Promise<void>;
}

export interface InboundDeps {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  clock: () => Date;
}

/** Recipients of one message: a bounce goes to one envelope sender, a report to a few. */
const MAX_RECIPIENTS = 10;

/** What one message did, for the log. */
export type InboundResult =
  | { to: 'verp'; recipientId: number; outcome: ReportOutcome; recorded: boolean }
  | { to: 'unsubscribe'; recipientId: number | null; recorded: boolean };

class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where an accepted RCPT TO goes: a recipient row's VERP address, or the unsubscribe mailbox. */
type Target = { verp: number } | { unsubscribe: true };

function targetOf(config: Config, address: string): Target | null {
  const id = recipientOfVerp(config.campaigns, address);
  if (id !== null) return { verp: id };
  return isUnsubscribeMailbox(config.campaigns, address) ? { unsubscribe: true } : null;
}

/** Reads one message and records what it says for each of its targets. */
async function handleInbound(deps: InboundDeps, raw: Buffer, targets: readonly Target[]): Promise<InboundResult[]> {
  let email;
  try {
    email = await readReport(raw);
  } catch (error) {
    if (!(error instanceof UnreadableMessage)) throw error;
    // Past the header or part limits, or not MIME at all: sending it again will not help.
    throw new SmtpReply(550, '5.6.0 The message could not be read within its limits');
  }
  const results: InboundResult[] = [];
  const at = deps.clock();
  for (const target of targets) {
    if ('verp' in target) {
      const outcome = classifyReport(email);
      const r = await trackedRecipient(deps.db, target.verp);
      let recorded = false;
      if (r && outcome.kind === 'hard-bounce') recorded = await recordHardBounce(deps.db, r, at, outcome.detail);
      else if (r && outcome.kind === 'soft-bounce') recorded = await recordSoftBounce(deps.db, r, at, outcome.detail);
      else if (r && outcome.kind === 'complaint') recorded = await recordComplaint(deps.db, r, at, outcome.detail);
      results.push({ to: 'verp', recipientId: target.verp, outcome, recorded });
    } else {
      const id = recipientOfUnsubscribeSubject(deps.config.campaigns, email.subject);
      const r = id === null ? null : await trackedRecipient(deps.db, id);
      if (!r && targets.length === 1)
        throw new SmtpReply(550, '5.7.1 The subject carries no valid unsubscribe token: nothing was changed');
      results.push({
        to: 'unsubscribe',
        recipientId: id,
        recorded: r ? await recordUnsubscribe(deps.db, r, at) : false,
      });
    }
  }
  return results;
}

/** Starts the receiver on INBOUND_SMTP_PORT (unset in tests: any free port). */
export async function startInboundReceiver(deps: InboundDeps): Promise<InboundReceiver> {
  const { config, log } = deps;
  const settings = config.campaigns.inbound;
  // Opportunistic TLS (RFC 3207) when the bounce domain's certificate is given; else no STARTTLS at all.
  const tls = settings.tls
    ? { key: await readFile(settings.tls.keyFile), cert: await readFile(settings.tls.certFile) }
    : null;
  const server = new SMTPServer({
    name: config.campaigns.bounceDomain,
    banner: 'bounces, complaints and unsubscribes only',
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ?? {}),
    logger: false,
    size: settings.maxBytes,
    maxClients: settings.maxClients,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    onRcptTo(address: SMTPServerAddress, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS)
        return callback(new SmtpReply(452, '4.5.3 Too many recipients in one message'));
      if (!targetOf(config, address.address))
        return callback(new SmtpReply(550, '5.1.1 No such mailbox: this server takes bounces and unsubscribes only'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= settings.maxBytes) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded || size > settings.maxBytes)
          return callback(new SmtpReply(552, `5.3.4 Message too big: at most ${settings.maxBytes} bytes`));
        const targets = session.envelope.rcptTo
          .map((a) => targetOf(config, a.address))
          .filter((t): t is Target => t !== null);
        asBackgroundWork(deps.db, () => handleInbound(deps, Buffer.concat(chunks), targets))
          .then((results) => {
            log.info({ results }, 'inbound mail recorded');
            callback();
          })
          .catch((error: unknown) => {
            if (error instanceof SmtpReply) return callback(error);
            log.error({ err: error }, 'inbound mail could not be recorded');
            callback(new SmtpReply(451, '4.3.0 Could not record the message now: try again later'));
          });
      });
    },
  });
  server.on('error', (error) => log.error({ err: error }, 'inbound SMTP receiver error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(settings.port ?? 0, settings.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The receiver runs where the job workers run (the gateway, or the workers process with WORKERS=off:
 * docs/jobs.md) when INBOUND_SMTP_PORT is set, and stops with them. A port it cannot listen on is
 * logged as an error; the rest of the process carries on.
 */
export function registerInboundReceiver(jobs: JobRunner, deps: InboundDeps): void {
  const { port, host } = deps.config.campaigns.inbound;
  if (!port) return;
  jobs.onStart(async () => {
    if (!jobs.workers || jobs.stopSignal.aborted) return;
    try {
      const receiver = await startInboundReceiver(deps);
      deps.log.info(`inbound SMTP receiver (bounces, complaints, unsubscribes) on ${host}:${receiver.port}`);
      jobs.stopSignal.addEventListener('abort', () => void receiver.close(), { once: true });
    } catch (error) {
      deps.log.error({ err: error }, `the inbound SMTP receiver could not listen on ${host}:${port}`);
    }
  });
}
