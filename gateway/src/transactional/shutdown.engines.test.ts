// A gateway stopped (SIGTERM) while a carrier's run waits for new messages (docs/transactional.md,
// "Model": a run stays 2 s after its last message) stops cleanly: the run ends with the job runner,
// before the database closes, and nothing is logged about a closed database. Both engines: on
// embedded PGlite the database is the process's own and closes with it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { exited, scratchDatabase, startGatewayProcess } from '../../test/processes';
import { startSmtpPeer, type SmtpPeer } from '../../test/campaign-send-helpers';

const MJML = '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'transactional-shutdown-'));
let peer: SmtpPeer | null = null;
let drop: (() => Promise<void>) | null = null;

after(async () => {
  await peer?.close();
  await drop?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('a carrier run waiting for messages stops with the gateway, without errors', async () => {
  peer = await startSmtpPeer(false);
  const admin = process.env.TEST_DATABASE_URL;
  const scratch = admin ? await scratchDatabase(admin, 'transactional_shutdown') : null;
  drop = scratch?.drop ?? null;
  const gw = await startGatewayProcess(
    'main',
    {
      GATEWAY_DATA_DIR: dataDir,
      JWT_SECRET: 'transactional-shutdown-secret-0123456789-abcdef',
      SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
      QUIET: '0',
    },
    scratch?.url ?? null,
  );
  const call = async (method: string, p: string, token: string | null, body?: unknown) => {
    const r = await fetch(`${gw.url}${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const login = await call('POST', '/v1/auth/login', null, { email: 'owner@acme.test', password: 'owner-pass-2026' });
  const token = String(login.body.token);
  const made = await call('POST', '/v1/templates', token, { name: 'Shutdown', kind: 'transactional' });
  const id = String(made.body._id);
  await call('PATCH', `/v1/templates/${id}`, token, { subject: 'Hi', mjml: MJML });
  const sent = await call('POST', '/v1/transactional/send', token, {
    template_id: id,
    to: 'bye@example.org',
    data: {},
  });
  assert.equal(sent.status, 202);
  // Delivered: the carrier's run now waits for more messages (2 s) when the gateway is told to stop.
  const end = Date.now() + 30_000;
  while (!peer.received.some((m) => m.to === 'bye@example.org')) {
    if (Date.now() > end) throw new Error(`not delivered:\n${gw.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  gw.proc.kill('SIGTERM');
  await exited(gw.proc);
  assert.equal(gw.proc.exitCode, 0);
  const errors = gw
    .output()
    .split('\n')
    .filter((line) => /"level":(50|60)|database is closed/.test(line));
  assert.deepEqual(errors, [], 'nothing logged as an error at shutdown');
});
