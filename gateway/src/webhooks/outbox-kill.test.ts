// No webhook lost between an event's commit and its fan-out (docs/webhooks.md, "Guarantees"): a gateway
// killed with SIGKILL after a bounce was recorded and before anything was delivered, then restarted,
// delivers the event exactly once; two gateways on one PostgreSQL server deliver each event once.
// Real gateway processes (launch.mjs) on a database of their own, a local HTTP receiver. The moment
// of the kill is held open by locking, from the test, the tables a fan-out writes (the deliveries and
// the job queue): the event's own transaction does not touch them. A server only (another process
// cannot take a lock in an embedded database).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/index';
import { queryRows, textOf } from '../lib/raw-sql';
import { insertCampaign, insertRecipients } from '../campaigns/log/test-fixtures';
import { exited, scratchDatabase, startGatewayProcess, type GatewayProcess } from '../../test/processes';
import { startReceiver, type TestReceiver } from './test-receiver';

const adminUrl = process.env.TEST_DATABASE_URL;
const MAIL_SECRET = 'outbox-kill-mail-events';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-outbox-kill-'));
const children: ChildProcess[] = [];
let receiver: TestReceiver;
let databaseUrl = '';
let dropDatabase: (() => Promise<void>) | null = null;
let handle: DatabaseHandle;
let lab = '';

const env = (): NodeJS.ProcessEnv => ({
  GATEWAY_DATA_DIR: dataDir,
  JWT_SECRET: 'webhook-outbox-kill-secret-0123456789-abcdef',
  WEBHOOKS_ALLOW_LOOPBACK: '1',
  MAIL_EVENTS_SECRET: MAIL_SECRET,
  WEBHOOK_LEASE_SECONDS: '2',
  JOBS_POLL_SECONDS: '0.5',
});

async function start(): Promise<GatewayProcess> {
  const gw = await startGatewayProcess('main', env(), databaseUrl);
  children.push(gw.proc);
  return gw;
}

function mailEvent(gw: GatewayProcess, events: unknown[]): Promise<Response> {
  const raw = JSON.stringify({ events });
  return fetch(`${gw.url}/v1/mail-events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature': `sha256=${createHmac('sha256', MAIL_SECRET).update(raw).digest('hex')}`,
    },
    body: raw,
  });
}

async function addEndpoint(gw: GatewayProcess): Promise<string> {
  const login = await fetch(`${gw.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@lab.test', password: 'lab-pass-2026' }),
  });
  const { token } = (await login.json()) as { token: string };
  const created = await fetch(`${gw.url}/v1/webhooks/endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ url: receiver.url, events: ['bounced'] }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  return ((await created.json()) as { _id: string })._id;
}

async function deleteEndpoints(): Promise<void> {
  await handle.db.execute(sql`delete from webhook_endpoints`);
}

/** Recipient rows of a fresh campaign of Lab Rats (sent an hour ago), as their ids in mail events. */
async function recipients(n: number, prefix: string): Promise<string[]> {
  const campaign = await insertCampaign(handle.db, lab);
  const ids = await insertRecipients(
    handle.db,
    lab,
    campaign,
    Array.from({ length: n }, (_, i) => ({ address: `${prefix}${i}@example.com` })),
  );
  return ids.map((id) => id.toString(36));
}

const bounce = (rid: string) => ({ type: 'bounce', bounce_type: 'hard', recipient_id: rid, detail: '550 5.1.1' });

async function settle(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

describe('webhook events across processes', { skip: adminUrl ? false : 'needs TEST_DATABASE_URL' }, () => {
  before(async () => {
    receiver = await startReceiver();
    const scratch = await scratchDatabase(adminUrl ?? '', 'webhook_outbox');
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
    // The first gateway migrates and seeds the database; the test's own handle comes after.
    const first = await start();
    first.proc.kill('SIGTERM');
    await exited(first.proc);
    handle = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
    const [row] = await queryRows(handle.db, sql`select id::text from tenants where name = 'Lab Rats'`);
    lab = textOf(row ?? {}, 'id') ?? '';
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(children.map((c) => exited(c)));
    await handle?.close();
    await receiver?.close();
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a gateway killed after the event committed and before its fan-out: the restarted one delivers it once', async () => {
    const a = await start();
    const endpoint = await addEndpoint(a);
    const [rid = ''] = await recipients(1, 'killed');
    // Nothing can be fanned out while these locks are held: deliveries and jobs cannot be written.
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table webhook_deliveries, pgboss.job in exclusive mode');
      const reported = await mailEvent(a, [bounce(rid)]);
      assert.equal(reported.status, 200, await reported.text());
      const events = await queryRows(
        handle.db,
        sql`select 1 from campaign_events where recipient_id = ${parseInt(rid, 36)} and type = 'bounced'`,
      );
      assert.equal(events.length, 1, 'the bounce is committed');
      await settle(1_000); // the gateway reaches its fan-out and waits for the locks
      a.proc.kill('SIGKILL');
      await exited(a.proc);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
    assert.equal(receiver.received.length, 0, 'nothing was delivered before the kill');

    const b = await start();
    await receiver.waitFor(1, 30_000);
    await settle(3_000); // nothing more arrives (the killed process's lease has run out long since)
    assert.equal(receiver.received.length, 1, 'delivered exactly once');
    const got = receiver.received[0];
    const payload = JSON.parse(got?.body ?? '{}') as { type: string; data: { email: string } };
    assert.equal(payload.type, 'email.bounced');
    assert.equal(payload.data.email, 'killed0@example.com');
    const rows = await queryRows(
      handle.db,
      sql`select event_id, state from webhook_deliveries where endpoint_id = ${endpoint}::uuid`,
    );
    assert.deepEqual(
      rows.map((r) => [textOf(r, 'event_id'), textOf(r, 'state')]),
      [[String(got?.headers['webhook-id']), 'delivered']],
    );
    const left = await queryRows(handle.db, sql`select 1 from delivery_event_outbox`);
    assert.equal(left.length, 0, 'the outbox is empty');
    b.proc.kill('SIGTERM');
    await exited(b.proc);
    await deleteEndpoints();
  });

  it('two gateways on one server deliver each of many events once', async () => {
    receiver.received.length = 0;
    const [a, b] = await Promise.all([start(), start()]);
    await addEndpoint(a);
    const n = 120;
    const ids = await recipients(n, 'pair');
    // Ten reports of 12 bounces each, half to each gateway, all at once: both drain the same outbox.
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const r = await mailEvent(i % 2 === 0 ? a : b, ids.slice(i * 12, i * 12 + 12).map(bounce));
        assert.equal(r.status, 200);
      }),
    );
    await receiver.waitFor(n, 60_000);
    await settle(3_000);
    const emails = receiver.received.map((r) => (JSON.parse(r.body) as { data: { email: string } }).data.email);
    const webhookIds = receiver.received.map((r) => String(r.headers['webhook-id']));
    assert.equal(receiver.received.length, n, 'one delivery per event');
    assert.equal(new Set(emails).size, n, 'every event arrived');
    assert.equal(new Set(webhookIds).size, n, 'no webhook-id twice');
    for (const gw of [a, b]) {
      gw.proc.kill('SIGTERM');
      await exited(gw.proc);
    }
  });
});
