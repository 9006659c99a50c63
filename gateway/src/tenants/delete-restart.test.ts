// A tenant deletion survives a restart: a deleted tenant whose data was not (all) removed when the
// process stopped is taken up again by the next process's start (delete-job.ts).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { intOf, queryRows } from '../lib/raw-sql';
import { startGateway, type TestGateway } from '../../test/helpers';
import { tenantId } from '../../test/audience-helpers';
import { waitUntil } from '../../test/campaign-send-helpers';
import { DELETE_BATCH, deleteTenantSlice } from './delete-job';

let gw: TestGateway;
let restarted: FastifyInstance | null = null;
before(async () => {
  gw = await startGateway({ JOBS_POLL_SECONDS: '0.5' });
});
after(async () => {
  await restarted?.close();
  await gw.close();
});

const count = async (table: string, tenant: string) => {
  const [row] = await queryRows(
    gw.handle.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenant}::uuid`,
  );
  return intOf(row ?? {}, 'n');
};

it('resumes removing a deleted tenant after a restart', async () => {
  const db = gw.handle.db;
  const lab = await tenantId(gw, 'Lab Rats');
  await db.execute(
    sql`insert into contacts (tenant_id, email) select ${lab}::uuid, 'r' || g || '@lab.test' from generate_series(1, ${DELETE_BATCH + 500}) g`,
  );
  // Deleted, one slice removed, then the process stops before its job ran (no job is queued here).
  await db.execute(sql`update tenants set deleted_at = now() where id = ${lab}::uuid`);
  gw.sessionsChanged();
  assert.equal(await deleteTenantSlice(db, lab), true);
  assert.equal(await count('contacts', lab), 500);
  await gw.app.close();

  restarted = await buildApp({ db, config: gw.config });
  await restarted.ready();
  await waitUntil(async () => (await count('users', lab)) === 0, 60_000, 'the deletion to finish');
  assert.equal(await count('contacts', lab), 0);
  assert.equal(await count('communities', lab), 0);
});
