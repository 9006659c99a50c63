// Exactly once across processes (docs/automations.md, "What a kill leaves"): contacts who join a list
// enter a "send an e-mail" journey; a gateway killed with SIGKILL in the middle and restarted, and two
// gateways on one PostgreSQL server, accept each contact's message once (one carrier row per journey
// and step) and nobody receives it twice. Real gateway processes (the bundle, launch.mjs) and a real
// SMTP peer.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { AutomationDetail, Template } from '../contracts';
import { openDatabase } from '../db/index';
import { queryRows, textOf } from '../lib/raw-sql';
import { exited, scratchDatabase, startGatewayProcess, type GatewayProcess } from '../../test/processes';
import {
  generousPlans,
  insertContacts,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitUntil,
  type SmtpPeer,
} from '../../test/campaign-send-helpers';

const N = 400;
const JWT_SECRET = 'automations-kill-test-secret-0123456789-abcdef';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'automations-kill-'));
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
    SEND_POOL_SIZE: '4',
    AUTOMATIONS_POLL_MS: '20',
    AUTOMATIONS_LEASE_SECONDS: '2',
  };
}

async function start(): Promise<GatewayProcess> {
  const started = await startGatewayProcess('main', env(), databaseUrl);
  children.push(started.proc);
  return started;
}

async function kill(p: GatewayProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  p.proc.kill(signal);
  await exited(p.proc);
}

const openDb = () => openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });

async function api<T>(url: string, method: string, route: string, body?: unknown): Promise<T> {
  const login = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@acme.test', password: 'owner-pass-2026' }),
  });
  const { token } = (await login.json()) as { token: string };
  const r = await fetch(`${url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assert.ok(r.status < 300, `${method} ${route}: ${r.status} ${await r.clone().text()}`);
  return (await r.json()) as T;
}

/** An active automation of Acme: a contact who joins a new list receives one e-mail. */
async function prepare(url: string, name: string): Promise<{ automation: string; list: string }> {
  const template = await api<Template>(url, 'POST', '/v1/templates', { name: `Kill ${name}` });
  await api(url, 'PATCH', `/v1/templates/${template._id}`, { subject: name, preview_text: '', mjml: TEMPLATE_MJML });
  const list = await api<{ _id: string }>(url, 'POST', '/v1/lists', { name: `Joiners ${name}` });
  const at = { x: 0, y: 0 };
  const made = await api<AutomationDetail>(url, 'POST', '/v1/automations', {
    name,
    graph: {
      nodes: [
        { id: 'start', type: 'trigger', position: at, data: { type: 'list_joined', list_id: list._id } },
        { id: 'mail', type: 'send_email', position: at, data: { template_id: template._id } },
        { id: 'end', type: 'exit', position: at, data: {} },
      ],
      edges: [
        { id: 'a', source: 'start', target: 'mail' },
        { id: 'b', source: 'mail', target: 'end' },
      ],
    },
  });
  await api(url, 'POST', `/v1/automations/${made._id}/activate`);
  return { automation: made._id, list: list._id };
}

/** `n` contacts at `domain` join the list (the outbox rows are written with the memberships). */
async function join(list: string, domain: string): Promise<void> {
  const handle = await openDb();
  try {
    await generousPlans(handle.db);
    const [t] = await queryRows(handle.db, sql`select tenant_id::text from users where email = 'owner@acme.test'`);
    await insertContacts(handle.db, textOf(t ?? {}, 'tenant_id') ?? '', N, 'j', { listId: list, domain });
  } finally {
    await handle.close();
  }
}

const received = (domain: string) => peer.received.filter((m) => m.to.endsWith(`@${domain}`)).map((m) => m.to);

/** Every journey completed, one message accepted per contact, nobody received it twice. */
async function onceEach(url: string, automation: string, domain: string): Promise<void> {
  await waitUntil(
    async () => (await api<AutomationDetail>(url, 'GET', `/v1/automations/${automation}`)).completed === N,
    120_000,
    'every journey completed',
  );
  const a = await api<AutomationDetail>(url, 'GET', `/v1/automations/${automation}`);
  assert.deepEqual([a.entered, a.completed, a.emails_sent], [N, N, N]);
  // Delivered, or handed over by a killed process and flagged (never sent again).
  await waitUntil(
    () => received(domain).length >= N - 16,
    60_000,
    () => `the mail (${received(domain).length} arrived)`,
  );
  await new Promise((r) => setTimeout(r, 1_000));
  const to = received(domain);
  assert.equal(to.length, new Set(to).size, 'nobody received it twice');
}

async function rowsPerAddress(domain: string): Promise<number[]> {
  const handle = await openDb();
  try {
    const rows = await queryRows(
      handle.db,
      sql`select r.address, count(*)::int as n from campaign_recipients r
           join transactional_messages m on m.recipient_id = r.id
          where r.address like ${`%@${domain}`} group by r.address`,
    );
    const steps = await queryRows(
      handle.db,
      sql`select count(*)::int as n from automation_steps where outcome = 'sent' and message_id is not null
            and message_id in (select m.id from transactional_messages m join campaign_recipients r on r.id = m.recipient_id
                                where r.address like ${`%@${domain}`})`,
    );
    assert.equal(Number(steps[0]?.n), N, 'one sent step per contact');
    return rows.map((r) => Number(r.n));
  } finally {
    await handle.close();
  }
}

before(async () => {
  peer = await startSmtpPeer(false);
  if (!process.env.TEST_DATABASE_URL) return;
  const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL, 'automations_kill');
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

it(
  'a gateway killed mid-journeys, then restarted, sends each contact’s e-mail once',
  { timeout: 300_000 },
  async (t) => {
    const domain = 'journey-kill.test';
    let gateway = await start();
    const { automation, list } = await prepare(gateway.url, 'Kill');
    await kill(gateway, 'SIGTERM'); // PGlite: the data directory is ours to add the members to
    await join(list, domain);
    peer.delayMs = 3;
    gateway = await start();
    await waitUntil(() => received(domain).length >= 40, 120_000, 'the journeys to start sending');
    await kill(gateway);
    t.diagnostic(`killed after ${received(domain).length} of ${N} (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`);
    peer.delayMs = 0;
    gateway = await start();
    await onceEach(gateway.url, automation, domain);
    await kill(gateway, 'SIGTERM');
    const counts = await rowsPerAddress(domain);
    assert.equal(counts.length, N, 'a message for every contact');
    assert.ok(
      counts.every((n) => n === 1),
      'exactly one message per contact',
    );
  },
);

it('two gateways on one PostgreSQL server run the journeys once', { timeout: 300_000 }, async (t) => {
  if (!databaseUrl) return t.skip('needs TEST_DATABASE_URL (a PostgreSQL server)');
  const domain = 'journey-two.test';
  const first = await start();
  const { automation, list } = await prepare(first.url, 'Two');
  const second = await start();
  await join(list, domain);
  await onceEach(first.url, automation, domain);
  await Promise.all([kill(first, 'SIGTERM'), kill(second, 'SIGTERM')]);
  const counts = await rowsPerAddress(domain);
  assert.equal(counts.length, N);
  assert.ok(
    counts.every((n) => n === 1),
    'exactly one message per contact',
  );
});
