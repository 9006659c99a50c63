// The runs' ends log of embedded PGlite (ends-log.ts): what a killed run ended is read back, and a
// line cut short, or a file that is not a run's, is no record.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { EndsLog, endsDirOf, leftByRuns, parseRun } from './ends-log';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ends-log-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const run = { campaignId: '7b0f6f8e-4c1e-4c55-9d1e-1f7f0c3a9e11', worker: 'host:42:abcd' };
const at = new Date('2026-11-28T05:00:00.123Z');

it('sits beside PGlite on disk, and nowhere for a database in memory', () => {
  assert.equal(endsDirOf('/srv/data/pglite'), '/srv/data/pglite-sends');
  assert.equal(endsDirOf('/srv/data/pglite/'), '/srv/data/pglite-sends');
  assert.equal(endsDirOf('memory://'), null);
});

it('a killed run leaves what it ended; a run closed with its rows committed leaves nothing', () => {
  const dir = path.join(root, 'runs');
  const killed = new EndsLog(dir, run);
  killed.ending(17, '<c.17@acme.example>');
  killed.ending(18, '<c.18@acme.example>');
  const failed = new EndsLog(dir, { ...run, worker: 'host:42:other' });
  failed.ending(99, '<c.99@acme.example>');
  failed.close(false); // a commit failed: the file stays for the next start
  const closed = new EndsLog(dir, run);
  closed.ending(5, '<c.5@acme.example>');
  closed.close(true);
  new EndsLog(dir, run).close(true); // ended nothing: no file at all

  const left = leftByRuns(dir);
  assert.equal(left.length, 2, 'one file per run that ended messages and did not close committed');
  const byWorker = new Map(left.map((l) => [l.run?.worker, l.run?.ends]));
  assert.deepEqual(byWorker.get(run.worker), [
    { id: 17, messageId: '<c.17@acme.example>' },
    { id: 18, messageId: '<c.18@acme.example>' },
  ]);
  assert.deepEqual(byWorker.get('host:42:other'), [{ id: 99, messageId: '<c.99@acme.example>' }]);
  assert.ok(
    left.every((l) => l.run && Date.now() - l.run.at.getTime() < 60_000),
    'the file time is the ends time',
  );
  for (const l of left) l.remove();
  assert.deepEqual(leftByRuns(dir), []);
  assert.deepEqual(leftByRuns(path.join(root, 'never')), [], 'no directory: nothing left');
});

it('a line cut short by a kill, or anything else, is no record', () => {
  const head = `${JSON.stringify(run)}\n`;
  assert.deepEqual(parseRun(`${head}17 <a@b>\n18 <c@d>\n`, at), {
    ...run,
    at,
    ends: [
      { id: 17, messageId: '<a@b>' },
      { id: 18, messageId: '<c@d>' },
    ],
  });
  assert.deepEqual(parseRun(`${head}17 <a@b>\n18 <c@`, at)?.ends, [{ id: 17, messageId: '<a@b>' }], 'cut short');
  assert.deepEqual(parseRun(`${head}17 <a@b>\n18`, at)?.ends, [{ id: 17, messageId: '<a@b>' }], 'cut after the id');
  assert.deepEqual(parseRun(`${head}x <a@b>\n-1 <c@d>\n7\n`, at)?.ends, [], 'malformed lines');
  assert.deepEqual(parseRun(head, at)?.ends, []);
  assert.equal(parseRun(head.slice(0, 20), at), null, 'the first line cut short');
  assert.equal(parseRun(`${JSON.stringify({ campaignId: 1, worker: 'w' })}\n`, at), null);
  assert.equal(parseRun('', at), null);
});
