// Group commit (group-commit.ts): requests made while a transaction runs share the next one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GroupCommit } from './group-commit';

function deferred() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { gate, release };
}

/** A group commit with `gather` whose transactions record their requests in `batches`. */
function gathering(gather: { enough: number; waitMs: number; most?: number }) {
  const batches: number[][] = [];
  const commits = new GroupCommit<number, number, string>(
    async (requests) => {
      batches.push([...requests]);
      return requests;
    },
    200,
    gather,
  );
  return { batches, commits };
}

describe('GroupCommit', () => {
  it('commits the requests made during a transaction together in the next one, riders along', async () => {
    const batches: { requests: number[]; riders: string[] }[] = [];
    const first = deferred();
    const commits = new GroupCommit<number, string, string>(async (requests, riders) => {
      batches.push({ requests: [...requests], riders: [...riders] });
      if (batches.length === 1) await first.gate;
      return requests.map((n) => `ok ${n}`);
    });
    const a = commits.request(1);
    commits.ride('answer x');
    const b = commits.request(2);
    const c = commits.request(3);
    first.release();
    assert.deepEqual(await Promise.all([a, b, c]), ['ok 1', 'ok 2', 'ok 3']);
    assert.deepEqual(batches, [
      { requests: [1], riders: [] },
      { requests: [2, 3], riders: ['answer x'] },
    ]);
  });

  it('commits a rider alone after its delay, and flush commits what waits', async () => {
    const batches: string[][] = [];
    const commits = new GroupCommit<number, boolean, string>(async (_requests, riders) => {
      batches.push([...riders]);
      return [];
    }, 20);
    commits.ride('late answer');
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(batches, [['late answer']]);
    commits.ride('at the end');
    await commits.flush();
    assert.deepEqual(batches, [['late answer'], ['at the end']]);
    await commits.flush(); // nothing waits: no transaction
    assert.equal(batches.length, 2);
  });

  it('runs a read between two transactions, never during one', async () => {
    const log: string[] = [];
    const first = deferred();
    const commits = new GroupCommit<number, number, never>(async (requests) => {
      log.push(`begin ${requests.join()}`);
      if (requests[0] === 1) await first.gate;
      log.push(`end ${requests.join()}`);
      return requests;
    });
    const a = commits.request(1);
    const read = commits.between(async () => {
      log.push('read');
      return 'ok';
    });
    const b = commits.request(2);
    first.release();
    assert.deepEqual(await Promise.all([a, read, b]), [1, 'ok', 2]);
    assert.deepEqual(log, ['begin 1', 'end 1', 'read', 'begin 2', 'end 2']);
    assert.equal(await commits.between(async () => 'idle'), 'idle');
  });

  it('a failed transaction rejects its requests and is remembered; the next one runs', async () => {
    let fail = true;
    const commits = new GroupCommit<number, number, never>(async (requests) => {
      if (fail) throw new Error('connection lost');
      return requests;
    });
    await assert.rejects(commits.request(1), /connection lost/);
    assert.match(String(commits.failure), /connection lost/);
    fail = false;
    assert.equal(await commits.request(2), 2);
  });
  it('with gather: waits for enough requests, or the wait, before a transaction; flush does not wait', async () => {
    const { batches, commits } = gathering({ enough: 3, waitMs: 80 });
    // Enough at once: committed together, at once.
    const started = Date.now();
    await Promise.all([commits.request(1), commits.request(2), commits.request(3)]);
    assert.deepEqual(batches, [[1, 2, 3]]);
    assert.ok(Date.now() - started < 60, `enough requests waited ${Date.now() - started} ms`);
    // Too few: they wait for the wait, then go together.
    const t0 = Date.now();
    const few = Promise.all([commits.request(4), commits.request(5)]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(batches.length, 1, 'two requests did not start a transaction before the wait');
    await few;
    assert.ok(Date.now() - t0 >= 75, `the wait was ${Date.now() - t0} ms`);
    assert.deepEqual(batches[1], [4, 5]);
    // A flush commits what waits without the wait.
    const t1 = Date.now();
    const last = commits.request(6);
    await commits.flush();
    await last;
    assert.ok(Date.now() - t1 < 60, `flush waited ${Date.now() - t1} ms`);
    assert.deepEqual(batches[2], [6]);
  });

  it('with gather and most: a transaction takes at most that many, the rest go next without the wait', async () => {
    const { batches, commits } = gathering({ enough: 4, waitMs: 500, most: 3 });
    const started = Date.now();
    const all = await Promise.all([1, 2, 3, 4].map((n) => commits.request(n)));
    assert.deepEqual(all, [1, 2, 3, 4]);
    assert.deepEqual(batches, [[1, 2, 3], [4]]);
    assert.ok(Date.now() - started < 300, `the one left over waited ${Date.now() - started} ms`);
  });
});
