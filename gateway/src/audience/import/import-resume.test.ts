// A gateway killed (SIGKILL) in the middle of an import resumes the job after a restart: every valid
// row is there exactly once, none is lost, and the counters agree with the rows. The real gateway
// runs as a child process (the gateway's bundle, launch.mjs) on a data directory (PGlite) or a database (PostgreSQL,
// with TEST_DATABASE_URL) that both lives share.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { ImportJob } from '../../contracts';
import { intOf, queryRows, type Queryable } from '../../lib/raw-sql';
import { openDatabase } from '../../db/index';
import { exited, scratchDatabase, startGatewayProcess } from '../../../test/processes';

const ROWS = 100_000;
const BATCH_ROWS = 500;
const JWT_SECRET = 'resume-test-secret-0123456789-abcdefghij';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-resume-'));
let databaseUrl: string | null = null;
let dropDatabase: (() => Promise<void>) | null = null;
let child: ChildProcess | null = null;
let output = (): string => '';

/** Starts a gateway (its bundle, as npm start runs it); resolves with its base URL once /health answers. */
async function startChild(): Promise<string> {
  const env = { GATEWAY_DATA_DIR: dataDir, JWT_SECRET, IMPORT_BATCH_ROWS: String(BATCH_ROWS) };
  const started = await startGatewayProcess('main', env, databaseUrl);
  child = started.proc;
  output = started.output;
  return started.url;
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@basic.test', password: 'basic-pass-2026' }),
  });
  const body = (await res.json()) as { token: string };
  assert.equal(res.status, 200);
  return body.token;
}

async function getJob(url: string, token: string, id: string): Promise<ImportJob> {
  const res = await fetch(`${url}/v1/imports/${id}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return (await res.json()) as ImportJob;
}

/** The file: mostly good rows, some with a wallet, some wallet-only, some bad, some duplicates. */
function buildFile(): { csv: string; valid: number; failed: number } {
  const lines = ['email,wallet,first_name,last_name'];
  let valid = 0;
  let failed = 0;
  for (let i = 0; i < ROWS; i++) {
    const wallet = `0x${(i + 1).toString(16).padStart(40, '0')}`;
    if (i % 50 === 7) {
      lines.push(`bad-${i},,Bad,Row`);
      failed++;
    } else if (i % 50 === 13) {
      lines.push(`r${i - 1}@resume.test,,Dup,Row`); // the row before has this e-mail
      failed++;
    } else if (i % 10 === 3) {
      lines.push(`,${wallet},Wallet,Only`);
      valid++;
    } else {
      lines.push(`r${i}@resume.test,${i % 4 === 0 ? wallet : ''},First ${i},Last`);
      valid++;
    }
  }
  return { csv: `${lines.join('\n')}\n`, valid, failed };
}

before(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  const scratch = await scratchDatabase(process.env.TEST_DATABASE_URL, 'import_resume');
  databaseUrl = scratch.url;
  dropDatabase = scratch.drop;
});

after(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited(child);
  }
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it(
  'a gateway killed mid-import resumes the job after a restart: no row twice, none lost',
  { timeout: 600_000 },
  async (t) => {
    const { csv, valid, failed } = buildFile();
    let url = await startChild();
    let token = await login(url);
    const upload = await fetch(`${url}/v1/imports?fileName=resume.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    assert.equal(upload.status, 201);
    const { _id: jobId } = (await upload.json()) as ImportJob;
    const start = await fetch(`${url}/v1/imports/${jobId}/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        mapping: ['email', 'wallet', 'first_name', 'last_name'],
        mode: 'update',
        newListName: 'Resumed',
      }),
    });
    assert.equal(start.status, 200);

    let atKill: ImportJob;
    for (;;) {
      atKill = await getJob(url, token, jobId);
      if (atKill.status === 'running' && atKill.rows_done > 0) break;
      assert.ok(['queued', 'running'].includes(atKill.status), JSON.stringify(atKill));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const first = child;
    assert.ok(first);
    first.kill('SIGKILL');
    await exited(first);
    assert.ok(atKill.rows_done < ROWS, 'killed before the end');
    t.diagnostic(`killed at ${atKill.rows_done} of ${ROWS} rows (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`);

    url = await startChild();
    token = await login(url);
    let job: ImportJob;
    const end = Date.now() + 540_000;
    for (;;) {
      job = await getJob(url, token, jobId);
      if (!['queued', 'running'].includes(job.status)) break;
      if (Date.now() > end) throw new Error(`import did not finish: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(job.status, 'completed', `${job.error ?? ''}\n${output()}`);
    assert.ok(job.rows_done >= atKill.rows_done);
    assert.deepEqual(
      { rows: job.rows_done, created: job.created, updated: job.updated, skipped: job.skipped, failed: job.failed },
      { rows: ROWS, created: valid, updated: 0, skipped: 0, failed },
    );
    assert.equal(job.created + job.updated + job.skipped + job.failed, ROWS);

    // Stop the gateway (PGlite: the data directory is then ours to open) and look at the rows.
    const second = child;
    assert.ok(second);
    second.kill('SIGTERM');
    await exited(second);
    const handle = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const db: Queryable = handle.db;
      const one = async (query: ReturnType<typeof sql>) => (await queryRows(db, query))[0] ?? {};
      const tenant = await one(sql`select tenant_id from users where email = 'owner@basic.test'`);
      const tenantId = String(tenant.tenant_id);
      const stored = await one(sql`
      select count(*)::int as n,
             count(*) filter (where email like '%@resume.test')::int as by_email,
             count(*) filter (where email is null)::int as wallet_only,
             count(distinct email)::int as emails
      from contacts where tenant_id = ${tenantId}::uuid`);
      assert.equal(intOf(stored, 'n'), valid, 'every valid row once');
      assert.equal(intOf(stored, 'by_email') + intOf(stored, 'wallet_only'), valid);
      assert.equal(intOf(stored, 'emails'), intOf(stored, 'by_email'));
      const failures = await one(sql`
      select count(*)::int as n, count(distinct row_number)::int as rows
      from import_failures where job_id = ${jobId}::uuid`);
      assert.deepEqual(
        [intOf(failures, 'n'), intOf(failures, 'rows')],
        [failed, failed],
        'each failed row reported once',
      );
      const list = await one(sql`
      select l.member_count, (select count(*)::int from list_members m where m.list_id = l.id) as members
      from lists l join import_jobs j on j.list_id = l.id where j.id = ${jobId}::uuid`);
      assert.equal(intOf(list, 'member_count'), intOf(list, 'members'));
      assert.equal(intOf(list, 'members'), valid);
      const counts = await one(sql`
      select coalesce(sum(n), 0)::int as kept from contact_counts where tenant_id = ${tenantId}::uuid`);
      assert.equal(intOf(counts, 'kept'), valid);
    } finally {
      await handle.close();
    }
  },
);
