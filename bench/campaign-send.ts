// A campaign to N contacts sent by a gateway process (its production bundle, gateway/launch.mjs) to a
// local SMTP peer (smtp-server) that discards every message, on one of two databases (BENCH_CAMPAIGN_BACKEND):
// - `postgres` (default): a throw-away PostgreSQL server (scripts/pg-server.mjs, port BENCH_PG_PORT or
//   BENCH_PORT_BASE+310; BENCH_PG_URL: a scratch database on that server instead), N =
//   BENCH_CAMPAIGN_CONTACTS (default 1,000,000). The data and the campaign row are written here, and the
//   send job is queued here on the same server; the gateway's workers run it.
// - `pglite`: the gateway on embedded PGlite in a data directory of its own, N default 100,000. Only one
//   process can open a PGlite directory, so the data (migrations, seed, contacts, list, plan limit) is
//   written here first and the directory closed before the gateway starts; the campaign is then made
//   and sent through the gateway's API as a user would, and its final figures read by reopening the
//   directory after the gateway has stopped.
// BENCH_WORKERS=n (PostgreSQL): the gateway runs with WORKERS=off and n job-worker processes send
// (docs/scaling.md); the CPU and RSS figures are then the gateway's alone, which only serves the grid.
// Prints: the audience snapshot time, sending throughput (messages/s) and its ratio to nodemailer's
// pooled transport (8 connections) sending the same pre-rendered messages to the same peer in the same
// run, the gateway's CPU time per message (all its threads and its main thread, from the send request
// to the end), its peak RSS (VmHWM), and the contacts grid's p50/p95 while the send runs (and for 10 s
// before it, for the grid's figures without a send). BENCH_CAMPAIGN_SIGNED=on (the default on PostgreSQL;
// `off` skips it) sends a second campaign to the same list from a verified sending domain of the tenant,
// DKIM-signed, and prints its figures beside the unsigned one's, each as a ratio to the same nodemailer
// baseline, whose messages are then DKIM-signed beforehand with the same key ("the same pre-signed
// message").
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database, type DatabaseHandle } from '../gateway/src/db/index.ts';
import { seed } from '../gateway/src/seed.ts';
import { JobRunner } from '../gateway/src/jobs/runner.ts';
import { loadConfig } from '../gateway/src/config.ts';
import { intOf, queryRows, textOf } from '../gateway/src/lib/raw-sql.ts';
import { CAMPAIGN_SEND_QUEUE } from '../gateway/src/campaigns/sender/queue.ts';
import {
  exited,
  scratchDatabase,
  startGatewayProcess,
  startWorkerProcess,
  type GatewayProcess,
} from '../gateway/test/processes.ts';
import {
  createCampaign,
  createList,
  nodemailerPoolRate,
  sql,
  startSmtpPeer,
  TEMPLATE_MJML,
  type SmtpPeer,
} from '../gateway/test/campaign-send-helpers.ts';
import { dkimHeadersHere } from '../gateway/src/domains/dkim-sign.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { median, p95, table } from './lib.ts';

type Backend = 'postgres' | 'pglite';
const BACKEND = backendOf(process.env.BENCH_CAMPAIGN_BACKEND);
const N = Number(process.env.BENCH_CAMPAIGN_CONTACTS ?? (BACKEND === 'pglite' ? 100_000 : 1_000_000));
const BASELINE = Math.min(N, Number(process.env.BENCH_CAMPAIGN_BASELINE ?? 20_000));
const POOL = 8;
/** The gateway's SMTP connections (SEND_POOL_SIZE; the gateway's default, 32, unless BENCH_SEND_POOL is set). */
const SEND_POOL = Number(process.env.BENCH_SEND_POOL ?? 32);
/** PostgreSQL: job-worker processes of their own (0: the gateway's own workers send). */
const WORKER_PROCESSES = Number(process.env.BENCH_WORKERS ?? 0);
const JWT_SECRET = 'campaign-bench-secret-0123456789-abcdefghij';
/** How often the campaign's status is read while it sends. */
const POLL_MS = 500;
/** How long the grid is read before the send, for its figures without one. */
const IDLE_GRID_MS = 10_000;
/** A signed campaign beside the unsigned one (PostgreSQL only). */
const SIGNED = BACKEND === 'postgres' && process.env.BENCH_CAMPAIGN_SIGNED !== 'off';
const SIGNED_DOMAIN = 'signed.bench.test';
const benchKey = (() => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    domain: SIGNED_DOMAIN,
    selector: 'bench',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
})();
/** nodemailer's messages signed beforehand, as the signed campaign's are, with the same key. */
const preSigned = async (raw: Buffer) =>
  SIGNED ? Buffer.concat([Buffer.from(await dkimHeadersHere(raw, [benchKey]), 'latin1'), raw]) : raw;

type Headers = Record<string, string>;

function backendOf(value: string | undefined): Backend {
  const backend = value || 'postgres';
  if (backend !== 'postgres' && backend !== 'pglite') {
    throw new Error(`BENCH_CAMPAIGN_BACKEND must be postgres or pglite, not ${backend}`);
  }
  return backend;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function peakRss(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** CPU time a process or thread has used so far (ms; its /proc stat file's utime + stime, 100 ticks a second). */
function cpuOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The gateway's CPU time so far: all its threads, and its main thread (the event loop) alone. */
function gatewayCpu(pid: number): Cpu {
  return { all: cpuOf(`/proc/${pid}/stat`), main: cpuOf(`/proc/${pid}/task/${pid}/stat`) };
}

interface Cpu {
  all: number;
  main: number;
}

function cpuSince(pid: number, before: Cpu): Cpu {
  const now = gatewayCpu(pid);
  return { all: now.all - before.all, main: now.main - before.main };
}

/** The gateway's environment apart from its database: its data directory and the SMTP peer. */
function gatewayEnv(dataDir: string, peer: SmtpPeer): NodeJS.ProcessEnv {
  return {
    GATEWAY_DATA_DIR: dataDir,
    JWT_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    SEND_POOL_SIZE: String(SEND_POOL),
    // The campaign from the platform's address is the unsigned figure; the one from the tenant's verified
    // domain is signed with that domain's key alone, as the baseline's messages are (docs/domains.md).
    PLATFORM_DKIM: 'off',
  };
}

interface Audience {
  tenantId: string;
  listId: string;
  generateSeconds: number;
}

/**
 * Migrations, the seed, no plan limit in the way, and N contacts of the seed's basic tenant in one
 * list (generated in slices of 100,000), analysed.
 */
async function prepareAudience(handle: DatabaseHandle): Promise<Audience> {
  await handle.migrate();
  await seed(handle.db);
  const db = handle.db;
  await db.execute(sql`update plan_prices set email_limit = 100000000`);
  const [tenant] = await queryRows(db, sql`select tenant_id::text from users where email = 'owner@basic.test'`);
  const tenantId = textOf(tenant ?? {}, 'tenant_id') ?? '';
  const listId = await createList(db, tenantId, 'Everyone');
  const g0 = performance.now();
  for (let from = 1; from <= N; from += 100_000) {
    const to = Math.min(N, from + 99_999);
    await db.execute(sql`
      with made as (
        insert into contacts (tenant_id, email, first_name, last_name, source)
        select ${tenantId}::uuid, 'c' || g || '@bench.test', 'Reader', 'No' || g, 'import'
          from generate_series(${from}::int, ${to}::int) g
        returning id)
      insert into list_members (list_id, contact_id) select ${listId}::uuid, id from made`);
  }
  await db.execute(sql`analyze`);
  return { tenantId, listId, generateSeconds: (performance.now() - g0) / 1000 };
}

/** A call to the gateway's API that must succeed; its JSON answer. */
async function api<T>(gateway: GatewayProcess, headers: Headers, method: string, route: string, body?: unknown) {
  const response = await fetch(`${gateway.url}${route}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs in as the basic tenant's owner: the headers of its calls. */
async function signIn(gateway: GatewayProcess): Promise<Headers> {
  const { token } = await api<{ token: string }>(
    gateway,
    { 'content-type': 'application/json' },
    'POST',
    '/v1/auth/login',
    { email: 'owner@basic.test', password: 'basic-pass-2026' },
  );
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

/** The bench's marketing template, made and saved through the API; its id. */
async function createTemplate(gateway: GatewayProcess, headers: Headers): Promise<string> {
  const { _id: templateId } = await api<{ _id: string }>(gateway, headers, 'POST', '/v1/templates', { name: 'Bench' });
  await api(gateway, headers, 'PATCH', `/v1/templates/${templateId}`, {
    subject: 'Bench',
    preview_text: '',
    mjml: TEMPLATE_MJML,
  });
  return templateId;
}

/**
 * A draft made from the template through the API, given the list as its audience and the subject,
 * sender name and UTM parameters the PostgreSQL mode writes (createCampaign's defaults); its id.
 */
async function composeCampaign(gateway: GatewayProcess, headers: Headers, templateId: string, listId: string) {
  const { _id: campaignId } = await api<{ _id: string }>(gateway, headers, 'POST', '/v1/campaigns', {
    name: 'Test send',
    template_id: templateId,
  });
  await api(gateway, headers, 'PATCH', `/v1/campaigns/${campaignId}`, {
    subject: 'Hello {{ contact.first_name }}',
    from_name: 'Acme News',
    audience: { include_lists: [listId] },
    utm: {},
  });
  return campaignId;
}

/** The contacts grid (pages 1–50 of 50 rows) read every 100 ms until `stop`, which gives each read's latency (ms). */
function gridWhileSending(gateway: GatewayProcess, headers: Headers): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let done = false;
  const loop = (async () => {
    let page = 1;
    while (!done) {
      const t = performance.now();
      // A page of 50, as a manager reads the grid; an error answer is not a latency.
      const answer = await fetch(`${gateway.url}/v1/contacts?page=${page}&perPage=50`, { headers });
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`contacts grid: ${answer.status}`);
      latencies.push(performance.now() - t);
      page = (page % 50) + 1;
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      done = true;
      await loop;
      return latencies;
    },
  };
}

/** The grid's latencies for IDLE_GRID_MS with nothing sending. */
async function gridAlone(gateway: GatewayProcess, headers: Headers): Promise<number[]> {
  const grid = gridWhileSending(gateway, headers);
  await sleep(IDLE_GRID_MS);
  return grid.stop();
}

/** Waits while `status()` says the campaign is sending (a gateway that exits ends the wait with an error). */
async function whileSending(gateway: GatewayProcess, status: () => Promise<string>): Promise<void> {
  for (;;) {
    if (gateway.proc.exitCode !== null) throw new Error(`the gateway exited:\n${gateway.output().slice(-2000)}`);
    if ((await status()) !== 'sending') return;
    await sleep(POLL_MS);
  }
}

async function campaignStatus(db: Database, campaignId: string): Promise<string> {
  const [row] = await queryRows(db, sql`select status from campaigns where id = ${campaignId}::uuid`);
  return textOf(row ?? {}, 'status') ?? '';
}

interface Outcome {
  status: string;
  recipients: number;
  /** Epoch ms. */
  takenAt: number;
  finishedAt: number;
  /** The recipient rows by status ('sent 99990, failed 10 (10 with an error)'). */
  breakdown: string;
}

/** The campaign's figures as the sender left them. */
async function outcomeOf(db: Database, campaignId: string): Promise<Outcome> {
  const [row = {}] = await queryRows(
    db,
    sql`select status, recipients, (extract(epoch from audience_taken_at) * 1000)::float8 as taken,
               (extract(epoch from finished_at) * 1000)::float8 as finished from campaigns where id = ${campaignId}::uuid`,
  );
  const statuses = await queryRows(
    db,
    sql`select status, count(*)::int as n, count(error)::int as errors from campaign_recipients
         where campaign_id = ${campaignId}::uuid group by 1 order by 1`,
  );
  const [senders] = await queryRows(
    db,
    sql`select count(distinct split_part(claimed_by, ':', 2))::int as n from campaign_recipients
         where campaign_id = ${campaignId}::uuid`,
  );
  const breakdown = statuses
    .map(
      (r) =>
        `${textOf(r, 'status')} ${intOf(r, 'n')}${intOf(r, 'errors') ? ` (${intOf(r, 'errors')} with an error)` : ''}`,
    )
    .join(', ')
    .concat(`; sent by ${intOf(senders ?? {}, 'n')} process(es)`);
  return {
    status: textOf(row, 'status') ?? '',
    recipients: intOf(row, 'recipients'),
    takenAt: intOf(row, 'taken'),
    finishedAt: intOf(row, 'finished'),
    breakdown,
  };
}

/** What one run measured, whatever the database. */
interface SendRun {
  generateSeconds: number;
  /** nodemailer's rate before the send (and after it, once the gateway has stopped: see campaignSendBench). */
  baselineRate: number;
  baselineAfter?: number;
  /** Epoch ms when the send was asked for. */
  sentAt: number;
  /** How long the send request took to answer (PGlite mode: POST /v1/campaigns/{id}/send). */
  sendRequestMs: number | null;
  outcome: Outcome;
  /** Messages the peer received from the gateway. */
  received: number;
  rss: number;
  /** The gateway's CPU time from the send request to the campaign's end (ms). */
  cpu: Cpu;
  latencies: number[];
  /** The same grid reads for IDLE_GRID_MS before the send: what the grid costs without it. */
  idleLatencies: number[];
  /** The signed campaign to the same list, after the unsigned one (BENCH_CAMPAIGN_SIGNED). */
  signed?: { outcome: Outcome; received: number; cpu: Cpu; latencies: number[] };
}

function report(backend: Backend, run: SendRun): string {
  const { outcome } = run;
  const snapshotSeconds = (outcome.takenAt - run.sentAt) / 1000;
  const sendSeconds = (outcome.finishedAt - outcome.takenAt) / 1000;
  const rate = outcome.recipients / sendSeconds;
  // The baseline swings between runs of it (README.md, "The campaign bench's baseline"): measured
  // before and after the send, the ratio is to their mean.
  const baselines = [run.baselineRate, ...(run.baselineAfter === undefined ? [] : [run.baselineAfter])];
  const baseline = baselines.reduce((a, b) => a + b, 0) / baselines.length;
  const perMessage = (ms: number) => (ms / outcome.recipients).toFixed(2);
  const database = backend === 'pglite' ? 'embedded PGlite' : 'PostgreSQL';
  const snapshot =
    run.sendRequestMs === null
      ? `${snapshotSeconds.toFixed(2)} s`
      : `${snapshotSeconds.toFixed(2)} s from the send request (answered in ${(run.sendRequestMs / 1000).toFixed(2)} s)`;
  return `Campaign to ${N.toLocaleString('en')} contacts on ${database} (contacts generated in ${run.generateSeconds.toFixed(1)} s)\n${table(
    [
      ['measure', 'figure', 'goal'],
      ['status', outcome.status, 'sent'],
      ['recipient rows', outcome.breakdown, ''],
      ['recipients / messages received', `${outcome.recipients} / ${run.received}`, 'equal'],
      ['audience snapshot', snapshot, '< 10 s at 1M'],
      [
        `sending (${SEND_POOL} connections ${WORKER_PROCESSES > 0 ? `in each of ${WORKER_PROCESSES} worker processes` : 'in the gateway'})`,
        `${Math.round(rate)} messages/s`,
        '',
      ],
      [
        `nodemailer pool (${POOL}), pre-rendered, ${BASELINE}, before / after`,
        `${baselines.map((b) => Math.round(b)).join(' / ')} messages/s (mean ${Math.round(baseline)})`,
        '',
      ],
      ['ratio (to the mean)', (rate / baseline).toFixed(2), '>= 0.5'],
      ...signedRows(run, baseline),
      // Less swayed by the machine's speed than messages/s: what the gateway spends, not how fast it got it.
      [
        'gateway CPU per message (snapshot and send): all threads (main, others)',
        `${perMessage(run.cpu.all)} ms (${perMessage(run.cpu.main)}, ${perMessage(run.cpu.all - run.cpu.main)})`,
        '',
      ],
      ['gateway peak RSS', `${Math.round(run.rss / 1024 / 1024)} MB`, '< 512 MB'],
      [
        `contacts grid before the send (${run.idleLatencies.length})`,
        `p50 ${median(run.idleLatencies).toFixed(0)} ms, p95 ${p95(run.idleLatencies).toFixed(0)} ms`,
        '',
      ],
      [
        `contacts grid while sending (${run.latencies.length})`,
        `p50 ${median(run.latencies).toFixed(0)} ms, p95 ${p95(run.latencies).toFixed(0)} ms`,
        'p95 < 100 ms',
      ],
    ],
  )}`;
}

/** The signed campaign's rows, beside the unsigned one's. */
function signedRows(run: SendRun, baseline: number): string[][] {
  const signed = run.signed;
  if (!signed) return [];
  const rate = signed.outcome.recipients / ((signed.outcome.finishedAt - signed.outcome.takenAt) / 1000);
  const perMessage = (ms: number) => (ms / signed.outcome.recipients).toFixed(2);
  return [
    ['signed: recipient rows', signed.outcome.breakdown, ''],
    ['signed: recipients / messages received', `${signed.outcome.recipients} / ${signed.received}`, 'equal'],
    ['signed (DKIM RSA-2048): sending', `${Math.round(rate)} messages/s`, ''],
    ['signed: ratio (to the mean)', (rate / baseline).toFixed(2), '>= 0.5'],
    [
      'signed: gateway CPU per message: all threads (main, others)',
      `${perMessage(signed.cpu.all)} ms (${perMessage(signed.cpu.main)}, ${perMessage(signed.cpu.all - signed.cpu.main)})`,
      '',
    ],
    [
      `signed: contacts grid while sending (${signed.latencies.length})`,
      `p50 ${median(signed.latencies).toFixed(0)} ms, p95 ${p95(signed.latencies).toFixed(0)} ms`,
      'p95 < 100 ms',
    ],
  ];
}

/** The tenant's verified sending domain with the bench's DKIM key: its campaigns from it are signed. */
async function verifiedDomain(db: Database, tenantId: string): Promise<void> {
  await db.execute(sql`
    insert into sending_domains (tenant_id, domain, verification_token, dkim_selector, dkim_private_key,
                                 dkim_public_key, status, verified_at)
    values (${tenantId}::uuid, ${SIGNED_DOMAIN}, 'bench', ${benchKey.selector}, ${benchKey.privateKey}, 'bench',
            'verified', now())`);
}

async function stopGateway(gateway: GatewayProcess | null): Promise<void> {
  if (!gateway) return;
  gateway.proc.kill('SIGTERM');
  await exited(gateway.proc);
}

/**
 * PostgreSQL: the data and the campaign row written here, the send job queued here on the same
 * server; the gateway's workers send it.
 */
async function sendOnPostgres(peer: SmtpPeer, dataDir: string): Promise<SendRun> {
  const port = Number(process.env.BENCH_PG_PORT ?? Number(process.env.BENCH_PORT_BASE ?? 3200) + 310);
  // BENCH_PG_URL: a database of its own on a running server instead of a throw-away server.
  const scratch = process.env.BENCH_PG_URL ? await scratchDatabase(process.env.BENCH_PG_URL, 'campaign_bench') : null;
  const server = scratch ? { url: scratch.url, stop: () => void scratch.drop() } : startPostgres(port);
  const handle = await openDatabase({ databaseUrl: server.url, pgliteDir: 'memory://' });
  let gateway: GatewayProcess | null = null;
  const workers: GatewayProcess[] = [];
  try {
    const { tenantId, listId, generateSeconds } = await prepareAudience(handle);
    const db = handle.db;
    const baselineRate = await nodemailerPoolRate(peer.port, BASELINE, POOL, preSigned);
    const own = WORKER_PROCESSES > 0 ? { WORKERS: 'off' } : {};
    gateway = await startGatewayProcess('main', { ...gatewayEnv(dataDir, peer), ...own }, server.url);
    for (let i = 0; i < WORKER_PROCESSES; i++)
      workers.push(await startWorkerProcess(gatewayEnv(dataDir, peer), server.url));
    const headers = await signIn(gateway);
    const templateId = await createTemplate(gateway, headers);
    const campaignId = await createCampaign(db, { tenantId, templateId, audience: { include_lists: [listId] } });
    const idleLatencies = await gridAlone(gateway, headers);
    const jobs = new JobRunner({
      db,
      config: { ...loadConfig({ GATEWAY_DATA_DIR: dataDir }), databaseUrl: server.url },
      workers: false,
      log: { error: () => undefined, warn: () => undefined },
    });
    await jobs.start();
    const sentAt = Date.now();
    const cpuAtSend = gatewayCpu(gateway.proc.pid ?? 0);
    await jobs.send(CAMPAIGN_SEND_QUEUE, { campaignId });
    const grid = gridWhileSending(gateway, headers);
    await whileSending(gateway, () => campaignStatus(db, campaignId));
    const cpu = cpuSince(gateway.proc.pid ?? 0, cpuAtSend);
    const latencies = await grid.stop();
    const received = peer.received.length - BASELINE;
    let signed: SendRun['signed'];
    if (SIGNED) {
      await verifiedDomain(db, tenantId);
      const signedId = await createCampaign(db, {
        tenantId,
        templateId,
        fromEmail: `news@${SIGNED_DOMAIN}`,
        audience: { include_lists: [listId] },
      });
      const cpuAtSigned = gatewayCpu(gateway.proc.pid ?? 0);
      const before = peer.received.length;
      await jobs.send(CAMPAIGN_SEND_QUEUE, { campaignId: signedId });
      const signedGrid = gridWhileSending(gateway, headers);
      await sleep(POLL_MS);
      await whileSending(gateway, () => campaignStatus(db, signedId));
      signed = {
        cpu: cpuSince(gateway.proc.pid ?? 0, cpuAtSigned),
        latencies: await signedGrid.stop(),
        outcome: await outcomeOf(db, signedId),
        received: peer.received.length - before,
      };
    }
    await jobs.stop();
    return {
      generateSeconds,
      baselineRate,
      sentAt,
      sendRequestMs: null,
      outcome: await outcomeOf(db, campaignId),
      received,
      ...(signed ? { signed } : {}),
      rss: peakRss(gateway.proc.pid ?? 0),
      cpu,
      latencies,
      idleLatencies,
    };
  } finally {
    for (const w of workers) await stopGateway(w);
    await stopGateway(gateway);
    await handle.close();
    server.stop();
  }
}

/**
 * Embedded PGlite: the data written into the gateway's PGlite directory before it starts (one
 * process at a time can open it); the campaign made, sent and watched through the API; its final
 * figures read from the directory once the gateway has stopped.
 */
async function sendOnPglite(peer: SmtpPeer, dataDir: string): Promise<SendRun> {
  // Where the gateway will look for it, by the gateway's own rule (GATEWAY_DATA_DIR/pglite).
  const pgliteDir = loadConfig({ GATEWAY_DATA_DIR: dataDir, JWT_SECRET }).pgliteDir;
  const target = { databaseUrl: null, pgliteDir };
  const prepared = await openDatabase(target);
  let audience: Audience;
  try {
    audience = await prepareAudience(prepared);
  } finally {
    await prepared.close();
  }
  const baselineRate = await nodemailerPoolRate(peer.port, BASELINE, POOL);
  let gateway: GatewayProcess | null = null;
  let measured: Omit<SendRun, 'outcome'>;
  let campaignId: string;
  try {
    gateway = await startGatewayProcess('main', { ...gatewayEnv(dataDir, peer), PGLITE_DIR: pgliteDir }, null);
    const headers = await signIn(gateway);
    const templateId = await createTemplate(gateway, headers);
    campaignId = await composeCampaign(gateway, headers, templateId, audience.listId);
    const idleLatencies = await gridAlone(gateway, headers);
    const sentAt = Date.now();
    const cpuAtSend = gatewayCpu(gateway.proc.pid ?? 0);
    const s0 = performance.now();
    await api(gateway, headers, 'POST', `/v1/campaigns/${campaignId}/send`, {});
    const sendRequestMs = performance.now() - s0;
    const grid = gridWhileSending(gateway, headers);
    const running = gateway;
    await whileSending(gateway, async () => {
      const campaign = await api<{ status: string }>(running, headers, 'GET', `/v1/campaigns/${campaignId}`);
      return campaign.status;
    });
    const cpu = cpuSince(running.proc.pid ?? 0, cpuAtSend);
    const latencies = await grid.stop();
    measured = {
      generateSeconds: audience.generateSeconds,
      baselineRate,
      sentAt,
      sendRequestMs,
      received: peer.received.length - BASELINE,
      rss: peakRss(gateway.proc.pid ?? 0),
      cpu,
      latencies,
      idleLatencies,
    };
  } finally {
    await stopGateway(gateway);
  }
  const reopened = await openDatabase(target);
  try {
    return { ...measured, outcome: await outcomeOf(reopened.db, campaignId) };
  } finally {
    await reopened.close();
  }
}

export async function campaignSendBench(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-bench-'));
  const peer = await startSmtpPeer(false);
  try {
    const run = BACKEND === 'pglite' ? await sendOnPglite(peer, dataDir) : await sendOnPostgres(peer, dataDir);
    run.baselineAfter = await nodemailerPoolRate(peer.port, BASELINE, POOL, preSigned);
    return report(BACKEND, run);
  } finally {
    await peer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await campaignSendBench());
