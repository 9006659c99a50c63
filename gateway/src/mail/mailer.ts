import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { DkimKey } from './platform-dkim';
import { signingKeys, type MessageSigner, type PlatformKey } from './signing-keys';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Another sender than MAIL_FROM (a campaign's test send goes out from the campaign's address). */
  from?: { name: string; address: string };
  replyTo?: string;
  /** The key of the tenant's verified sending domain of `from`: signed with it too (signing-keys.ts). */
  dkim?: DkimKey;
}

/** nodemailer's message options for a Mail, `from` defaulting to MAIL_FROM. */
function messageOf(mail: Mail, from: string) {
  const { dkim: _tenantKey, ...rest } = mail;
  return { ...rest, from: mail.from ?? from };
}

/** Builds the MIME message (nodemailer) without sending it. */
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });

/**
 * The message as sent: built, then DKIM-signed with the keys of signing-keys.ts (the platform's, and the
 * tenant's domain's when given).
 */
async function signedMessage(mail: Mail, from: string, signing: Signing) {
  const built = await composer.sendMail(messageOf(mail, from));
  const raw = built.message as Buffer; // `buffer: true`
  return {
    envelope: built.envelope,
    raw: await signing.sign(raw, signingKeys(mail.dkim ?? null, signing.platformKey)),
  };
}

/** How the mailer signs: the platform's key, and the signer (domains/dkim-sign.ts `dkimSignMessageWith`, handed in by the composition root). */
export interface Signing {
  platformKey: PlatformKey | null;
  sign: MessageSigner;
}

/** Where the gateway's e-mails go: an SMTP server, or a local outbox of .eml files. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailSettings {
  smtpUrl: string | null;
  mailFrom: string;
  outboxDir: string;
  /** The platform's DKIM key (config.platformDkim): every mail is signed with it (null: PLATFORM_DKIM=off). */
  platformDkim: PlatformKey | null;
}

/** SMTP when SMTP_URL is set (e.g. smtp://user:pass@host:587). */
export function smtpMailer(smtpUrl: string, from: string, signing: Signing): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail(await signedMessage(mail, from, signing));
    },
  };
}

/**
 * Each mail becomes `<outbox>/<time>-<random>.eml`, readable with any mail client or parser: the bytes an
 * SMTP server would receive (CRLF line ends, as signed).
 */
export function outboxMailer(outboxDir: string, from: string, signing: Signing): Mailer {
  return {
    async send(mail) {
      const { raw } = await signedMessage(mail, from, signing);
      await fs.mkdir(outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await fs.writeFile(`${file}.tmp`, raw);
      await fs.rename(`${file}.tmp`, file); // readers never see a half-written mail
    },
  };
}

export function createMailer(settings: MailSettings, sign: MessageSigner): Mailer {
  const signing = { platformKey: settings.platformDkim, sign };
  return settings.smtpUrl
    ? smtpMailer(settings.smtpUrl, settings.mailFrom, signing)
    : outboxMailer(settings.outboxDir, settings.mailFrom, signing);
}
