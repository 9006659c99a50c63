// CSV imports over HTTP: upload, start, progress, report; the row rules on real files, every
// malformed-file case, existing contacts (skip / update), permissions and tenant isolation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { MAX_IMPORT_BYTES, type ImportJob, type ImportJobPage, type StartImportBody } from '../../contracts';
import { DUPLICATE_LIST_NAME } from '../lists/list-store';
import { IMPORT_MESSAGES } from './import-jobs';
import { MAPPING_MESSAGES } from './import-mapping';
import { ROW_MESSAGES } from './import-rows';
import { cleanupImports, enqueueImport, JOB_ERRORS } from './import-runner';
import { intOf, queryRows, textOf } from '../../lib/raw-sql';
import { UPLOAD_MESSAGES } from './import-upload';
import { contacts, customAttributes, importJobs, listMembers, lists } from '../../db/schema';
import { toChecksumAddress } from '../../lib/eip55';
import { type ErrorBody, type Reply, startGateway, type TestGateway } from '../../../test/helpers';

let gw: TestGateway;
let basic: string; // Basic Guild owner (no seeded audience)
let lab: string; // Lab Rats owner: another tenant
let basicId: string;

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

before(async () => {
  // Batches of 3 rows: every file below spans several batches (and checkpoints).
  gw = await startGateway({ IMPORT_BATCH_ROWS: '3', IMPORT_POLL_MS: '50' });
  basic = await gw.login('basicOwner');
  lab = await gw.login('labOwner');
  const id = await tenantOf('owner@basic.test');
  assert.ok(id);
  basicId = id;
});
after(() => gw.close());

async function upload(
  token: string | null,
  body: string | Buffer,
  { fileName = 'contacts.csv', contentType = 'text/csv' as string | null } = {},
): Promise<Reply<ImportJob & ErrorBody>> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (contentType) headers['content-type'] = contentType;
  const res = await fetch(`${gw.url}/v1/imports?fileName=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

async function waitFinished(token: string, id: string): Promise<ImportJob> {
  const end = Date.now() + 120_000;
  for (;;) {
    const r = await gw.get<ImportJob>(`/v1/imports/${id}`, token);
    assert.equal(r.status, 200, r.text);
    if (['completed', 'failed', 'cancelled'].includes(r.body.status)) return r.body;
    if (Date.now() > end) throw new Error(`import ${id} did not finish: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runImport(csv: string | Buffer, start: Partial<StartImportBody> & Pick<StartImportBody, 'mapping'>) {
  const up = await upload(basic, csv);
  assert.equal(up.status, 201, up.text);
  const started = await gw.post<ImportJob>(`/v1/imports/${up.body._id}/start`, { mode: 'update', ...start }, basic);
  assert.equal(started.status, 200, started.text);
  assert.equal(started.body.status, 'queued');
  return waitFinished(basic, up.body._id);
}

/** The failure report's rows (header checked), as [row, reason, raw]. */
async function report(id: string, token = basic): Promise<string[][]> {
  const res = await fetch(`${gw.url}/v1/imports/${id}/failures`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
  const rows = Papa.parse<string[]>(bytes.subarray(3).toString('utf8'), { skipEmptyLines: true }).data;
  assert.deepEqual(rows[0], ['row', 'reason', 'raw']);
  return rows.slice(1);
}

function contactsLike(pattern: string) {
  return gw.handle.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.tenantId, basicId), sql`coalesce(${contacts.email}, ${contacts.firstName}) like ${pattern}`))
    .orderBy(contacts.email);
}

async function membersOf(listId: string | null): Promise<string[]> {
  assert.ok(listId);
  const rows = await gw.handle.db
    .select({ email: contacts.email, wallet: contacts.wallet })
    .from(listMembers)
    .innerJoin(contacts, eq(contacts.id, listMembers.contactId))
    .where(eq(listMembers.listId, listId));
  return rows.map((r) => r.email ?? r.wallet ?? '').sort();
}

async function addAttribute(key: string, type: 'text' | 'number' | 'date' | 'boolean' | 'wallet'): Promise<string> {
  const [row] = await gw.handle.db
    .insert(customAttributes)
    .values({ tenantId: basicId, name: key[0]?.toUpperCase() + key.slice(1), key, type })
    .returning({ id: customAttributes.id });
  assert.ok(row);
  return row.id;
}

async function addContact(values: Partial<typeof contacts.$inferInsert>): Promise<string> {
  const [row] = await gw.handle.db
    .insert(contacts)
    .values({ tenantId: basicId, ...values })
    .returning({ id: contacts.id });
  assert.ok(row);
  return row.id;
}

describe('importing a file with good and bad rows', () => {
  let scoreId: string;
  before(async () => {
    scoreId = await addAttribute('score', 'number');
  });

  it('imports the good rows and reports each bad one with its reason', async () => {
    const w1 = wallet(0xa1);
    const w2 = '0xde709f2102306220921060314715629080e2fb77';
    const csv = [
      'email,wallet,first_name,last_name,status,score',
      'ann@good.test,,Ann,Lee,subscribed,10', // 2
      `,${w1},Wal,Let,,`, // 3
      `BOB@Good.test,${w2},Bob,,unsubscribed,3.5`, // 4
      'not-an-email,,X,,,', // 5
      ',0x123,Y,,,', // 6
      ',,Nobody,,,', // 7
      'ann@good.test,,Ann again,,,', // 8
      `,${w1.toUpperCase().replace('0X', '0x')},Dupe wallet,,,`, // 9
      'carl@good.test,,Carl,,maybe,', // 10
      'dora@good.test,,Dora,,,lots', // 11
      'eve@good.test,,Eve,,,,extra,values', // 12
      '=HYPERLINK("http://evil.test"),,Formula,,,', // 13
      ',,,,,', // 14: blank, not a row
      '"multi@good.test",,"Line', // 15
      'break",,,', // 16 (same record)
      'fay@good.test,,Fay,,,7', // 17
    ].join('\r\n');
    const job = await runImport(csv, {
      mapping: ['email', 'wallet', 'first_name', 'last_name', 'status', 'attr:score'],
      newListName: 'Good rows',
    });
    assert.equal(job.status, 'completed', job.error ?? '');
    assert.deepEqual(
      { rows: job.rows_done, created: job.created, updated: job.updated, skipped: job.skipped, failed: job.failed },
      { rows: 14, created: 5, updated: 0, skipped: 0, failed: 9 },
    );
    assert.equal(job.bytes_done, job.total_bytes);
    assert.equal(job.total_bytes, Buffer.byteLength(csv));

    assert.deepEqual(
      (await report(job._id)).map(([row, reason]) => [row, reason]),
      [
        ['5', 'E-mail: Enter a valid e-mail address.'],
        ['6', 'Wallet: Enter a wallet address: 0x followed by 40 hexadecimal characters.'],
        ['7', ROW_MESSAGES.identity],
        ['8', 'Duplicate of row 2 in this file.'],
        ['9', 'Duplicate of row 3 in this file.'],
        ['10', 'Status: Use one of: subscribed, unsubscribed, bounced, complained.'],
        ['11', 'Score: Enter a number.'],
        ['12', 'This row has 8 values but the file has 6 columns. Check its quotes and delimiters.'],
        ['13', 'E-mail: Enter a valid e-mail address.'],
      ],
    );

    const stored = await contactsLike('%good.test');
    assert.deepEqual(
      stored.map((c) => [c.email, c.firstName, c.lastName, c.status, c.source, c.attributes]),
      [
        ['ann@good.test', 'Ann', 'Lee', 'subscribed', 'import', { [scoreId]: 10 }],
        ['bob@good.test', 'Bob', '', 'unsubscribed', 'import', { [scoreId]: 3.5 }],
        ['fay@good.test', 'Fay', '', 'subscribed', 'import', { [scoreId]: 7 }],
        ['multi@good.test', 'Line\r\nbreak', '', 'subscribed', 'import', {}],
      ],
    );
    assert.equal(stored[1]?.wallet, toChecksumAddress(w2));
    const [byWallet] = await gw.handle.db
      .select()
      .from(contacts)
      .where(eq(contacts.wallet, toChecksumAddress(w1)));
    assert.equal(byWallet?.firstName, 'Wal');
    assert.equal(byWallet?.email, null);

    const members = await membersOf(job.list_id);
    assert.equal(members.length, 5);
    const [list] = await gw.handle.db
      .select()
      .from(lists)
      .where(eq(lists.id, job.list_id ?? ''));
    assert.equal(list?.name, 'Good rows');
    assert.equal(list?.memberCount, 5);
  });

  it('defuses formula cells in the report', async () => {
    const job = await runImport('email,name\n=1+2,Formula\n@SUM(A1),At\nok@formula.test,Fine\n', {
      mapping: ['email', 'first_name'],
    });
    assert.equal(job.failed, 2);
    const res = await fetch(`${gw.url}/v1/imports/${job._id}/failures`, {
      headers: { authorization: `Bearer ${basic}` },
    });
    const text = await res.text();
    assert.match(text, /\r\n2,E-mail: Enter a valid e-mail address\.,"'=1\+2,Formula"\r\n/);
    assert.match(text, /\r\n3,E-mail: Enter a valid e-mail address\.,"'@SUM\(A1\),At"\r\n/);
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="import-${job._id}-failures.csv"`);
  });

  it('takes a file without a header row', async () => {
    const job = await runImport('nh1@nohead.test;One\nnh2@nohead.test;Two\n', {
      mapping: ['email', 'first_name'],
      has_header: false,
    });
    assert.deepEqual([job.created, job.failed, job.rows_done], [2, 0, 2]);
    assert.deepEqual(
      (await contactsLike('%nohead.test')).map((c) => c.firstName),
      ['One', 'Two'],
    );
  });
});

describe('existing contacts', () => {
  let scoreId: string;
  const w2 = wallet(0xb2);
  const w3 = wallet(0xb3);
  before(async () => {
    const [score] = await gw.handle.db
      .select({ id: customAttributes.id })
      .from(customAttributes)
      .where(and(eq(customAttributes.tenantId, basicId), eq(customAttributes.key, 'score')));
    scoreId = score?.id ?? (await addAttribute('score', 'number'));
    await addContact({
      email: 'ex1@exist.test',
      firstName: 'Old',
      lastName: 'Name',
      status: 'unsubscribed',
      attributes: { [scoreId]: 1 },
    });
    await addContact({ wallet: toChecksumAddress(w2), firstName: 'Wallet only' });
    await addContact({ email: 'ex3@exist.test', wallet: toChecksumAddress(w3), firstName: 'Three' });
  });

  const csv = (rows: string[]) => ['email,wallet,first_name,last_name,status,score', ...rows].join('\n');

  it('skip: existing contacts are counted skipped and left alone, but join the list', async () => {
    const before = await contactsLike('ex1@exist.test');
    const job = await runImport(
      csv(['ex1@exist.test,,New,,subscribed,5', `,${w2},,Wally,,`, 'new1@exist.test,,Newbie,,,']),
      {
        mapping: ['email', 'wallet', 'first_name', 'last_name', 'status', 'attr:score'],
        mode: 'skip',
        newListName: 'Skip list',
      },
    );
    assert.deepEqual([job.created, job.updated, job.skipped, job.failed], [1, 0, 2, 0]);
    const after = await contactsLike('ex1@exist.test');
    assert.deepEqual(after, before, 'untouched, updated_at included');
    assert.deepEqual(await membersOf(job.list_id), ['ex1@exist.test', 'new1@exist.test', toChecksumAddress(w2)].sort());
  });

  it('update: mapped non-empty values replace stored ones, empty cells never blank them', async () => {
    const job = await runImport(csv(['ex1@exist.test,,New,,,', `,${w2},,Wally,,9`]), {
      mapping: ['email', 'wallet', 'first_name', 'last_name', 'status', 'attr:score'],
      mode: 'update',
    });
    assert.deepEqual([job.created, job.updated, job.skipped, job.failed], [0, 2, 0, 0]);
    const [ex1] = await contactsLike('ex1@exist.test');
    assert.deepEqual(
      [ex1?.firstName, ex1?.lastName, ex1?.status, ex1?.source, ex1?.attributes],
      ['New', 'Name', 'unsubscribed', 'manual', { [scoreId]: 1 }],
    );
    const [byWallet] = await gw.handle.db
      .select()
      .from(contacts)
      .where(eq(contacts.wallet, toChecksumAddress(w2)));
    assert.deepEqual(
      [byWallet?.firstName, byWallet?.lastName, byWallet?.attributes],
      ['Wallet only', 'Wally', { [scoreId]: 9 }],
    );
  });

  it('an e-mail of one contact with the wallet of another fails; so does a second row for the same contact', async () => {
    const job = await runImport(
      csv([
        `ex1@exist.test,${w2},Mixed,,,`, // 2: conflict
        'ex3@exist.test,,Three again,,,', // 3: updates contact 3
        'filler1@exist.test,,F,,,', // 4
        'filler2@exist.test,,F,,,', // 5 (next batch)
        `,${w3},By wallet,,,`, // 6: contact 3 again
      ]),
      { mapping: ['email', 'wallet', 'first_name', 'last_name', 'status', 'attr:score'] },
    );
    assert.deepEqual([job.created, job.updated, job.failed], [2, 1, 2]);
    assert.deepEqual(
      (await report(job._id)).map(([row, reason]) => [row, reason]),
      [
        ['2', ROW_MESSAGES.conflict],
        ['6', 'This row is the same contact as row 3 in this file.'],
      ],
    );
    const [ex3] = await contactsLike('ex3@exist.test');
    assert.equal(ex3?.firstName, 'Three again');
  });
});

describe('malformed files', () => {
  it('wrong delimiter: rows fail with reasons, stored contacts are not changed', async () => {
    await addContact({ email: 'wd1@wrong.test', firstName: 'Keep' });
    const before = await contactsLike('%wrong.test');
    const job = await runImport('email:first_name\nwd1@wrong.test:Ann\nwd2@wrong.test:Bob\n', {
      mapping: ['email', 'first_name'],
    });
    assert.deepEqual([job.status, job.created, job.updated, job.failed], ['completed', 0, 0, 2]);
    assert.deepEqual(
      (await report(job._id)).map(([row, reason]) => [row, reason]),
      [
        ['2', 'E-mail: Enter a valid e-mail address.'],
        ['3', 'E-mail: Enter a valid e-mail address.'],
      ],
    );
    assert.deepEqual(await contactsLike('%wrong.test'), before);
  });

  it('broken quotes: the broken rows fail, the rows after them import', async () => {
    const csv =
      'email,first_name\nbq1@broken.test,"Ann\nbq2@broken.test,Bob\nbq3@broken.test,"Carl"x\nbq4@broken.test,Dan\n';
    const job = await runImport(csv, { mapping: ['email', 'first_name'] });
    assert.deepEqual([job.created, job.failed, job.rows_done], [2, 2, 4]);
    assert.deepEqual(await report(job._id), [
      ['2', ROW_MESSAGES.brokenQuote, 'bq1@broken.test,"Ann'],
      ['4', ROW_MESSAGES.brokenQuote, 'bq3@broken.test,"Carl"x'],
    ]);
    assert.deepEqual(
      (await contactsLike('%broken.test')).map((c) => c.email),
      ['bq2@broken.test', 'bq4@broken.test'],
    );
  });

  it('mixed encodings: a row that is not UTF-8 fails, the others keep their accents', async () => {
    const file = Buffer.concat([
      Buffer.from('email,first_name\nme1@mixed.test,Zoë\n', 'utf8'),
      Buffer.from('me2@mixed.test,Zoë\n', 'latin1'),
      Buffer.from('me3@mixed.test,Jürgen\n', 'utf8'),
    ]);
    const job = await runImport(file, { mapping: ['email', 'first_name'] });
    assert.deepEqual([job.created, job.failed], [2, 1]);
    assert.deepEqual(
      (await report(job._id)).map(([row, reason]) => [row, reason]),
      [['3', ROW_MESSAGES.encoding]],
    );
    assert.deepEqual(
      (await contactsLike('%mixed.test')).map((c) => [c.email, c.firstName]),
      [
        ['me1@mixed.test', 'Zoë'],
        ['me3@mixed.test', 'Jürgen'],
      ],
    );
  });

  it('a 50 MB single line fails as too long; the rows around it import', async () => {
    const file = Buffer.concat([
      Buffer.from('email,first_name\nbig1@big.test,Ann\n'),
      Buffer.alloc(50 * 1024 * 1024, 'x'),
      Buffer.from('\nbig2@big.test,Bob\n'),
    ]);
    const job = await runImport(file, { mapping: ['email', 'first_name'] });
    assert.deepEqual([job.created, job.failed, job.rows_done], [2, 1, 3]);
    const [failure] = await report(job._id);
    assert.deepEqual(
      [failure?.[0], failure?.[1], failure?.[2]?.length],
      ['3', 'This row is longer than 65,536 characters.', 1000],
    );
  });

  it('an empty file is refused', async () => {
    for (const body of ['', '\uFEFF', '\r\n  \n']) {
      const r = await upload(basic, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(r.body, { message: UPLOAD_MESSAGES.empty });
    }
  });

  it('a PNG (or a spreadsheet, or a PDF) renamed .csv is refused and not kept', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
      Buffer.alloc(200_000, 7),
    ]);
    const xlsx = Buffer.from('PK\x03\x04\x14\x00\x06\x00[Content_Types].xml', 'latin1');
    for (const body of [png, xlsx, Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')]) {
      const r = await upload(basic, body, { fileName: 'picture.csv' });
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { message: UPLOAD_MESSAGES.notCsv });
    }
    const dir = path.join(gw.config.dataDir, 'imports');
    const left = fs.readdirSync(dir).filter((f) => !f.endsWith('.csv'));
    assert.deepEqual(left, [], 'no partial files left');
  });

  it('a file over the size limit is refused with 413 before it is read', async () => {
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${gw.url}/v1/imports?fileName=huge.csv`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${basic}`,
            'content-type': 'text/csv',
            'content-length': String(MAX_IMPORT_BYTES + 1),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('email\na@b.test\n');
    });
    assert.equal(r.status, 413);
    assert.deepEqual(JSON.parse(r.body), { message: UPLOAD_MESSAGES.tooLarge(MAX_IMPORT_BYTES) });
  });

  it('takes the content types browsers send for CSV files, or none', async () => {
    for (const contentType of [
      'text/csv',
      'application/vnd.ms-excel',
      'application/octet-stream',
      'application/json',
      null,
    ]) {
      const r = await upload(basic, 'email\nct@types.test\n', { contentType });
      assert.equal(r.status, 201, `${contentType}: ${r.text}`);
      assert.equal(r.body.status, 'uploaded');
      assert.equal(r.body.total_bytes, 20);
    }
  });
});

describe('starting an import', () => {
  let jobId: string;
  before(async () => {
    const r = await upload(basic, 'email,name\nst@start.test,S\n', { fileName: 'start.csv' });
    jobId = r.body._id;
  });

  const invalid = async (body: unknown, errors: Record<string, string[]>) => {
    const r = await gw.post<ErrorBody>(`/v1/imports/${jobId}/start`, body, basic);
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.body.errors, errors);
  };

  it('checks the mapping', async () => {
    await invalid({ mapping: ['first_name', null], mode: 'update' }, { mapping: [MAPPING_MESSAGES.identity] });
    await invalid(
      { mapping: ['email', 'attr:nope', 'email'], mode: 'update' },
      { mapping: [MAPPING_MESSAGES.unknown(2, 'attr:nope'), MAPPING_MESSAGES.twice('E-mail')] },
    );
    const r = await gw.post<ErrorBody>(`/v1/imports/${jobId}/start`, { mapping: ['email'], mode: 'merge' }, basic);
    assert.equal(r.status, 400);
    assert.ok(r.body.errors?.mode);
  });

  it('checks the target list', async () => {
    const [labList] = await gw.handle.db
      .insert(lists)
      .values({ tenantId: (await tenantOf('owner@lab.test')) ?? '', name: 'Lab list' })
      .returning({ id: lists.id });
    for (const listId of [labList?.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      await invalid({ mapping: ['email'], mode: 'update', listId }, { listId: [IMPORT_MESSAGES.unknownList] });
    }
    await gw.handle.db.insert(lists).values({ tenantId: basicId, name: 'Taken Name' });
    await invalid(
      { mapping: ['email'], mode: 'update', newListName: 'taken name' },
      { newListName: [DUPLICATE_LIST_NAME] },
    );
    const [own] = await gw.handle.db.select({ id: lists.id }).from(lists).where(eq(lists.name, 'Taken Name'));
    await invalid(
      { mapping: ['email'], mode: 'update', listId: own?.id, newListName: 'Other' },
      { newListName: [IMPORT_MESSAGES.listAndNewList] },
    );
  });

  it('starts once: a second start is 409', async () => {
    const r = await gw.post<ImportJob>(`/v1/imports/${jobId}/start`, { mapping: ['email', null], mode: 'skip' }, basic);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.mapping, r.body.mode, r.body.has_header], [['email', null], 'skip', true]);
    const again = await gw.post<ErrorBody>(`/v1/imports/${jobId}/start`, { mapping: ['email'], mode: 'skip' }, basic);
    assert.equal(again.status, 409);
    assert.equal(again.body.message, IMPORT_MESSAGES.alreadyStarted);
    const done = await waitFinished(basic, jobId);
    assert.deepEqual([done.status, done.created], ['completed', 1]);
  });

  it('unknown ids are 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const r = await gw.post<ErrorBody>(`/v1/imports/${id}/start`, { mapping: ['email'], mode: 'skip' }, basic);
      assert.equal(r.status, 404);
      assert.equal((await gw.get(`/v1/imports/${id}`, basic)).status, 404);
    }
  });
});

async function tenantOf(email: string): Promise<string | undefined> {
  const [row] = await queryRows(gw.handle.db, sql`select tenant_id from users where email = ${email}`);
  return row ? (textOf(row, 'tenant_id') ?? undefined) : undefined;
}

describe('cancelling', () => {
  it('stops a running import: committed rows stay, nothing more is imported', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `c${i}@cancel.test`);
    const up = await upload(basic, `email\n${rows.join('\n')}\n`);
    await gw.post(`/v1/imports/${up.body._id}/start`, { mapping: ['email'], mode: 'update' }, basic);
    for (;;) {
      const r = await gw.get<ImportJob>(`/v1/imports/${up.body._id}`, basic);
      if (r.body.status === 'running' && r.body.rows_done > 0) break;
      assert.ok(['queued', 'running'].includes(r.body.status), r.text);
    }
    const cancelled = await gw.post<ImportJob>(`/v1/imports/${up.body._id}/cancel`, {}, basic);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await waitFinished(basic, up.body._id);
    assert.equal(after.status, 'cancelled');
    assert.ok(after.rows_done > 0 && after.rows_done < 30_000);
    assert.equal(after.rows_done, cancelled.body.rows_done, 'no batch after the cancel');
    assert.equal((await contactsLike('%cancel.test')).length, after.created);
    const [job] = await gw.handle.db.select().from(importJobs).where(eq(importJobs.id, up.body._id));
    assert.equal(fs.existsSync(path.join(gw.config.dataDir, job?.filePath ?? '')), false, 'file removed');

    const again = await gw.post<ErrorBody>(`/v1/imports/${up.body._id}/cancel`, {}, basic);
    assert.equal(again.status, 409);
    const uploaded = await upload(basic, 'email\nx@cancel2.test\n');
    assert.equal((await gw.post(`/v1/imports/${uploaded.body._id}/cancel`, {}, basic)).status, 409);
  });
});

describe('jobs that cannot go on', () => {
  it('a job whose file is gone ends failed with a sentence for the user', async () => {
    const up = await upload(basic, 'email\ngone@gone.test\n');
    const [job] = await gw.handle.db.select().from(importJobs).where(eq(importJobs.id, up.body._id));
    fs.rmSync(path.join(gw.config.dataDir, job?.filePath ?? ''));
    await gw.post(`/v1/imports/${up.body._id}/start`, { mapping: ['email'], mode: 'update' }, basic);
    const done = await waitFinished(basic, up.body._id);
    assert.deepEqual([done.status, done.error], ['failed', JOB_ERRORS.fileGone]);
  });

  it('a job mapping an attribute deleted since ends failed', async () => {
    const up = await upload(basic, 'email,level\nghost@gone.test,3\n');
    // As if the attribute had been deleted between the start and the runner picking the job up.
    await gw.handle.db
      .update(importJobs)
      .set({ status: 'queued', mapping: ['email', 'attr:ghost'] })
      .where(eq(importJobs.id, up.body._id));
    await enqueueImport(gw.app.deps.jobs, up.body._id);
    const done = await waitFinished(basic, up.body._id);
    assert.deepEqual([done.status, done.error], ['failed', JOB_ERRORS.attributeGone('ghost')]);
    assert.equal((await contactsLike('ghost@gone.test')).length, 0);
  });

  it('a target list deleted while the import runs: the import goes on without it', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => `ld${i}@listgone.test`);
    const up = await upload(basic, `email\n${rows.join('\n')}\n`);
    const started = await gw.post<ImportJob>(
      `/v1/imports/${up.body._id}/start`,
      { mapping: ['email'], mode: 'update', newListName: 'Short-lived' },
      basic,
    );
    for (;;) {
      const r = await gw.get<ImportJob>(`/v1/imports/${up.body._id}`, basic);
      if (r.body.rows_done > 0 || r.body.status === 'completed') break;
    }
    await gw.handle.db.delete(lists).where(eq(lists.id, started.body.list_id ?? ''));
    const done = await waitFinished(basic, up.body._id);
    assert.deepEqual([done.status, done.created, done.failed, done.list_id], ['completed', 1500, 0, null]);
    assert.equal((await contactsLike('%listgone.test')).length, 1500);
  });

  it('uploads never started are deleted after a day, with leftovers of cut-off uploads', async () => {
    const up = await upload(basic, 'email\nold@old.test\n');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await gw.handle.db.update(importJobs).set({ createdAt: dayAgo }).where(eq(importJobs.id, up.body._id));
    const dir = path.join(gw.config.dataDir, 'imports');
    const part = path.join(dir, 'cut-off.csv.part');
    fs.writeFileSync(part, 'email\n');
    fs.utimesSync(part, dayAgo, dayAgo);
    const file = path.join(dir, `${up.body._id}.csv`);
    assert.equal(fs.existsSync(file), true);
    // The housekeeping job's cleanup (a recurring job; called directly here).
    await cleanupImports(gw.handle.db, gw.config);
    assert.equal((await gw.get(`/v1/imports/${up.body._id}`, basic)).status, 404);
    assert.deepEqual([fs.existsSync(file), fs.existsSync(part)], [false, false]);
  });
});

describe('listing imports', () => {
  it('newest first, paged, searchable by file name', async () => {
    await upload(basic, 'email\nl1@list.test\n', { fileName: 'alpha-list.csv' });
    await upload(basic, 'email\nl2@list.test\n', { fileName: 'beta-list.csv' });
    const page = await gw.get<ImportJobPage>('/v1/imports?perPage=2', basic);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      page.body.records.map((j) => j.file_name),
      ['beta-list.csv', 'alpha-list.csv'],
    );
    assert.equal(page.body.pagination.next, 2);
    const found = await gw.get<ImportJobPage>('/v1/imports?searchString=ALPHA', basic);
    assert.deepEqual(
      found.body.records.map((j) => j.file_name),
      ['alpha-list.csv'],
    );
    const bad = await gw.get<ErrorBody>('/v1/imports?sortField=file_name', basic);
    assert.equal(bad.status, 400);
  });
});

describe('permissions and tenants', () => {
  let jobId: string;
  before(async () => {
    jobId = (await upload(basic, 'email\niso@iso.test\n')).body._id;
  });

  it('another tenant gets 404 for every call on the job, and does not see it listed', async () => {
    assert.equal((await gw.get(`/v1/imports/${jobId}`, lab)).status, 404);
    assert.equal((await gw.get(`/v1/imports/${jobId}/failures`, lab)).status, 404);
    assert.equal((await gw.post(`/v1/imports/${jobId}/start`, { mapping: ['email'], mode: 'skip' }, lab)).status, 404);
    assert.equal((await gw.post(`/v1/imports/${jobId}/cancel`, {}, lab)).status, 404);
    const listed = await gw.get<ImportJobPage>('/v1/imports?perPage=1000', lab);
    assert.equal(
      listed.body.records.some((j) => j._id === jobId),
      false,
    );
    assert.equal((await gw.get<ImportJob>(`/v1/imports/${jobId}`, basic)).body.status, 'uploaded');
  });

  it('403 without manage_contacts, 401 without a session; the upload is refused before it is read', async () => {
    const admin = await gw.login('global');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(1000)]);
    assert.equal((await upload(admin, png)).status, 403);
    assert.equal((await upload(null, png)).status, 401);
    assert.equal((await gw.get('/v1/imports', admin)).status, 403);
    assert.equal((await gw.get(`/v1/imports/${jobId}`, admin)).status, 403);
    assert.equal((await gw.get(`/v1/imports/${jobId}/failures`, admin)).status, 403);
    assert.equal(
      (await gw.post(`/v1/imports/${jobId}/start`, { mapping: ['email'], mode: 'skip' }, admin)).status,
      403,
    );
    assert.equal((await gw.post(`/v1/imports/${jobId}/cancel`, {}, admin)).status, 403);
  });
});

describe('counters after all imports', () => {
  it('contact_counts and member_count match the rows', async () => {
    const [row] = await queryRows(
      gw.handle.db,
      sql`select (select coalesce(sum(n), 0)::int from contact_counts where tenant_id = ${basicId}::uuid) as kept,
                 (select count(*)::int from contacts where tenant_id = ${basicId}::uuid) as actual`,
    );
    assert.ok(row);
    assert.equal(intOf(row, 'kept'), intOf(row, 'actual'));
    assert.ok(intOf(row, 'actual') > 20);
    const drift = await queryRows(
      gw.handle.db,
      sql`select l.id from lists l where l.member_count <> (select count(*) from list_members m where m.list_id = l.id)`,
    );
    assert.deepEqual(drift, []);
  });
});
