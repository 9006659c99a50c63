// Acme DAO watches the local chain's demo token when `npm start` runs one: seeded once, left alone after.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { startGateway, type TestGateway } from '../../test/helpers';
import { tenants, watchedContracts } from '../db/schema';
import { type DemoChain, seedDemoContract } from './index';

const CHAIN: DemoChain = {
  url: 'http://127.0.0.1:8545',
  chainId: 31337,
  token: {
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    symbol: 'ACME',
    decimals: 18,
    deployBlock: '2',
    abi: [{ type: 'event', name: 'Transfer', inputs: [] }],
  },
};

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(() => gw.close());

it('without a chain the demo data watches nothing; with one, Acme DAO watches its token once', async () => {
  const db = gw.handle.db;
  assert.deepEqual(await db.select().from(watchedContracts), []);
  const [acme] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, 'Acme DAO'));
  assert.ok(acme);
  await seedDemoContract(db, acme.id, CHAIN);
  await seedDemoContract(db, acme.id, { ...CHAIN, token: { ...CHAIN.token, deployBlock: '9' } });
  const rows = await db.select().from(watchedContracts);
  assert.equal(rows.length, 1);
  const [row] = rows;
  assert.equal(row?.tenantId, acme.id);
  assert.equal(row?.address, CHAIN.token.address);
  assert.deepEqual(row?.events, ['Transfer(address,address,uint256)']);
  assert.equal(row?.startBlock, 2n);
  assert.equal(row?.lastBlock, 1n);
  assert.equal(row?.state, 'catching_up');
});
