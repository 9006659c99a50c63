// The runs' ends log of embedded PGlite (ends-log.ts): the record a kill leaves is read back, and a
// line cut short or an ended commit is no record.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { EndsLog, endsDirOf, leftByRuns, parseRecord, type PendingGroup } from './ends-log';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ends-log-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const group: PendingGroup = {
  campaignId: '7b0f6f8e-4c1e-4c55-9d1e-1f7f0c3a9e11',
  worker: 'host:42:abcd',
  at: '2026-11-28T05:00:00.123Z',
  ids: [17, 18, 19],
};

it('sits beside PGlite on disk, and nowhere for a database in memory', () => {
  assert.equal(endsDirOf('/srv/data/pglite'), '/srv/data/pglite-sends');
  assert.equal(endsDirOf('/srv/data/pglite/'), '/srv/data/pglite-sends');
  assert.equal(endsDirOf('memory://'), null);
});

it('a run killed between its commit and its ends leaves its pending group; an ended one leaves none', () => {
  const dir = path.join(root, 'runs');
  const killedMidCommit = new EndsLog(dir);
  killedMidCommit.pending({ ...group, ids: [1, 2] });
  killedMidCommit.ended();
  killedMidCommit.pending(group); // the next commit: the process dies before `ended`
  const endedRun = new EndsLog(dir);
  endedRun.pending({ ...group, ids: [99] });
  endedRun.ended(); // over, but the process died before the run closed its file
  const closedRun = new EndsLog(dir);
  closedRun.pending(group);
  closedRun.ended();
  closedRun.close();
  const notCommitted = new EndsLog(dir); // never committed: no file at all
  notCommitted.close();

  const left = leftByRuns(dir);
  assert.equal(left.length, 2, 'one file per run that committed and did not close');
  assert.deepEqual(
    left.map((l) => l.group).filter((g) => g !== null),
    [group],
  );
  for (const l of left) l.remove();
  assert.deepEqual(leftByRuns(dir), []);
  assert.deepEqual(leftByRuns(path.join(root, 'never')), [], 'no directory: nothing left');
});

it('a record cut short by a kill, or anything else, is no record', () => {
  const line = `${JSON.stringify(group)}\n`;
  assert.deepEqual(parseRecord(line), group);
  assert.deepEqual(parseRecord(`${line}{"old":"tail"}`), group, 'what follows the first line is an older record');
  assert.equal(parseRecord('ended\n'), null);
  assert.equal(parseRecord(`ended\n${line.slice(6)}`), null, '`ended` written over a pending group');
  assert.equal(parseRecord(`end${line.slice(3)}`), null, '`ended` cut short over a pending group');
  assert.equal(parseRecord(line.slice(0, 20)), null, 'a pending group cut short');
  assert.equal(parseRecord(`${JSON.stringify({ ...group, ids: ['1'] })}\n`), null);
  assert.equal(parseRecord(`${JSON.stringify({ ...group, at: 'soon' })}\n`), null);
  assert.equal(parseRecord(''), null);
});
