import fs from 'node:fs';
import path from 'node:path';

/**
 * The newest mail to `to` (whose subject matches, when given) in the gateway's outbox
 * (`<data dir>/outbox/*.eml`), quoted-printable soft breaks undone; waits up to 10 s for it.
 */
export async function mailTo(dataDir: string, to: string, subject?: RegExp): Promise<string> {
  const dir = path.join(dataDir, 'outbox');
  for (let i = 0; i < 100; i += 1) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const f of files.sort().reverse()) {
      const text = fs
        .readFileSync(path.join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!new RegExp(`^To: .*${to}`, 'mi').test(text)) continue;
      if (subject && !subject.test(/^Subject: (.*)$/m.exec(text)?.[1] ?? '')) continue;
      return text;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''}`);
}
