/**
 * Embedded PGlite: the messages a run has ended, written before their rows are committed
 * (campaigns/sender: exactly once).
 *
 * Why: on a PostgreSQL server a message's data is ended only once its row is committed 'sent'
 * (commit-on-wire.ts), so each connection waits for a commit per message. PGlite runs in this process
 * and on one thread of it (db/pglite-thread.ts): that wait was most of a connection's time (23 of 28 ms
 * a message at 20,000 contacts, bench/README.md). So on PGlite a run writes, with a synchronous write to
 * a file of its own (kept by the operating system when the process is killed), the row and the
 * Message-ID of each message just before it writes that message's end (`ending`); its row is
 * committed later, with its SMTP answer, in a group commit nobody waits for. A file is this log's
 * only record: a process killed between the write and the commit leaves the row 'sending' in the
 * database and in a file.
 *
 * A start (campaigns/jobs.ts) reads what the runs of the previous process left: the rows it left
 * 'sending' whose line is in its file were ended and become 'sent' (`recoverEnded`, send-job.ts: with
 * the sent time, the campaign's counter, the plan usage and the minute counts, as their commit would
 * have); the others had no end written (the server discarded them) and are queued again. What is left
 * is the window between a line's write and its end's write, in one synchronous frame of the gateway's
 * thread: the same few microseconds as on a PostgreSQL server between COMMIT written and the ends.
 *
 * The file: a first line naming the campaign and the process (`claimed_by`), then one line per message
 * ended, `<row id> <Message-ID>`. A last line cut short by a kill mid-write is no record: its end was
 * not written yet.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a run's file says: the messages it ended, of which campaign, by which process. */
export interface EndedRun {
  campaignId: string;
  /** The process's name in `claimed_by`. */
  worker: string;
  /** When the file was last written (the ends' instant: the rows' sent time, the usage and the minutes). */
  at: Date;
  ends: { id: number; messageId: string }[];
}

/** The directory of the runs' files beside PGlite's data directory; none for a database in memory. */
export function endsDirOf(pgliteDir: string): string | null {
  return pgliteDir.startsWith('memory://') ? null : `${pgliteDir.replace(/[\\/]+$/, '')}-sends`;
}

/** One run's file (created at its first end, removed when the run ends with every row committed). */
export class EndsLog {
  private fd: number | null = null;
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly run: { campaignId: string; worker: string },
  ) {
    this.file = path.join(dir, `${randomBytes(8).toString('hex')}.run`);
  }

  /** Just before a message's end is written: that row is ended from now on. */
  ending(id: number, messageId: string): void {
    if (this.fd === null) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.fd = fs.openSync(this.file, 'a');
      fs.writeSync(this.fd, `${JSON.stringify(this.run)}\n`);
    }
    fs.writeSync(this.fd, `${id} ${messageId.replace(/\s/g, '')}\n`);
  }

  /**
   * The run is over. `committed`: every row it ended is committed, and the file goes; otherwise (a
   * failed commit) it stays for the next start to recover.
   */
  close(committed: boolean): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    if (committed) fs.rmSync(this.file, { force: true });
  }
}

/** A run's file as text: what it ended, or null (no first line, or not ours). */
export function parseRun(text: string, at: Date): EndedRun | null {
  const lines = text.split('\n');
  lines.pop(); // after the last line break: empty, or a line cut short by a kill
  const [first, ...rest] = lines;
  let run: { campaignId?: unknown; worker?: unknown };
  try {
    run = JSON.parse(first ?? '') as typeof run;
  } catch {
    return null;
  }
  if (typeof run.campaignId !== 'string' || typeof run.worker !== 'string') return null;
  const ends = rest.flatMap((line) => {
    const [id, messageId] = line.split(' ');
    const n = Number(id);
    return Number.isSafeInteger(n) && n > 0 && messageId ? [{ id: n, messageId }] : [];
  });
  return { campaignId: run.campaignId, worker: run.worker, at, ends };
}

/**
 * What the runs of a process that stopped left in `dir`: each file's run (or null), and a function
 * that removes the file once its rows are recovered.
 */
export function leftByRuns(dir: string): { run: EndedRun | null; remove: () => void }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.run'));
  } catch {
    return []; // no run ever ended a message here
  }
  return names.map((name) => {
    const file = path.join(dir, name);
    return {
      run: parseRun(fs.readFileSync(file, 'utf8'), fs.statSync(file).mtime),
      remove: () => fs.rmSync(file, { force: true }),
    };
  });
}
