import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { dkimSignMessageWith } from '../domains/index';
import { loadPlatformDkim, platformDkimRecord } from './platform-dkim';
import { testPlatformKeyFile } from '../../test/platform-key';
import { verifyDkimAgainst } from '../../test/dkim-verify';
import { createMailer } from './mailer';

// Every mail is DKIM-signed with the platform's key (signing-keys.ts).
const platformDkim = loadPlatformDkim({ PLATFORM_DKIM_PRIVATE_KEY_FILE: testPlatformKeyFile() }, '', 'console.test')!;
const published = { [platformDkimRecord(platformDkim).name]: platformDkimRecord(platformDkim).value };

async function assertPlatformSigned(raw: Buffer) {
  const results = await verifyDkimAgainst(raw, published);
  assert.deepEqual(
    results.map((r) => [r.signingDomain, r.selector, r.result]),
    [['console.test', 'console1', 'pass']],
    results[0]?.info,
  );
}

const mail = {
  to: 'someone@example.test',
  subject: 'Hello',
  text: `A long link: http://localhost:3000/reset/${'x'.repeat(120)}`,
};

describe('mailer', () => {
  it('writes each mail to the outbox as an .eml file when no SMTP_URL is set', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    try {
      const mailer = createMailer(
        {
          smtpUrl: null,
          mailFrom: 'Console <no-reply@console.test>',
          outboxDir,
          platformDkim,
        },
        dkimSignMessageWith,
      );
      await mailer.send(mail);
      const files = fs.readdirSync(outboxDir);
      assert.equal(files.length, 1);
      assert.match(files[0] ?? '', /\.eml$/);
      const parsed = await PostalMime.parse(fs.readFileSync(path.join(outboxDir, files[0] ?? '')));
      assert.equal(parsed.subject, 'Hello');
      assert.equal(parsed.to?.[0] && 'address' in parsed.to[0] ? parsed.to[0].address : '', mail.to);
      assert.ok(parsed.text?.includes(mail.text));
      await assertPlatformSigned(fs.readFileSync(path.join(outboxDir, files[0] ?? '')));
    } finally {
      fs.rmSync(outboxDir, { recursive: true, force: true });
    }
  });

  it('sends through SMTP when SMTP_URL is set', async () => {
    const received: Buffer[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          done();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.server.address() as AddressInfo;
      const mailer = createMailer(
        {
          smtpUrl: `smtp://127.0.0.1:${port}`,
          mailFrom: 'no-reply@console.test',
          outboxDir: '/nonexistent',
          platformDkim,
        },
        dkimSignMessageWith,
      );
      await mailer.send(mail);
      assert.equal(received.length, 1);
      const parsed = await PostalMime.parse(received[0] ?? Buffer.alloc(0));
      assert.equal(parsed.subject, 'Hello');
      assert.ok(parsed.text?.includes(mail.text));
      await assertPlatformSigned(received[0] ?? Buffer.alloc(0));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
