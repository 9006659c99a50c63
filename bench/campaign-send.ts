// A campaign to N contacts (BENCH_CAMPAIGN_CONTACTS, default 1,000,000) on a throw-away PostgreSQL
// server (scripts/pg-server.mjs, port BENCH_PG_PORT or BENCH_PORT_BASE+310), sent by a gateway process
// (src/main.ts; BENCH_PG_URL: a scratch database on that server instead) to a local SMTP peer (smtp-server) that discards every message. Prints: the audience
// snapshot time, sending throughput (messages/s) and its ratio to nodemailer's pooled transport
// (8 connections) sending the same pre-rendered messages to the same peer in the same run, the
// gateway's peak RSS (VmHWM), and the contacts grid's p50/p95 while the send runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../gateway/src/db/index.ts';
import { seed } from '../gateway/src/db/seed.ts';
import { JobRunner } from '../gateway/src/jobs/runner.ts';
import { loadConfig } from '../gateway/src/config.ts';
import { intOf, queryRows, textOf } from '../gateway/src/lib/raw-sql.ts';
import { CAMPAIGN_SEND_QUEUE } from '../gateway/src/campaigns/sender/queue.ts';
import { exited, scratchDatabase, startGatewayProcess } from '../gateway/test/processes.ts';
import {
  createCampaign,
  createList,
  nodemailerPoolRate,
  sql,
  startSmtpPeer,
  TEMPLATE_MJML,
} from '../gateway/test/campaign-send-helpers.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { median, p95, table } from './lib.ts';

const N = Number(process.env.BENCH_CAMPAIGN_CONTACTS ?? 1_000_000);
const BASELINE = Math.min(N, Number(process.env.BENCH_CAMPAIGN_BASELINE ?? 20_000));
const POOL = 8;
/** The gateway's SMTP connections (SEND_POOL_SIZE; its default is 8). */
const SEND_POOL = Number(process.env.BENCH_SEND_POOL ?? 8);
const JWT_SECRET = 'campaign-bench-secret-0123456789-abcdefghij';

function peakRss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

export async function campaignSendBench(): Promise<string> {
  const port = Number(process.env.BENCH_PG_PORT ?? Number(process.env.BENCH_PORT_BASE ?? 3200) + 310);
  // BENCH_PG_URL: a database of its own on a running server instead of a throw-away server.
  const scratch = process.env.BENCH_PG_URL ? await scratchDatabase(process.env.BENCH_PG_URL, 'campaign_bench') : null;
  const server = scratch ? { url: scratch.url, stop: () => void scratch.drop() } : startPostgres(port);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-bench-'));
  const peer = await startSmtpPeer(false);
  const handle = await openDatabase({ databaseUrl: server.url, pgliteDir: 'memory://' });
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | null = null;
  try {
    await handle.migrate();
    await seed(handle.db);
    const db = handle.db;
    await db.execute(sql`update plan_prices set email_limit = 100000000`);
    const [tenant] = await queryRows(db, sql`select tenant_id::text from users where email = 'owner@basic.test'`);
    const tenantId = textOf(tenant ?? {}, 'tenant_id') ?? '';
    const list = await createList(db, tenantId, 'Everyone');
    const g0 = performance.now();
    for (let from = 1; from <= N; from += 100_000) {
      const to = Math.min(N, from + 99_999);
      await db.execute(sql`
        with made as (
          insert into contacts (tenant_id, email, first_name, last_name, source)
          select ${tenantId}::uuid, 'c' || g || '@bench.test', 'Reader', 'No' || g, 'import'
            from generate_series(${from}::int, ${to}::int) g
          returning id)
        insert into list_members (list_id, contact_id) select ${list}::uuid, id from made`);
    }
    await db.execute(sql`analyze`);
    const generateSeconds = (performance.now() - g0) / 1000;

    const baselineRate = await nodemailerPoolRate(peer.port, BASELINE, POOL);

    gateway = await startGatewayProcess(
      'src/main.ts',
      {
        GATEWAY_DATA_DIR: dataDir,
        JWT_SECRET,
        SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
        SEND_POOL_SIZE: String(SEND_POOL),
      },
      server.url,
    );
    const login = await fetch(`${gateway.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${gateway.url}/v1/templates`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench' }),
    });
    const templateId = ((await created.json()) as { _id: string })._id;
    await fetch(`${gateway.url}/v1/templates/${templateId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ subject: 'Bench', preview_text: '', mjml: TEMPLATE_MJML }),
    });
    const campaignId = await createCampaign(db, { tenantId, templateId, audience: { include_lists: [list] } });
    const jobs = new JobRunner({
      db,
      config: { ...loadConfig({ GATEWAY_DATA_DIR: dataDir }), databaseUrl: server.url },
      workers: false,
      log: { error: () => undefined, warn: () => undefined },
    });
    await jobs.start();
    const sentAt = Date.now();
    await jobs.send(CAMPAIGN_SEND_QUEUE, { campaignId });

    // The contacts grid while the send runs.
    const latencies: number[] = [];
    let done = false;
    const grid = (async () => {
      let page = 1;
      while (!done) {
        const t = performance.now();
        await fetch(`${gateway?.url}/v1/contacts?page=${page}&size=50`, { headers });
        latencies.push(performance.now() - t);
        page = (page % 50) + 1;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    let row: Record<string, unknown> = {};
    for (;;) {
      [row = {}] = await queryRows(
        db,
        sql`select status, recipients, (extract(epoch from audience_taken_at) * 1000)::float8 as taken,
                   (extract(epoch from finished_at) * 1000)::float8 as finished from campaigns where id = ${campaignId}::uuid`,
      );
      if (textOf(row, 'status') !== 'sending') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    done = true;
    await grid;
    await jobs.stop();
    const statuses = await queryRows(
      db,
      sql`select status, count(*)::int as n, count(error)::int as errors from campaign_recipients
           where campaign_id = ${campaignId}::uuid group by 1 order by 1`,
    );
    const breakdown = statuses
      .map(
        (r) =>
          `${textOf(r, 'status')} ${intOf(r, 'n')}${intOf(r, 'errors') ? ` (${intOf(r, 'errors')} with an error)` : ''}`,
      )
      .join(', ');
    const snapshotSeconds = (intOf(row, 'taken') - sentAt) / 1000;
    const sendSeconds = (intOf(row, 'finished') - intOf(row, 'taken')) / 1000;
    const rate = intOf(row, 'recipients') / sendSeconds;
    const rss = peakRss(gateway.proc.pid ?? 0);
    return `Campaign to ${N.toLocaleString('en')} contacts on PostgreSQL (contacts generated in ${generateSeconds.toFixed(1)} s)\n${table(
      [
        ['measure', 'figure', 'goal'],
        ['status', textOf(row, 'status') ?? '', 'sent'],
        ['recipient rows', breakdown, ''],
        ['recipients / messages received', `${intOf(row, 'recipients')} / ${peer.received.length - BASELINE}`, 'equal'],
        ['audience snapshot', `${snapshotSeconds.toFixed(2)} s`, '< 10 s at 1M'],
        [`sending (${SEND_POOL} connections)`, `${Math.round(rate)} messages/s`, ''],
        [`nodemailer pool (${POOL}), pre-rendered, ${BASELINE}`, `${Math.round(baselineRate)} messages/s`, ''],
        ['ratio', (rate / baselineRate).toFixed(2), '>= 0.5'],
        ['gateway peak RSS', `${Math.round(rss / 1024 / 1024)} MB`, '< 512 MB'],
        [
          `contacts grid while sending (${latencies.length})`,
          `p50 ${median(latencies).toFixed(0)} ms, p95 ${p95(latencies).toFixed(0)} ms`,
          'p95 < 100 ms',
        ],
      ],
    )}`;
  } finally {
    if (gateway) {
      gateway.proc.kill('SIGTERM');
      await exited(gateway.proc);
    }
    await handle.close();
    await peer.close();
    server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await campaignSendBench());
