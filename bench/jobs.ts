// The job runner's (gateway/src/jobs/runner.ts) throughput and pickup latency, on embedded PGlite and on
// a throw-away PostgreSQL server (scripts/pg-server.mjs, port BENCH_PG_PORT or BENCH_PORT_BASE+300).
// Throughput: N jobs sent at once (8 in flight) and worked by one process (4 at a time), from the first
// send to the last handled. Pickup: one job at a time sent to an idle worker, send to handler start.
import { openDatabase } from '../gateway/src/db/index.ts';
import { JobRunner } from '../gateway/src/jobs/runner.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { median, p95, table } from './lib.ts';

const N = Number(process.env.BENCH_JOBS ?? 2000);
const PICKUPS = 30;
const log = { error: (o: unknown, m?: string) => console.error(m, o), warn: () => undefined };

async function measure(databaseUrl: string | null): Promise<(string | number)[]> {
  const handle = await openDatabase({ databaseUrl, pgliteDir: 'memory://' });
  const config = { databaseUrl, jobs: { workers: true, pollSeconds: 2, superviseSeconds: 10, heartbeatSeconds: 30 } };
  const jobs = new JobRunner({ db: handle.db, config, workers: true, log });
  let handled = 0;
  let onHandled: (() => void) | null = null;
  const started = new Map<string, number>();
  jobs.work(
    'bench.noop',
    async () => {
      if (++handled === N) onHandled?.();
    },
    { concurrency: 4 },
  );
  jobs.work<{ sent: number }>('bench.pickup', async (job) => {
    started.set(job.id, performance.now() - job.data.sent);
  });
  try {
    await jobs.start();
    const allDone = new Promise<void>((resolve) => (onHandled = resolve));
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < N) {
          next++;
          await jobs.send('bench.noop', {});
        }
      }),
    );
    const sentMs = performance.now() - t0;
    await allDone;
    const totalMs = performance.now() - t0;
    const latencies: number[] = [];
    for (let i = 0; i < PICKUPS; i++) {
      const id = await jobs.send('bench.pickup', { sent: performance.now() });
      const end = Date.now() + 10_000;
      while (id && !started.has(id) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 1));
      if (id && started.has(id)) latencies.push(started.get(id) ?? 0);
    }
    return [
      databaseUrl ? 'PostgreSQL' : 'PGlite',
      Math.round((N / sentMs) * 1000),
      Math.round((N / totalMs) * 1000),
      `${median(latencies).toFixed(1)} ms`,
      `${p95(latencies).toFixed(1)} ms`,
    ];
  } finally {
    await jobs.stop();
    await handle.close();
  }
}

export async function jobsBench(): Promise<string> {
  const rows: (string | number)[][] = [['backend', 'sent/s', 'sent+worked/s', 'pickup median', 'pickup p95']];
  rows.push(await measure(null));
  const port = Number(process.env.BENCH_PG_PORT ?? Number(process.env.BENCH_PORT_BASE ?? 3200) + 300);
  const server = startPostgres(port);
  try {
    rows.push(await measure(server.url));
  } finally {
    server.stop();
  }
  return `${N} jobs, one worker process (4 at a time), LISTEN/NOTIFY wake-up\n${table(rows)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await jobsBench());
