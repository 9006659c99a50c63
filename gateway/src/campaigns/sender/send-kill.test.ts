// Nothing lost silently across processes (docs/sending.md): a gateway killed with SIGKILL in the middle
// of a send, then restarted, sends nobody twice, and every recipient ends delivered or flagged
// unconfirmed (also killed at the worst moment: a row handed over, its data not ended); two gateways
// working the queues of one PostgreSQL server never send one recipient twice. Real gateway processes
// (the gateway's bundle, launch.mjs), a real SMTP peer that records each message before answering.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Template } from '../../contracts';
import { openDatabase } from '../../db/index';
import { JobRunner } from '../../jobs/index';
import { loadConfig } from '../../config';
import { intOf, queryRows, textOf } from '../../lib/raw-sql';
import { exited, scratchDatabase, startGatewayProcess, type GatewayProcess } from '../../../test/processes';
import {
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitUntil,
  type SmtpPeer,
} from '../../../test/campaign-send-helpers';
import { CAMPAIGN_SEND_QUEUE } from './queue';

const N = 1_500;
/** SMTP connections of the sending process (at most this many messages are in flight at a kill). */
const POOL_IN_FLIGHT = 4;
const JWT_SECRET = 'campaign-kill-test-secret-0123456789-abcdef';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-kill-'));
let databaseUrl: string | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let peer: SmtpPeer;
const children: ChildProcess[] = [];

function env(): NodeJS.ProcessEnv {
  return {
    GATEWAY_DATA_DIR: dataDir,
    JWT_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    JOBS_POLL_SECONDS: '0.5',
    JOBS_HEARTBEAT_SECONDS: '10',
    SEND_LEASE_SECONDS: '3',
    SEND_POOL_SIZE: String(POOL_IN_FLIGHT),
  };
}

async function start(extra: NodeJS.ProcessEnv = {}): Promise<GatewayProcess> {
  const started = await startGatewayProcess('main', { ...env(), ...extra }, databaseUrl);
  children.push(started.proc);
  return started;
}

async function kill(p: GatewayProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  p.proc.kill(signal);
  await exited(p.proc);
}

const openDb = () => openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });

async function ownerHeaders(url: string): Promise<Record<string, string>> {
  const login = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
  });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

/** The campaign's status, through the API (on PGlite the running gateway holds the database). */
async function campaignStatus(url: string, headers: Record<string, string>, id: string): Promise<string> {
  const r = await fetch(`${url}/v1/campaigns/${id}`, { headers });
  return ((await r.json()) as { status: string }).status;
}

async function makeTemplate(url: string): Promise<string> {
  const headers = await ownerHeaders(url);
  const created = await fetch(`${url}/v1/templates`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Kill' }),
  });
  assert.equal(created.status, 201);
  const template = (await created.json()) as Template;
  const saved = await fetch(`${url}/v1/templates/${template._id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ subject: 'Kill', preview_text: '', mjml: TEMPLATE_MJML }),
  });
  assert.equal(saved.status, 200);
  return template._id;
}

/** A campaign of the Basic Guild to `n` new contacts at `domain`, status 'sending'. */
async function prepareCampaign(n: number, domain: string, templateId: string): Promise<string> {
  const handle = await openDb();
  try {
    const db = handle.db;
    await generousPlans(db);
    const [tenant] = await queryRows(db, sql`select tenant_id::text from users where email = 'owner@basic.test'`);
    const tenantId = textOf(tenant ?? {}, 'tenant_id') ?? '';
    const list = await createList(db, tenantId, `Kill ${domain}`);
    await insertContacts(db, tenantId, n, 'k', { listId: list, domain });
    return await createCampaign(db, { tenantId, templateId, audience: { include_lists: [list] } });
  } finally {
    await handle.close();
  }
}

function receivedOnce(domain: string): { total: number; distinct: number } {
  const to = peer.received.filter((m) => m.to.endsWith(`@${domain}`)).map((m) => m.to);
  return { total: to.length, distinct: new Set(to).size };
}

/**
 * A restarted gateway sends the rest of the campaign: nobody receives it twice, every row ends
 * delivered (and arrived) or unconfirmed (handed over by the killed process, answer never read: at
 * most the message in flight and the answer waiting for its commit, per connection), and the
 * campaign's figures say so.
 */
async function sendsTheRestOnce(domain: string, campaignId: string, restarted: GatewayProcess): Promise<number> {
  const gateway = restarted;
  const owner = await ownerHeaders(gateway.url);
  await waitUntil(
    async () => (await campaignStatus(gateway.url, owner, campaignId)) === 'sent',
    120_000,
    () => `the campaign sent (${receivedOnce(domain).total} arrived)`,
  );
  await new Promise((r) => setTimeout(r, 1_000)); // nothing more arrives
  await kill(gateway, 'SIGTERM');
  const { total, distinct } = receivedOnce(domain);
  assert.equal(total, distinct, 'nobody received it twice');

  const handle = await openDb();
  try {
    const rows = await queryRows(
      handle.db,
      sql`select address, status from campaign_recipients where campaign_id = ${campaignId}::uuid`,
    );
    const arrived = new Set(peer.received.map((m) => m.to));
    const byStatus = (s: string) => rows.filter((r) => textOf(r, 'status') === s).map((r) => textOf(r, 'address'));
    const delivered = byStatus('delivered');
    const unconfirmed = byStatus('unconfirmed');
    assert.equal(delivered.length + unconfirmed.length, N, 'every row delivered or unconfirmed');
    assert.deepEqual(
      delivered.filter((a) => !arrived.has(a ?? '')),
      [],
      'every delivered row arrived',
    );
    assert.equal(
      [...arrived].filter((a) => a.endsWith(`@${domain}`)).length,
      distinct,
      'arrived: the distinct recipients counted above',
    );
    assert.ok(
      unconfirmed.length <= 2 * POOL_IN_FLIGHT,
      `${unconfirmed.length} unconfirmed rows (at most 2 per connection)`,
    );
    const [row] = await queryRows(
      handle.db,
      sql`select status, recipients, sent, delivered, unconfirmed from campaigns where id = ${campaignId}::uuid`,
    );
    assert.deepEqual(
      ['recipients', 'sent', 'delivered', 'unconfirmed'].map((k) => intOf(row ?? {}, k)),
      [N, N, delivered.length, unconfirmed.length],
      'the campaign figures count the rows',
    );
    return unconfirmed.length;
  } finally {
    await handle.close();
  }
}

before(async () => {
  peer = await startSmtpPeer(false);
  if (!process.env.TEST_DATABASE_URL) return;
  const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL, 'campaign_kill');
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
});

after(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  }
  await dropDatabase?.();
  await peer.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('a gateway killed mid-send, then restarted, sends each recipient exactly once', { timeout: 300_000 }, async (t) => {
  const domain = 'kill.test';
  let gateway = await start();
  const templateId = await makeTemplate(gateway.url);
  await kill(gateway); // PGlite: the data directory is ours to write the campaign into
  const campaignId = await prepareCampaign(N, domain, templateId);

  peer.delayMs = 3; // slow enough to be caught in the middle
  gateway = await start(); // carries on the campaigns that were sending
  await waitUntil(() => receivedOnce(domain).total >= 200, 120_000, 'the send to start');
  await kill(gateway);
  const atKill = receivedOnce(domain).total;
  t.diagnostic(`killed after ${atKill} of ${N} messages (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`);
  assert.ok(atKill < N, 'killed before the end');

  peer.delayMs = 0;
  await sendsTheRestOnce(domain, campaignId, await start());
});

it(
  'a gateway killed right after a row was handed over, before its data ended, flags it and never resends it',
  { timeout: 300_000 },
  async () => {
    const domain = 'unended.test';
    let gateway = await start();
    const templateId = await makeTemplate(gateway.url);
    await kill(gateway);
    const campaignId = await prepareCampaign(N, domain, templateId);
    // The process kills itself at the worst moment: its 300th row is committed 'handing', the end of
    // that message's data not written (run.ts TEST_KILL_AFTER_HANDED).
    gateway = await start({ TEST_KILL_AFTER_HANDED: '300' });
    await exited(gateway.proc);
    assert.equal(gateway.proc.signalCode, 'SIGKILL', 'it killed itself after its 300th handing');
    assert.ok(receivedOnce(domain).total < N, 'killed before the end');
    const unconfirmed = await sendsTheRestOnce(domain, campaignId, await start());
    assert.ok(unconfirmed >= 1, 'the row handed over without its data ended is flagged, not resent');
    assert.ok(receivedOnce(domain).total < N, 'that message never arrived, and was not sent again');
  },
);

it(
  'two gateways on one PostgreSQL server never send one recipient twice',
  { timeout: 300_000, skip: !process.env.TEST_DATABASE_URL && 'needs a PostgreSQL server (TEST_DATABASE_URL)' },
  async (t) => {
    const domain = 'two.test';
    // The peer answers each message after 20 ms, so the send lasts seconds and the second process's
    // workers (polling every 0.5 s) take runs of it even on a loaded machine.
    peer.delayMs = 20;
    t.after(() => {
      peer.delayMs = 0;
    });
    // Up to eight runs of the campaign at once (each its own lease). A process runs at most four jobs at
    // once (campaigns/jobs.ts), so of the eight queued below the second process takes some.
    const first = await start({ SEND_RUNS_PER_CAMPAIGN: '8' });
    const templateId = await makeTemplate(first.url);
    const campaignId = await prepareCampaign(N, domain, templateId);
    const second = await start({ SEND_RUNS_PER_CAMPAIGN: '8' });
    // Several runs of the campaign at once, taken by both processes.
    const handle = await openDb();
    const config = loadConfig({ GATEWAY_DATA_DIR: dataDir, LOG_LEVEL: 'error' });
    const jobs = new JobRunner({
      db: handle.db,
      config: { ...config, databaseUrl },
      workers: false,
      log: { error: () => undefined, warn: () => undefined },
    });
    try {
      await jobs.start();
      for (let i = 0; i < 8; i++) await jobs.send(CAMPAIGN_SEND_QUEUE, { campaignId });
      await waitUntil(() => receivedOnce(domain).total >= N, 120_000, 'all messages');
      await new Promise((r) => setTimeout(r, 1_500));
      assert.deepEqual(receivedOnce(domain), { total: N, distinct: N }, 'each recipient exactly once');
      await waitUntil(
        async () => {
          const [row] = await queryRows(handle.db, sql`select status from campaigns where id = ${campaignId}::uuid`);
          return textOf(row ?? {}, 'status') === 'sent';
        },
        30_000,
        'the campaign sent',
      );
      const [senders] = await queryRows(
        handle.db,
        sql`select count(distinct split_part(claimed_by, ':', 2))::int as n from campaign_recipients
             where campaign_id = ${campaignId}::uuid`,
      );
      t.diagnostic(`sent by ${intOf(senders ?? {}, 'n')} processes`);
      assert.equal(intOf(senders ?? {}, 'n'), 2, 'both processes sent part of it');
    } finally {
      await jobs.stop();
      await handle.close();
      await kill(first, 'SIGTERM');
      await kill(second, 'SIGTERM');
    }
  },
);
