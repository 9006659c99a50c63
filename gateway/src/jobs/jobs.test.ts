// The job runner (src/jobs/runner.ts) on this run's backend (PGlite, or PostgreSQL with TEST_DATABASE_URL):
// a job runs once; a failing one is retried with backoff and ends failed; a delayed one waits; a
// recurring one fires; a gateway killed (SIGKILL) mid-job has the job run again after a restart and its
// effect applied once; two gateways on one PostgreSQL server never run one job twice.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JobRunner } from './runner';
import { startGateway, type TestGateway } from '../../test/helpers';
import { exited, scratchDatabase, startGatewayProcess, type GatewayProcess } from '../../test/processes';

const serverUrl = process.env.TEST_DATABASE_URL;

async function eventually<T>(probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the job runner', () => {
  let gw: TestGateway;
  let jobs: JobRunner;
  const runs = new Map<string, number[]>();
  const record = (key: string): void => {
    runs.set(key, [...(runs.get(key) ?? []), Date.now()]);
  };

  before(async () => {
    gw = await startGateway();
    const config = {
      ...gw.config,
      jobs: { workers: true, pollSeconds: 0.5, superviseSeconds: 1, heartbeatSeconds: 10 },
    };
    jobs = new JobRunner({ db: gw.handle.db, config, workers: true, log: gw.app.log });
    jobs.work<{ key: string }>('test.once', async (job) => record(job.data.key));
    jobs.work<{ key: string }>(
      'test.failing',
      async (job) => {
        record(job.data.key);
        throw new Error('always fails');
      },
      { retryLimit: 2, retryDelay: 1, retryBackoff: true },
    );
    jobs.work('test.cron', async () => record('cron'));
    jobs.schedule('test.cron', '* * * * *');
    await jobs.start();
  });
  after(async () => {
    await jobs.stop();
    await gw.close();
  });

  it('runs a job once', async () => {
    const id = await jobs.send('test.once', { key: 'once' });
    assert.ok(id);
    await eventually(async () => (await jobs.job('test.once', id))?.state === 'completed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(runs.get('once')?.length, 1);
    assert.deepEqual(await jobs.job('test.once', id), { state: 'completed', retryCount: 0 });
  });

  it('retries a failing job with a growing delay, then it ends failed', async () => {
    const id = await jobs.send('test.failing', { key: 'failing' });
    assert.ok(id);
    const job = await eventually(async () => {
      const j = await jobs.job('test.failing', id);
      return j?.state === 'failed' ? j : null;
    }, 60_000);
    const times = runs.get('failing') ?? [];
    assert.equal(times.length, 3, 'the first run and 2 retries');
    assert.equal(job.retryCount, 2);
    const [a = 0, b = 0, c = 0] = times;
    // Backoff: about retryDelay × 2^n with jitter (pg-boss), polled every 0.5 s.
    assert.ok(b - a >= 450, `first retry after ${b - a} ms`);
    assert.ok(c - b >= 900, `second retry after ${c - b} ms`);
    // A retry falls due without a NOTIFY: the worker's poll (0.5 s here) must find it, not a 30 s backstop.
    assert.ok(c - a < 15_000, `the retries took ${c - a} ms`);
    const counts = (await jobs.counts()).find((q) => q.queue === 'test.failing');
    assert.equal(counts?.failed, 1);
  });

  it('a delayed job waits until its time', async () => {
    const sent = Date.now();
    const id = await jobs.send('test.once', { key: 'delayed' }, { startAfter: 2 });
    assert.ok(id);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    assert.equal(runs.get('delayed'), undefined, 'not yet');
    assert.equal((await jobs.job('test.once', id))?.state, 'created');
    await eventually(async () => runs.get('delayed'));
    const [ran = 0] = runs.get('delayed') ?? [];
    assert.ok(ran - sent >= 1900, `ran after ${ran - sent} ms`);
    assert.ok(ran - sent < 10_000, `ran ${ran - sent} ms after it was sent, long after its time`);
  });

  it('a recurring (cron) job fires', async () => {
    await eventually(async () => runs.get('cron'), 90_000);
    assert.ok((runs.get('cron')?.length ?? 0) >= 1);
  });

  it('GET /v1/admin/jobs lists the queues for platform admins only; /health has the counts', async () => {
    const admin = await gw.login('global');
    const r = await gw.get<{ workers: boolean; queues: { queue: string; waiting: number }[] }>('/v1/admin/jobs', admin);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.workers, true);
    const names = r.body.queues.map((q) => q.queue);
    for (const q of ['billing.due-changes', 'imports.housekeeping', 'imports.run']) assert.ok(names.includes(q), q);
    assert.equal((await gw.get('/v1/admin/jobs', await gw.login('acmeOwner'))).status, 403);
    assert.equal((await gw.get('/v1/admin/jobs')).status, 401);
    const health = await gw.get<{ ok: boolean; jobs: { queue: string }[] }>('/health');
    assert.equal(health.status, 200);
    assert.ok(health.body.jobs.some((q) => q.queue === 'imports.run'));
  });
});

// ---------------------------------------------------------------------------------------------------
// Gateway processes (test/fixtures/jobs-gateway.ts: the real app with a `test.effect` queue)
// ---------------------------------------------------------------------------------------------------

type Child = GatewayProcess;

/** The real app with a `test.effect` queue (test/fixtures/jobs-gateway.ts). */
function startChild(dataDir: string, databaseUrl: string | null): Promise<Child> {
  const env = {
    GATEWAY_DATA_DIR: dataDir,
    JWT_SECRET: 'jobs-test-secret-0123456789-abcdefghijkl',
    JOBS_POLL_SECONDS: '0.5',
    JOBS_SUPERVISE_SECONDS: '1',
    JOBS_HEARTBEAT_SECONDS: '10',
  };
  return startGatewayProcess('test/fixtures/jobs-gateway.ts', env, databaseUrl);
}

async function call<T>(child: Child, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${child.url}${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${p}: ${res.status}`);
  return (await res.json()) as T;
}

interface JobView {
  job: { state: string; retryCount: number } | null;
  runs: number;
  effects: number;
}

describe('gateway processes', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-test-'));
  const children: Child[] = [];
  let databaseUrl: string | null = null;
  let drop: (() => Promise<void>) | null = null;

  before(async () => {
    if (!serverUrl) return;
    const scratch = await scratchDatabase(serverUrl, 'jobs_test');
    databaseUrl = scratch.url;
    drop = scratch.drop;
  });
  after(async () => {
    for (const child of children) {
      if (child.proc.exitCode === null && child.proc.signalCode === null) {
        child.proc.kill('SIGKILL');
        await exited(child.proc);
      }
    }
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'a gateway killed mid-job: after a restart the job runs again and its effect is applied once',
    { timeout: 180_000 },
    async (t) => {
      const first = await startChild(dataDir, databaseUrl);
      children.push(first);
      const { ids } = await call<{ ids: string[] }>(first, '/test/jobs', { count: 1, ms: 3000 });
      const id = ids[0] ?? '';
      await eventually(async () => (await call<JobView>(first, `/test/jobs/${id}`)).runs === 1);
      first.proc.kill('SIGKILL');
      await exited(first.proc);

      const started = Date.now();
      const second = await startChild(dataDir, databaseUrl);
      children.push(second);
      const done = await eventually(async () => {
        const view = await call<JobView>(second, `/test/jobs/${id}`);
        return view.job?.state === 'completed' ? view : null;
      }, 120_000);
      t.diagnostic(
        `picked up and completed ${Date.now() - started} ms after the restart (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
      );
      assert.equal(done.runs, 2, 'cut off once, run again once');
      assert.equal(done.effects, 1, 'its effect applied once');
      second.proc.kill('SIGTERM');
      await exited(second.proc);
    },
  );

  it(
    'two gateways on one PostgreSQL server never run one job twice',
    { skip: !serverUrl, timeout: 180_000 },
    async (t) => {
      const a = await startChild(dataDir, databaseUrl);
      const b = await startChild(fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-test-b-')), databaseUrl);
      children.push(a, b);
      const before = await call<{ runs: number; effects: number }>(a, '/test/jobs/summary');
      const N = 400;
      const half = N / 2;
      await Promise.all([call(a, '/test/jobs', { count: half, ms: 5 }), call(b, '/test/jobs', { count: half, ms: 5 })]);
      const summary = await eventually(async () => {
        const s = await call<{
          runs: number;
          jobsRun: number;
          pids: number;
          effects: number;
          maxN: number;
          counts: { waiting: number; active: number; failed: number; completed: number };
        }>(a, '/test/jobs/summary');
        return s.counts.waiting === 0 && s.counts.active === 0 && s.effects - before.effects === N ? s : null;
      }, 120_000);
      t.diagnostic(`runs ${summary.runs - before.runs} by ${summary.pids} processes`);
      assert.equal(summary.runs - before.runs, N, 'each job ran once');
      assert.equal(summary.maxN, 1, 'no effect applied twice');
      assert.equal(summary.counts.failed, 0);
      assert.ok(summary.pids >= 2, 'both gateways worked');
    },
  );
});
