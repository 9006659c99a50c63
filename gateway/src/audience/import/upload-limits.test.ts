// Import uploads that fail leave nothing behind (no file, no reservation), a tenant's import files stay
// within its upload limit (1,000 bytes here), and the housekeeping job sweeps what a dead process left.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { type ImportJob } from '../../contracts';
import { hashPassword } from '../../auth';
import { importJobs, importUploads, tenants, users } from '../../db/schema';
import { cleanupImports, IMPORT_HOUSEKEEPING_QUEUE, ORPHAN_GRACE_MS } from './import-runner';
import { UPLOAD_LIMIT_MESSAGE } from './upload-quota';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';

const LIMIT = 1000;
let gw: TestGateway;
let basic: string;
let lab: string;
let importsDir: string;

before(async () => {
  gw = await startGateway({ IMPORT_TENANT_LIMIT_BYTES: String(LIMIT) });
  basic = await gw.login('basicOwner');
  lab = await gw.login('labOwner');
  importsDir = path.join(gw.config.dataDir, 'imports');
  fs.mkdirSync(importsDir, { recursive: true });
});
after(() => gw.close());

const csv = (bytes: number) => `email\n${'a'.repeat(bytes - 'email\n'.length - '@x.test\n'.length)}@x.test\n`;
const files = () => fs.readdirSync(importsDir).sort();
const reservations = () => gw.handle.db.select().from(importUploads);

interface Answer {
  status: number;
  body: ImportJob & ErrorBody;
}

/** POST /v1/imports with the given body (a length-declared string, or chunks without a length). */
async function upload(token: string, body: string | string[]): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'text/csv' };
    if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    const req = http.request(`${gw.url}/v1/imports?fileName=x.csv`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const chunk of typeof body === 'string' ? [body] : body) req.write(chunk);
    req.end();
  });
}

/** Waits (up to 10 s) until `check` holds: the server finishes a request the client gave up on. */
async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sends `head` of a body declared `length` bytes long, runs `meanwhile`, then cuts or finishes it. */
function partial(
  token: string,
  length: number,
  head: string,
  meanwhile: () => Promise<void>,
  then: 'abort' | 'finish',
): Promise<number | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${gw.url}/v1/imports?fileName=cut.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', 'content-length': String(length) },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error) => (then === 'abort' ? resolve('aborted') : reject(error)));
    req.write(head);
    meanwhile().then(
      () => (then === 'abort' ? req.destroy() : req.end('x'.repeat(length - Buffer.byteLength(head)))),
      reject,
    );
  });
}

const partFileAppears = () => eventually(() => files().some((f) => f.endsWith('.part')), 'a part file');

describe('failed uploads leave nothing behind', () => {
  it('refused uploads (not CSV, empty, too large, over the limit) store no file and hold no reservation', async () => {
    const before = files();
    assert.equal((await upload(basic, '\x89PNG\r\n\x1a\n\0\0\0\rIHDR')).status, 400);
    assert.equal((await upload(basic, '')).status, 400);
    assert.equal((await upload(basic, csv(LIMIT + 1))).status, 413);
    assert.deepEqual(files(), before);
    assert.deepEqual(await reservations(), []);
  });

  it('an upload cut off mid-body: its part file and its reservation go', async () => {
    const before = files();
    const outcome = await partial(basic, 900, 'email\nhalf@x.test\n', partFileAppears, 'abort');
    assert.equal(outcome, 'aborted');
    await eventually(async () => (await reservations()).length === 0, 'the reservation released');
    await eventually(() => files().join() === before.join(), 'the part file removed');
  });

  it('the tenant deleted while its file arrives: no job, no file', async () => {
    const [basicTenant] = await gw.handle.db.select().from(tenants).where(eq(tenants.name, 'Basic Guild'));
    assert.ok(basicTenant);
    const [doomed] = await gw.handle.db
      .insert(tenants)
      .values({ name: 'Doomed Guild', planId: basicTenant.planId })
      .returning({ id: tenants.id });
    assert.ok(doomed);
    await gw.handle.db.insert(users).values({
      tenantId: doomed.id,
      email: 'owner@doomed.test',
      passwordHash: await hashPassword('doomed-pass-2026'),
      role: 'tenant_admin',
      permissions: ['manage_contacts'],
    });
    const login = await gw.post<{ token: string }>('/v1/auth/login', {
      email: 'owner@doomed.test',
      password: 'doomed-pass-2026',
    });
    assert.equal(login.status, 200, login.text);
    const before = files();
    const status = await partial(
      login.body.token,
      500,
      'email\nfirst@doomed.test\n',
      async () => {
        await partFileAppears();
        await gw.handle.db.delete(tenants).where(eq(tenants.id, doomed.id));
      },
      'finish',
    );
    assert.equal(status, 404);
    assert.deepEqual(files(), before, 'no file stays behind');
    assert.deepEqual(await reservations(), []);
  });
});

describe("the tenant's upload limit", () => {
  it('counts files waiting and importing, per tenant; a finished import frees its bytes', async () => {
    const first = await upload(basic, csv(600));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const over = await upload(basic, csv(600));
    assert.equal(over.status, 413);
    assert.deepEqual(over.body, { message: UPLOAD_LIMIT_MESSAGE(LIMIT) });
    assert.equal((await upload(lab, csv(600))).status, 201, 'another tenant has its own limit');

    const started = await gw.post<ImportJob>(
      `/v1/imports/${first.body._id}/start`,
      { mapping: ['email'], mode: 'skip' },
      basic,
    );
    assert.equal(started.status, 200, started.text);
    await eventually(async () => {
      const r = await gw.get<ImportJob>(`/v1/imports/${first.body._id}`, basic);
      return r.body.status === 'completed';
    }, 'the import completed');
    const again = await upload(basic, csv(600));
    assert.equal(again.status, 201, JSON.stringify(again.body));
    await gw.handle.db.delete(importJobs); // a clean slate for the next tests
  });

  it('an upload without a length reserves the largest file (refused here at once)', async () => {
    const r = await upload(basic, ['email\n', 'chunked@x.test\n']);
    assert.equal(r.status, 413);
    assert.equal(r.body.message, UPLOAD_LIMIT_MESSAGE(LIMIT));
  });

  it('parallel uploads cannot overshoot it together', async () => {
    const results = await Promise.all([1, 2, 3].map(() => upload(basic, csv(400))));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 201, 413]);
    await gw.handle.db.delete(importJobs);
  });
});

describe('the housekeeping sweep', () => {
  it('removes what dead uploads left (old part files, files without a job, their reservations), nothing else', async () => {
    const old = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
    const earlier = files(); // young files of the tests above: kept
    const write = (name: string, age?: Date) => {
      const file = path.join(importsDir, name);
      fs.writeFileSync(file, 'email\nx@x.test\n');
      if (age) fs.utimesSync(file, age, age);
    };
    const [tenant] = await gw.handle.db.select().from(tenants).where(eq(tenants.name, 'Basic Guild'));
    assert.ok(tenant);
    const dead = randomUUID();
    const live = randomUUID();
    const orphan = randomUUID();
    const young = randomUUID();
    write(`${dead}.csv.part`, old);
    write(`${live}.csv.part`);
    write(`${orphan}.csv`, old);
    write(`${young}.csv`);
    const job = await upload(basic, csv(100));
    assert.equal(job.status, 201);
    const jobFile = `${job.body._id}.csv`;
    fs.utimesSync(path.join(importsDir, jobFile), old, old);
    await gw.handle.db.insert(importUploads).values([
      { id: dead, tenantId: tenant.id, bytes: 400, createdAt: old },
      { id: live, tenantId: tenant.id, bytes: 400, createdAt: old },
    ]);

    await cleanupImports(gw.handle.db, gw.config);
    assert.deepEqual(files(), [...earlier, `${live}.csv.part`, `${young}.csv`, jobFile].sort());
    assert.deepEqual(
      (await reservations()).map((r) => r.id),
      [live],
    );

    // The same sweep runs as the recurring housekeeping job on the job runner.
    write(`${orphan}.csv`, old);
    await gw.app.deps.jobs.send(IMPORT_HOUSEKEEPING_QUEUE, {});
    await eventually(() => !files().includes(`${orphan}.csv`), 'the housekeeping job swept the orphan');
  });
});
