import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Where the gateway's e-mails go: an SMTP server, or a local outbox of .eml files. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailSettings {
  smtpUrl: string | null;
  mailFrom: string;
  outboxDir: string;
}

/** SMTP when SMTP_URL is set (e.g. smtp://user:pass@host:587). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

/** Each mail becomes `<outbox>/<time>-<random>.eml`, readable with any mail client or parser. */
export function outboxMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      await fs.mkdir(outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outboxDir, name);
      await fs.writeFile(`${file}.tmp`, info.message);
      await fs.rename(`${file}.tmp`, file); // readers never see a half-written mail
    },
  };
}

export function createMailer(settings: MailSettings): Mailer {
  return settings.smtpUrl
    ? smtpMailer(settings.smtpUrl, settings.mailFrom)
    : outboxMailer(settings.outboxDir, settings.mailFrom);
}
