// A tenant's hostile template against the gateway's loop (docs/fair-load.md, "Work off the event loop"):
// a template with nested loops in three fields (subject, preview text, body), just under the render
// limits (templates/render/liquid.ts), previewed in a loop by two clients of its tenant while a
// campaign with it sends to BENCH_HOSTILE_CONTACTS (10,000) contacts; meanwhile /health is probed every
// 50 ms. Prints /health's p50/p90/p99/max at rest (5 s) and during BENCH_HOSTILE_SECONDS (60) of that,
// with the previews answered and messages sent meanwhile. The gateway is its own process (production
// bundle) on a throw-away PostgreSQL server (BENCH_PG_PORT or BENCH_PORT_BASE+310).
// Alone: `pnpm --filter ./bench exec tsx hostile-template.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../gateway/src/db/index.ts';
import { seed } from '../gateway/src/seed.ts';
import { JobRunner } from '../gateway/src/jobs/runner.ts';
import { loadConfig } from '../gateway/src/config.ts';
import { queryRows, textOf } from '../gateway/src/lib/raw-sql.ts';
import { CAMPAIGN_SEND_QUEUE } from '../gateway/src/campaigns/sender/queue.ts';
import { exited, startGatewayProcess } from '../gateway/test/processes.ts';
import {
  createCampaign,
  createList,
  sql,
  startSmtpPeer,
  TEMPLATE_MJML,
} from '../gateway/test/campaign-send-helpers.ts';
import { startPostgres } from '../scripts/pg-server.mjs';
import { table } from './lib.ts';

const CONTACTS = Number(process.env.BENCH_HOSTILE_CONTACTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_HOSTILE_SECONDS ?? 60);
const JWT_SECRET = 'hostile-bench-secret-0123456789-abcdefghij';

/** Nested loops writing the contact's name through a few filters: about 6,000 steps in each of 4 places. */
const loops = (outer: number, inner: number) =>
  `{% for i in (1..${outer}) %}{% for j in (1..${inner}) %}{{ contact.first_name | upcase | append: "!" | prepend: j | replace: "A", "a" | truncate: 12 }}{% endfor %}{% endfor %}`;
const HOSTILE = {
  subject: `Hi ${loops(30, 50)}`,
  preview_text: loops(30, 50),
  mjml: TEMPLATE_MJML.replace('</mj-text>', `${loops(30, 50)}</mj-text>`),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const figures = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(0)} ms, p90 ${pct(xs, 90).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length})`;

async function probeHealth(url: string, ms: number): Promise<number[]> {
  const out: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t = performance.now();
    const answer = await fetch(`${url}/health`);
    await answer.arrayBuffer();
    out.push(performance.now() - t);
    await sleep(50);
  }
  return out;
}

export async function hostileTemplateBench(): Promise<string> {
  const port = Number(process.env.BENCH_PG_PORT ?? Number(process.env.BENCH_PORT_BASE ?? 3200) + 310);
  const server = startPostgres(port);
  const handle = await openDatabase({ databaseUrl: server.url, pgliteDir: 'memory://' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-bench-'));
  const peer = await startSmtpPeer(false);
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | null = null;
  try {
    await handle.migrate();
    await seed(handle.db);
    const db = handle.db;
    await db.execute(sql`update plan_prices set email_limit = 100000000`);
    const [tenant] = await queryRows(db, sql`select tenant_id::text from users where email = 'owner@basic.test'`);
    const tenantId = textOf(tenant ?? {}, 'tenant_id') ?? '';
    const listId = await createList(db, tenantId, 'Everyone');
    await db.execute(sql`
      with made as (
        insert into contacts (tenant_id, email, first_name, last_name, source)
        select ${tenantId}::uuid, 'c' || g || '@bench.test', 'Reader', 'No' || g, 'import'
          from generate_series(1, ${CONTACTS}::int) g
        returning id)
      insert into list_members (list_id, contact_id) select ${listId}::uuid, id from made`);
    gateway = await startGatewayProcess(
      'main',
      { GATEWAY_DATA_DIR: dataDir, JWT_SECRET, SMTP_URL: `smtp://127.0.0.1:${peer.port}` },
      server.url,
    );
    const url = gateway.url;
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/templates`, { method: 'POST', headers, body: '{"name":"Hostile"}' });
    const { _id: templateId } = (await created.json()) as { _id: string };
    const saved = await fetch(`${url}/v1/templates/${templateId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify(HOSTILE),
    });
    if (!saved.ok) throw new Error(`template: ${saved.status} ${await saved.text()}`);
    const first = await fetch(`${url}/v1/templates/${templateId}/preview`, { method: 'POST', headers, body: '{}' });
    if (!first.ok) throw new Error(`preview: ${first.status} ${await first.text()}`);

    const rest = await probeHealth(url, 5_000);

    let stop = false;
    const previews = { ok: 0, other: 0, ms: [] as number[] };
    const previewLoop = async () => {
      while (!stop) {
        const t = performance.now();
        const answer = await fetch(`${url}/v1/templates/${templateId}/preview`, {
          method: 'POST',
          headers,
          body: '{}',
        });
        await answer.arrayBuffer();
        if (answer.ok) {
          previews.ok++;
          previews.ms.push(performance.now() - t);
        } else previews.other++;
      }
    };
    const campaignId = await createCampaign(db, {
      tenantId,
      templateId,
      subject: HOSTILE.subject,
      audience: { include_lists: [listId] },
    });
    const jobs = new JobRunner({
      db,
      config: { ...loadConfig({ GATEWAY_DATA_DIR: dataDir }), databaseUrl: server.url },
      workers: false,
      log: { error: () => undefined, warn: () => undefined },
    });
    await jobs.start();
    await jobs.send(CAMPAIGN_SEND_QUEUE, { campaignId });
    const loopsDone = Promise.all([previewLoop(), previewLoop()]);
    const received0 = peer.received.length;
    const during = await probeHealth(url, SECONDS * 1_000);
    stop = true;
    await loopsDone;
    const sent = peer.received.length - received0;
    await db.execute(sql`update campaigns set status = 'cancelled' where id = ${campaignId}::uuid`);
    await jobs.stop();
    return `Hostile template (nested loops in three fields, just under the limits), PostgreSQL, ${CONTACTS.toLocaleString('en')} contacts\n${table(
      [
        ['measure', 'figure', 'goal'],
        ['/health at rest (5 s)', figures(rest), ''],
        [`/health during ${SECONDS} s of 2 preview loops and the send`, figures(during), 'p99 < 250 ms'],
        [
          'previews answered (200; other)',
          `${previews.ok}; ${previews.other}, p50 ${pct(previews.ms, 50).toFixed(0)} ms`,
          '',
        ],
        ['messages sent meanwhile', `${sent} (${(sent / SECONDS).toFixed(1)}/s)`, ''],
      ],
    )}`;
  } finally {
    if (gateway) {
      gateway.proc.kill('SIGTERM');
      await exited(gateway.proc);
    }
    await peer.close();
    await handle.close();
    server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await hostileTemplateBench());
