import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Another sender than MAIL_FROM (a campaign's test send goes out from the campaign's address). */
  from?: { name: string; address: string };
  replyTo?: string;
  /** Sign with this key (a tenant's verified sending domain): nodemailer's DKIM signer, RSA-SHA256. */
  dkim?: { domain: string; selector: string; privateKey: string };
}

/** nodemailer's message options for a Mail, `from` defaulting to MAIL_FROM. */
function messageOf(mail: Mail, from: string) {
  const { dkim, ...rest } = mail;
  return {
    ...rest,
    from: mail.from ?? from,
    ...(dkim ? { dkim: { domainName: dkim.domain, keySelector: dkim.selector, privateKey: dkim.privateKey } } : {}),
  };
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
      await transport.sendMail(messageOf(mail, from));
    },
  };
}

/** Each mail becomes `<outbox>/<time>-<random>.eml`, readable with any mail client or parser. */
export function outboxMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail(messageOf(mail, from));
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
