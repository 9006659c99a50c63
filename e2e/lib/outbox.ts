import fs from 'node:fs';
import path from 'node:path';

/** Quoted-printable soft line breaks and `=3D` undone, so links and texts read whole. */
const readable = (raw: Buffer) =>
  raw
    .toString('utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');

/**
 * The newest mail to `to` (whose subject matches, when given) in the gateway's outbox
 * (`<data dir>/outbox/*.eml`), as stored (the bytes a DKIM verifier checks); waits up to 30 s for it
 * (e2e shares the machine with the gateway's suites).
 */
export async function rawMailTo(dataDir: string, to: string, subject?: RegExp): Promise<Buffer> {
  const dir = path.join(dataDir, 'outbox');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files.sort().reverse()) {
      const raw = fs.readFileSync(path.join(dir, f));
      const text = readable(raw);
      if (!new RegExp(`^To: .*${to}`, 'mi').test(text)) continue;
      if (subject && !subject.test(/^Subject: (.*)$/m.exec(text)?.[1] ?? '')) continue;
      return raw;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''}`);
}

/** The newest mail to `to` (see rawMailTo), quoted-printable soft breaks undone. */
export async function mailTo(dataDir: string, to: string, subject?: RegExp): Promise<string> {
  return readable(await rawMailTo(dataDir, to, subject));
}
