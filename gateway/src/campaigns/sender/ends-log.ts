/**
 * Embedded PGlite: the group commit of a run whose rows may be committed 'sent' while their messages'
 * ends were never written (campaigns/sender: exactly once).
 *
 * Why: the sender ends a message's data only once its row is committed 'sent'. On PGlite the commit
 * happens on the database's thread (db/pglite-thread.ts) and the gateway's thread learns of it a
 * moment later; a process killed in that moment would leave rows 'sent' whose data it never ended
 * (messages the server discarded, which the restart would skip: lost). So each run writes, with a
 * synchronous write to a file of its own (kept by the operating system when the process is killed):
 *
 * 1. before the transaction, which rows it may commit 'sent' and the commit's instant (`pending`);
 * 2. once the commit is known, before the first end is written, that it is over (`ended`).
 *
 * A start (campaigns/jobs.ts) reads what the runs of the previous process left: a group still
 * pending whose rows were committed 'sent' (at that instant, by that process) had none of its ends
 * written, and `takeBackUnended` (send-job.ts) queues those rows again. What is left is the window
 * between the `ended` write and the ends' writes, in one synchronous frame of the gateway's thread:
 * the same few microseconds as on a PostgreSQL server (commit-on-wire.ts).
 *
 * The record is the file's first line, overwritten in place. A line cut short by a kill mid-write is
 * not a record: cut while writing `pending`, nothing was committed yet; cut while writing `ended`,
 * the commit was over and no end was written yet, which loses that group's messages, as a kill a
 * microsecond later would.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A group commit that may have landed without its ends: the rows, by the process, at the instant. */
export interface PendingGroup {
  campaignId: string;
  /** The process's name in `claimed_by`. */
  worker: string;
  /** The commit's instant: the rows' `sent_at` (ISO 8601). */
  at: string;
  ids: number[];
}

const ENDED = 'ended\n';

/** The directory of the runs' files beside PGlite's data directory; none for a database in memory. */
export function endsDirOf(pgliteDir: string): string | null {
  return pgliteDir.startsWith('memory://') ? null : `${pgliteDir.replace(/[\\/]+$/, '')}-sends`;
}

/** One run's file (created at its first commit, removed when the run ends). */
export class EndsLog {
  private fd: number | null = null;
  private readonly file: string;

  constructor(private readonly dir: string) {
    this.file = path.join(dir, `${randomBytes(8).toString('hex')}.run`);
  }

  private write(line: string): void {
    if (this.fd === null) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.fd = fs.openSync(this.file, 'w');
    }
    fs.writeSync(this.fd, line, 0);
  }

  /** Before the transaction: these rows may be committed 'sent' from now on. */
  pending(group: PendingGroup): void {
    this.write(`${JSON.stringify(group)}\n`);
  }

  /** The commit is over (or failed): written before the first of its ends. */
  ended(): void {
    this.write(ENDED);
  }

  /** The run ended with every commit's ends written: its file goes. */
  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(this.file, { force: true });
  }
}

/** The pending group a file's first line holds, or null (ended, cut short, or not ours). */
export function parseRecord(text: string): PendingGroup | null {
  const line = text.slice(0, text.indexOf('\n') + 1 || text.length).trim();
  if (!line.startsWith('{')) return null;
  try {
    const r = JSON.parse(line) as Partial<PendingGroup>;
    const valid =
      typeof r.campaignId === 'string' &&
      typeof r.worker === 'string' &&
      typeof r.at === 'string' &&
      !Number.isNaN(Date.parse(r.at)) &&
      Array.isArray(r.ids) &&
      r.ids.every((id) => Number.isSafeInteger(id));
    return valid ? (r as PendingGroup) : null;
  } catch {
    return null; // cut short by a kill while it was written
  }
}

/**
 * What the runs of a process that stopped left in `dir`: each file's pending group (or null), and a
 * function that removes the file once its group was taken back.
 */
export function leftByRuns(dir: string): { group: PendingGroup | null; remove: () => void }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.run'));
  } catch {
    return []; // no run ever committed here
  }
  return names.map((name) => {
    const file = path.join(dir, name);
    return { group: parseRecord(fs.readFileSync(file, 'utf8')), remove: () => fs.rmSync(file, { force: true }) };
  });
}
