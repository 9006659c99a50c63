// The importer's batches against the database: matching rows to existing contacts stays one index
// probe per value whatever the planner's statistics say (a tenant that grew since the last ANALYZE
// looks empty), and batch sizes grow and shrink within their bounds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { matchContacts, matchQuery } from './import-batch';
import { BATCH_GROWTH, firstBatchRows, nextBatchRows } from './import-runner';
import type { CommitPace } from '../../db/storage';
import type { ImportValues } from './import-rows';
import type { CandidateRow } from './import-source';
import { queryRows, textOf } from '../../lib/raw-sql';
import { tenantId } from '../../../test/audience-helpers';
import { startGateway, type TestGateway } from '../../../test/helpers';

let gw: TestGateway;
let tenant: string;
const CONTACTS = 3000;
const wallet = (n: number) => `0xb${n.toString(16).padStart(39, '0')}`;

function candidate(line: number, values: Partial<ImportValues>): CandidateRow {
  return {
    line,
    raw: '',
    values: { email: null, wallet: null, firstName: null, lastName: null, status: null, attributes: null, ...values },
  };
}

before(async () => {
  gw = await startGateway();
  tenant = await tenantId(gw, 'Lab Rats');
  // Statistics first, contacts after: to the planner the tenant has (next to) no contacts, as it is
  // for a tenant whose first large import is under way.
  await gw.handle.db.execute(sql`analyze contacts`);
  await gw.handle.db.execute(sql`
    insert into contacts (tenant_id, email, wallet, source)
    select ${tenant}::uuid, 'm' || g || '@match.test', case when g % 2 = 0 then '0xb' || lpad(to_hex(g), 39, '0') end, 'import'
    from generate_series(1, ${CONTACTS}::int) g`);
});
after(() => gw.close());

describe('matching a batch to existing contacts', () => {
  it('probes the unique indexes per value even when the statistics say the tenant is empty', async () => {
    const rows = Array.from({ length: 500 }, (_, i) =>
      candidate(i + 2, { email: `m${i * 7}@match.test`, wallet: i % 3 === 0 ? wallet(i) : null }),
    );
    const plan = (await queryRows(gw.handle.db, sql`explain ${matchQuery(tenant, rows)}`))
      .map((r) => textOf(r, 'QUERY PLAN') ?? '')
      .join('\n');
    assert.doesNotMatch(plan, /Hash|Merge|Seq Scan on contacts/, plan);
    assert.match(plan, /Index (Only )?Scan using contacts_tenant_email\w* on contacts[^\n]*\n\s+Index Cond: \(\(tenant_id = [^\n]+\) AND \(\(?lower\(email\)/, plan); // prettier-ignore
    assert.match(plan, /Index (Only )?Scan using contacts_tenant_wallet\w* on contacts[^\n]*\n\s+Index Cond: \(\(tenant_id = [^\n]+\) AND \(\(?lower\(wallet\)/, plan); // prettier-ignore
  });

  it('finds contacts by e-mail (any case), by wallet, both, or neither', async () => {
    const rows = [
      candidate(2, { email: 'm4@match.test' }),
      candidate(3, { wallet: wallet(6) }),
      candidate(4, { email: 'm8@match.test', wallet: wallet(10) }),
      candidate(5, { email: 'nobody@match.test', wallet: wallet(CONTACTS + 2) }),
      candidate(6, { email: 'm3@match.test', wallet: wallet(3) }),
    ];
    const matches = await matchContacts(gw.handle.db, tenant, rows);
    const summary = [...matches].map(([i, m]) => [i, m.byEmail?.email ?? null, m.byWallet?.wallet ?? null]);
    assert.deepEqual(
      summary.sort((a, b) => Number(a[0]) - Number(b[0])),
      [
        [0, 'm4@match.test', null],
        [1, null, wallet(6)],
        [2, 'm8@match.test', wallet(10)],
        [4, 'm3@match.test', null],
      ],
    );
    const m8 = matches.get(2);
    assert.ok(m8?.byEmail && m8.byWallet);
    assert.notEqual(m8.byEmail.id, m8.byWallet.id, 'e-mail of one contact, wallet of another');
  });
});

/** A database whose statements run side by side: commits aim at a second, sizes as configured. */
const SERVER: CommitPace = { targetMs: 1000, startRows: Infinity, leastRows: Infinity, mostRows: Infinity };
/** One whose commits hold up every other request (embedded PGlite's pace, db/storage.ts). */
const BOUNDED: CommitPace = { targetMs: 100, startRows: 250, leastRows: 100, mostRows: 500 };

describe('batch sizes', () => {
  it('double while batches commit quickly, up to the growth limit', () => {
    assert.equal(nextBatchRows(5000, 200, 5000, SERVER), 10_000);
    assert.equal(nextBatchRows(20_000, 200, 5000, SERVER), 5000 * BATCH_GROWTH);
    assert.equal(nextBatchRows(5000 * BATCH_GROWTH, 10, 5000, SERVER), 5000 * BATCH_GROWTH);
  });

  it('halve when a batch takes long, never below the configured size; hold in between', () => {
    assert.equal(nextBatchRows(40_000, 5000, 5000, SERVER), 20_000);
    assert.equal(nextBatchRows(5000, 5000, 5000, SERVER), 5000);
    assert.equal(nextBatchRows(20_000, 1500, 5000, SERVER), 20_000);
  });

  it('at a bounded pace: start small, aim at its target, shrink below the configured size', () => {
    assert.equal(firstBatchRows(5000, BOUNDED), BOUNDED.startRows);
    assert.equal(firstBatchRows(5000, SERVER), 5000);
    assert.equal(firstBatchRows(200, BOUNDED), 200);
    assert.equal(nextBatchRows(250, BOUNDED.targetMs / 2, 5000, BOUNDED), 500);
    assert.equal(nextBatchRows(BOUNDED.mostRows, 1, 5000, BOUNDED), BOUNDED.mostRows);
    assert.equal(nextBatchRows(400, BOUNDED.targetMs * 1.5, 5000, BOUNDED), 400);
    assert.equal(nextBatchRows(400, BOUNDED.targetMs * 3, 5000, BOUNDED), 200);
    assert.equal(nextBatchRows(150, BOUNDED.targetMs * 3, 5000, BOUNDED), 100);
    // A commit of 300 ms on a server is quick; where commits hold up every other request, it is not.
    assert.equal(nextBatchRows(5000, 300, 5000, SERVER), 10_000);
    assert.equal(nextBatchRows(500, 300, 5000, BOUNDED), 250);
  });
});
