// A PostgreSQL server that cuts the gateway's idle connections (a restart, a failover, an
// administrator) must not end the gateway: the pool replaces them and the next request works.
// Only on a server (TEST_DATABASE_URL); PGlite has no connections to lose.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { startGateway, type TestGateway } from '../../test/helpers';

const serverUrl = process.env.TEST_DATABASE_URL;
let gw: TestGateway | null = null;

before(async () => {
  if (serverUrl) gw = await startGateway();
});
after(() => gw?.close());

it('survives its idle database connections being terminated', { skip: !serverUrl }, async () => {
  assert.ok(gw && gw.config.databaseUrl);
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', record);
  try {
    // Several requests at once leave several idle connections in the pool.
    await Promise.all(Array.from({ length: 4 }, () => gw?.login('acmeOwner')));
    const database = new URL(gw.config.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string }>(
        'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      );
      assert.ok(Number(rows[0]?.n) > 0, 'some connections were cut');
    } finally {
      await admin.end();
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(uncaught, []);
    const token = await gw.login('acmeOwner');
    assert.equal((await gw.get('/v1/tenants/current', token)).status, 200, 'the next request works');
  } finally {
    process.off('uncaughtException', record);
  }
});
