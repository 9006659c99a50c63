/**
 * The send under faults (docs/sending.md), shared by the chaos test (campaigns/sender/chaos.test.ts, 5,000
 * recipients) and its benchmark (bench/chaos.ts, 100,000): real gateway and worker processes killed with
 * SIGKILL or frozen with SIGSTOP at random moments of one campaign's send, restarted, and the messages
 * counted at a real SMTP peer that records each message before it answers 250.
 *
 * - Embedded PGlite: the gateway (which holds the database) is killed twice and restarted.
 * - A PostgreSQL server: an API gateway with WORKERS=off and two worker processes; the one holding the
 *   campaign's lease is killed, then both are, then the holder is frozen past its lease (the other must
 *   take over meanwhile) and let go.
 *
 * What it returns is what the assertions read: every recipient received or flagged, the API's figures
 * against the peer's count, duplicates, rows moved back from delivered (a trigger records any), and how
 * long the takeover of a frozen worker took.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/index';
import { intOf, queryRows, textOf } from '../src/lib/raw-sql';
import {
  createCampaign,
  createList,
  generousPlans,
  insertContacts,
  startSmtpPeer,
  TEMPLATE_MJML,
  waitUntil,
  type SmtpPeer,
} from './campaign-send-helpers';
import { exited, scratchDatabase, startGatewayProcess, startWorkerProcess, type GatewayProcess } from './processes';
import { seededRandom } from './seeded-random';

export interface ChaosOptions {
  /** Recipients of the campaign. */
  recipients: number;
  /** A PostgreSQL server (admin URL: a scratch database is made on it); null: embedded PGlite. */
  serverUrl: string | null;
  /** SMTP connections per sending process. */
  pool: number;
  /** The peer's wait before it answers each message (ms): slow enough to be caught mid-send. */
  peerDelayMs: number;
  /** Progress lines (a test's diagnostic, the bench's console). */
  log: (line: string) => void;
  /** Seed of the random kill moments (printed, so a failing run can be replayed). */
  seed?: number;
}

export interface ChaosResult {
  recipients: number;
  /** Messages the peer recorded, and distinct recipients among them. */
  received: number;
  distinct: number;
  /** Rows by final status. */
  delivered: number;
  unconfirmed: number;
  other: Record<string, number>;
  /** What the first few rows in another state say. */
  otherErrors: string[];
  /** Delivered rows whose message never arrived; arrived messages whose row is neither delivered nor unconfirmed. */
  deliveredNotReceived: number;
  receivedNotFlagged: number;
  /** The campaign's figures through the API. */
  api: { sent: number; delivered: number; unconfirmed: number; recipients: number; status: string };
  /** Rows a writer moved from delivered to another status (a trigger records them). */
  movedBack: number;
  /** PostgreSQL: seconds from freezing the lease's holder to another worker sending again. */
  takeoverSeconds: number | null;
  faults: string[];
  seconds: number;
}

const JWT_SECRET = 'campaign-chaos-secret-0123456789-abcdef-xyz';
const DOMAIN = 'chaos.test';

/** Rows moved from delivered are recorded by a trigger (the sender must never do it). */
const MOVED_BACK_TRIGGER = [
  `create table if not exists chaos_moved_back (id bigint, new_status text, at timestamptz default now())`,
  `create or replace function chaos_moved_back() returns trigger language plpgsql as $$
     begin insert into chaos_moved_back (id, new_status) values (old.id, new.status); return new; end $$`,
  `drop trigger if exists chaos_moved_back on campaign_recipients`,
  `create trigger chaos_moved_back before update on campaign_recipients for each row
     when (old.status = 'delivered' and new.status is distinct from 'delivered') execute function chaos_moved_back()`,
];

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rand = seededRandom(seed);
  const faults: string[] = [];
  const note = (line: string) => {
    faults.push(line);
    options.log(`${((Date.now() - started) / 1000).toFixed(1)} s: ${line}`);
  };
  options.log(`seed ${seed}, ${options.recipients} recipients, ${options.serverUrl ? 'PostgreSQL' : 'PGlite'}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-chaos-'));
  const scratch = options.serverUrl ? await scratchDatabase(options.serverUrl, 'campaign_chaos') : null;
  const databaseUrl = scratch?.url ?? null;
  const peer: SmtpPeer = await startSmtpPeer(false);
  const children: ChildProcess[] = [];
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    GATEWAY_DATA_DIR: dataDir,
    JWT_SECRET,
    SMTP_URL: `smtp://127.0.0.1:${peer.port}`,
    JOBS_POLL_SECONDS: '0.5',
    JOBS_HEARTBEAT_SECONDS: '10',
    SEND_POOL_SIZE: String(options.pool),
    ...extra,
  });
  const openDb = () => openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  const gateway = async (extra: NodeJS.ProcessEnv = {}) => {
    const p = await startGatewayProcess('main', env(extra), databaseUrl);
    children.push(p.proc);
    return p;
  };
  const workers = async () => {
    const p = await startWorkerProcess(env(), databaseUrl ?? '');
    children.push(p.proc);
    return p;
  };
  const signal = async (p: GatewayProcess, s: NodeJS.Signals) => {
    p.proc.kill(s);
    if (s === 'SIGKILL' || s === 'SIGTERM') await exited(p.proc);
  };
  const received = () => peer.received.length;
  const reach = (n: number, what: string) => waitUntil(() => received() >= n, 300_000, what);
  /** After `fraction` of the recipients arrived, and a random few more milliseconds. */
  const atRandom = async (from: number, to: number) => {
    const target = Math.floor(options.recipients * (from + (to - from) * rand()));
    await reach(target, `${target} messages`);
    await new Promise((r) => setTimeout(r, Math.floor(rand() * 40)));
  };

  try {
    // The database, the template and the campaign, written while no process sends.
    let api = await gateway();
    const login = await fetch(`${api.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${api.url}/v1/templates`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Chaos' }),
    });
    const templateId = ((await created.json()) as { _id: string })._id;
    await fetch(`${api.url}/v1/templates/${templateId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ subject: 'Chaos', preview_text: '', mjml: TEMPLATE_MJML }),
    });
    await signal(api, 'SIGKILL'); // PGlite: the data directory is ours to write the campaign into
    let campaignId = '';
    const handle = await openDb();
    try {
      const db = handle.db;
      for (const statement of MOVED_BACK_TRIGGER) await db.execute(sql.raw(statement));
      await generousPlans(db);
      const [tenant] = await queryRows(db, sql`select tenant_id::text from users where email = 'owner@basic.test'`);
      const tenantId = textOf(tenant ?? {}, 'tenant_id') ?? '';
      const list = await createList(db, tenantId, 'Chaos');
      await insertContacts(db, tenantId, options.recipients, 'c', { listId: list, domain: DOMAIN });
      campaignId = await createCampaign(db, { tenantId, templateId, audience: { include_lists: [list] } });
    } finally {
      await handle.close();
    }
    peer.delayMs = options.peerDelayMs;

    let takeoverSeconds: number | null = null;
    if (!databaseUrl) {
      api = await gateway();
      for (const [from, to] of [
        [0.1, 0.3],
        [0.45, 0.7],
      ] as const) {
        await atRandom(from, to);
        await signal(api, 'SIGKILL');
        note(`gateway killed after ${received()} messages`);
        api = await gateway();
      }
    } else {
      api = await gateway({ WORKERS: 'off' });
      let pool = [await workers(), await workers()];
      const leasesOf = async (pid: number | undefined): Promise<number> => {
        const h = await openDb();
        try {
          const [row] = await queryRows(
            h.db,
            sql`select count(*)::int as n from campaign_send_leases
                 where campaign_id = ${campaignId}::uuid and split_part(worker, ':', 2) = ${String(pid)}`,
          );
          return intOf(row ?? {}, 'n');
        } finally {
          await h.close();
        }
      };
      /** A worker process holding a lease of the campaign now (its pid is in the lease's worker name). */
      const holder = async (): Promise<GatewayProcess> => {
        for (;;) {
          for (const w of pool) if ((await leasesOf(w.proc.pid)) > 0) return w;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await atRandom(0.05, 0.2);
      const first = await holder();
      await signal(first, 'SIGKILL');
      note(`the lease's holder killed after ${received()} messages`);
      pool = [...pool.filter((w) => w !== first), await workers()];
      await atRandom(0.3, 0.45);
      for (const w of pool) await signal(w, 'SIGKILL');
      note(`both workers killed after ${received()} messages`);
      pool = [await workers(), await workers()];
      await atRandom(0.55, 0.7);
      const frozen = await holder();
      await signal(frozen, 'SIGSTOP');
      const atFreeze = received();
      const frozenAt = Date.now();
      note(`the lease's holder frozen after ${atFreeze} messages`);
      // Another worker takes the frozen one's leases over once they have expired, and sends on.
      await waitUntil(async () => (await leasesOf(frozen.proc.pid)) === 0, 60_000, 'the frozen lease taken over');
      takeoverSeconds = (Date.now() - frozenAt) / 1000;
      note(`its leases taken over after ${takeoverSeconds.toFixed(1)} s`);
      const atTakeover = received();
      await waitUntil(() => received() > atTakeover + options.pool, 60_000, 'another worker to send on');
      note(`another worker sending while it is frozen (${received()} messages)`);
      await new Promise((r) => setTimeout(r, 1_000));
      await signal(frozen, 'SIGCONT');
      note('the frozen worker let go');
    }

    // The end: the campaign 'sent', through the API.
    const auth = await authHeaders(api.url);
    const status = async () => {
      const r = await fetch(`${api.url}/v1/campaigns/${campaignId}`, { headers: auth });
      return (await r.json()) as {
        status: string;
        stats: { sent: number; delivered: number; unconfirmed: number; recipients: number };
      };
    };
    await waitUntil(
      async () => {
        await new Promise((r) => setTimeout(r, 200));
        return (await status()).status === 'sent';
      },
      600_000,
      'the campaign sent',
    );
    await new Promise((r) => setTimeout(r, 1_500)); // nothing more arrives
    const final = await status();
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map(exited));

    const h = await openDb();
    try {
      const rows = await queryRows(
        h.db,
        sql`select address, status, error, attempts from campaign_recipients where campaign_id = ${campaignId}::uuid`,
      );
      const [moved] = await queryRows(h.db, sql`select count(*)::int as n from chaos_moved_back`);
      const arrived = new Set(peer.received.map((m) => m.to));
      const by = new Map<string, string[]>();
      for (const r of rows) {
        const s = textOf(r, 'status') ?? '';
        by.set(s, [...(by.get(s) ?? []), textOf(r, 'address') ?? '']);
      }
      const delivered = by.get('delivered') ?? [];
      const unconfirmed = new Set(by.get('unconfirmed') ?? []);
      const other = Object.fromEntries(
        [...by].filter(([s]) => s !== 'delivered' && s !== 'unconfirmed').map(([s, list]) => [s, list.length]),
      );
      const deliveredSet = new Set(delivered);
      const otherRows = rows.filter((r) => !['delivered', 'unconfirmed'].includes(textOf(r, 'status') ?? ''));
      return {
        otherErrors: otherRows
          .slice(0, 5)
          .map((r) => `${textOf(r, 'status')} after ${intOf(r, 'attempts')}: ${textOf(r, 'error')}`),
        recipients: rows.length,
        received: received(),
        distinct: arrived.size,
        delivered: delivered.length,
        unconfirmed: unconfirmed.size,
        other,
        deliveredNotReceived: delivered.filter((a) => !arrived.has(a)).length,
        receivedNotFlagged: [...arrived].filter((a) => !deliveredSet.has(a) && !unconfirmed.has(a)).length,
        api: {
          status: final.status,
          recipients: final.stats.recipients,
          sent: final.stats.sent,
          delivered: final.stats.delivered,
          unconfirmed: final.stats.unconfirmed,
        },
        movedBack: intOf(moved ?? {}, 'n'),
        takeoverSeconds,
        faults,
        seconds: (Date.now() - started) / 1000,
      };
    } finally {
      await h.close();
    }
  } finally {
    // SIGKILL ends a stopped process too.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await peer.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function authHeaders(url: string): Promise<Record<string, string>> {
  const login = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
  });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
