// Segments over on-chain facts (docs/audience.md): each rule kind on both sides of its threshold, a rule
// and its negation splitting the audience in two, the fields the builder gets, another tenant's contract
// refused, a deleted contract, and a segment's count equal to the recipients a send to it takes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type {
  AudienceSelection,
  Segment,
  SegmentFieldList,
  SegmentGroup,
  SegmentPreview,
  SegmentRule,
} from '../../contracts';
import { watchedContracts } from '../../db/schema';
import { countAudience, takeAudience } from '../../campaigns/audience';
import { type ErrorBody, startGateway, type TestGateway } from '../../../test/helpers';
import { tenantId } from '../../../test/audience-helpers';
import { createCampaign } from '../../../test/campaign-send-helpers';
import {
  insertFirstSeen,
  insertHolding,
  insertWalletEvent,
  insertWatchedContract,
} from '../../../test/onchain-segment-fixtures';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
/** 10^18: one token of 18 decimals in its smallest unit. */
const TOKEN = '000000000000000000';

// Contacts' wallets as the console stores them (EIP-55, mixed case); the on-chain tables hold them lower-case.
const W = {
  rich: '0x52908400098527886E0F7030069857D2E4169EE7',
  poor: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  exact: '0xde709f2102306220921060314715629080e2fb77',
  stranger: '0x27b1fdb04752bbc536007a920d24acb045561c26',
};
type Name = 'rich' | 'poor' | 'exact' | 'stranger' | 'nowallet';
const ALL: Name[] = ['exact', 'nowallet', 'poor', 'rich', 'stranger'];
const except = (...out: Name[]) => ALL.filter((n) => !out.includes(n));

let gw: TestGateway;
let lab: string;
let basic: string;
let labId: string;
let token: string; // Lab's token (18 decimals, keeps balances; Transfer and Approval watched)
let badge: string; // Lab's NFT (0 decimals)
let basicToken: string; // Basic Guild's token

const send = <T>(method: string, path: string, body?: unknown, who: string = lab) =>
  gw.request<T & ErrorBody>(path, { method, body, token: who });
const preview = (rule: SegmentGroup, who: string = lab) =>
  send<SegmentPreview>('POST', '/v1/segments/preview', { rule, limit: 50 }, who);
const only = (r: SegmentRule, not?: boolean): SegmentGroup => ({
  combinator: 'and',
  rules: [r],
  ...(not ? { not } : {}),
});
const balance = (contract: string, operator: string, value: SegmentRule['value']): SegmentRule => ({
  field: `chain.balance.${contract}`,
  operator,
  value,
});
const event = (name: string, operator: string, value: SegmentRule['value']): SegmentRule => ({
  field: `chain.event.${token}.${name}`,
  operator,
  value,
});
const firstSeen = (operator: string, value?: SegmentRule['value']): SegmentRule => ({
  field: 'chain.first_seen',
  operator,
  ...(value === undefined ? {} : { value }),
});

/** The contacts a rule matches, by name (from the preview's records: Lab has only these five). */
async function matching(rule: SegmentGroup): Promise<string[]> {
  const r = await preview(rule);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.count, r.body.records.length);
  return r.body.records.map((c) => c.first_name).sort();
}

before(async () => {
  gw = await startGateway();
  const db = gw.handle.db;
  [lab, basic] = await Promise.all([gw.login('labOwner'), gw.login('basicOwner')]);
  labId = await tenantId(gw, 'Lab Rats');
  const basicId = await tenantId(gw, 'Basic Guild');
  for (const name of ALL) {
    const wallet = name === 'nowallet' ? null : W[name];
    const r = await send('POST', '/v1/contacts', { email: `${name}@lab.example`, wallet, first_name: name });
    assert.equal(r.status, 201, r.text);
  }
  token = await insertWatchedContract(db, {
    tenantId: labId,
    name: 'Lab token',
    events: ['Transfer(address,address,uint256)', 'Approval(address,address,uint256)'],
    token: { decimals: 18, symbol: 'LAB' },
  });
  badge = await insertWatchedContract(db, {
    tenantId: labId,
    name: 'Lab badge',
    events: ['Transfer(address,address,uint256)'],
    token: { decimals: 0, symbol: null },
  });
  basicToken = await insertWatchedContract(db, {
    tenantId: basicId,
    name: 'Basic token',
    events: ['Transfer(address,address,uint256)'],
    token: { decimals: 18, symbol: 'BSC' },
  });
  // Balances: rich 1000.5 LAB, exact 100 LAB, poor the smallest unit; stranger none.
  await insertHolding(db, labId, token, W.rich, `10005${TOKEN.slice(1)}`);
  await insertHolding(db, labId, token, W.exact, `100${TOKEN}`);
  await insertHolding(db, labId, token, W.poor, '1');
  await insertHolding(db, labId, badge, W.stranger, '2');
  // Another tenant's token, held by Lab's contacts' wallets: never counted for Lab.
  await insertHolding(db, basicId, basicToken, W.poor, `5000${TOKEN}`);
  // Transfers: rich 3 (2 in the last 10 days), poor 1 (100 days ago); Approval: stranger 1 (yesterday).
  const transfer = (wallets: string[], at: Date) =>
    insertWalletEvent(db, { tenantId: labId, contractId: token, eventName: 'Transfer', wallets, at });
  await transfer([W.rich, W.poor], daysAgo(100));
  await transfer([W.rich], daysAgo(5));
  await transfer([W.rich], daysAgo(2));
  await insertWalletEvent(db, {
    tenantId: labId,
    contractId: token,
    eventName: 'Approval',
    wallets: [W.stranger],
    at: daysAgo(1),
  });
  await insertWalletEvent(db, {
    tenantId: basicId,
    contractId: basicToken,
    eventName: 'Transfer',
    wallets: [W.exact],
    at: daysAgo(1),
  });
  await insertFirstSeen(db, labId, W.rich, new Date('2024-01-05T10:00:00Z'));
  await insertFirstSeen(db, labId, W.poor, new Date('2025-06-01T00:00:00Z'));
  await insertFirstSeen(db, basicId, W.exact, new Date('2024-01-01T00:00:00Z'));
});
after(() => gw.close());

describe('the fields the rule builder gets', () => {
  it("lists the tenant's watched contracts by id, with the token's symbol and decimals", async () => {
    const r = await send<SegmentFieldList>('GET', '/v1/segments/fields');
    assert.equal(r.status, 200, r.text);
    const onchain = r.body.records.filter((f) => f.name.startsWith('chain.'));
    assert.deepEqual(onchain, [
      {
        name: `chain.balance.${token}`,
        label: 'Lab token: balance',
        kind: 'token',
        token: { symbol: 'LAB', decimals: 18 },
      },
      { name: `chain.event.${token}.Transfer`, label: 'Lab token: Transfer', kind: 'event' },
      { name: `chain.event.${token}.Approval`, label: 'Lab token: Approval', kind: 'event' },
      {
        name: `chain.balance.${badge}`,
        label: 'Lab badge: balance',
        kind: 'token',
        token: { symbol: null, decimals: 0 },
      },
      { name: `chain.event.${badge}.Transfer`, label: 'Lab badge: Transfer', kind: 'event' },
      { name: 'chain.first_seen', label: 'First seen on chain', kind: 'date' },
    ]);
    assert.ok(
      r.body.records.some((f) => f.name === 'email'),
      'the contact fields too',
    );
  });

  it('answers staff with manage_contacts but not monitor_smart_contracts', async () => {
    const acme = await tenantId(gw, 'Acme DAO');
    const id = await insertWatchedContract(gw.handle.db, {
      tenantId: acme,
      name: 'Acme token',
      events: ['Transfer(address,address,uint256)'],
      token: { decimals: 6, symbol: 'ACME' },
    });
    const staff = await gw.login('acmeStaff');
    const r = await send<SegmentFieldList>('GET', '/v1/segments/fields', undefined, staff);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.records.some((f) => f.name === `chain.balance.${id}` && f.label === 'Acme token: balance'));
  });

  it('keeps field names when a contract is renamed', async () => {
    await gw.handle.db.update(watchedContracts).set({ name: 'Lab coin' }).where(eq(watchedContracts.id, token));
    try {
      const r = await send<SegmentFieldList>('GET', '/v1/segments/fields');
      const field = r.body.records.find((f) => f.name === `chain.balance.${token}`);
      assert.equal(field?.label, 'Lab coin: balance');
      assert.deepEqual(await matching(only(balance(token, '>=', '100'))), ['exact', 'rich']);
    } finally {
      await gw.handle.db.update(watchedContracts).set({ name: 'Lab token' }).where(eq(watchedContracts.id, token));
    }
  });
});

describe('holds at least N', () => {
  const cases: [string, () => SegmentRule, Name[]][] = [
    ['>= 100 (exactly 100 included)', () => balance(token, '>=', '100'), ['exact', 'rich']],
    ['>= one unit above 100', () => balance(token, '>=', '100.000000000000000001'), ['rich']],
    ['>= 1000.5 (decimals converted exactly)', () => balance(token, '>=', '1000.5'), ['rich']],
    ['>= 1000.500000000000000001', () => balance(token, '>=', '1000.500000000000000001'), []],
    ['>= the smallest unit', () => balance(token, '>=', '0.000000000000000001'), ['exact', 'poor', 'rich']],
    ['>= 0 is everyone', () => balance(token, '>=', '0'), ALL],
    ['< 100: the complement, with no wallet and no balance', () => balance(token, '<', '100'), except('exact', 'rich')],
    ['between 100 and 1000.4 (both included)', () => balance(token, 'between', ['1000.4', '100']), ['exact']],
    ['between 0 and 1 (no balance holds 0)', () => balance(token, 'between', ['0', '1']), except('exact', 'rich')],
    ['an NFT count: >= 2', () => balance(badge, '>=', '2'), ['stranger']],
    ['an NFT count: >= 3', () => balance(badge, '>=', 3), []],
  ];
  for (const [name, make, expected] of cases) {
    it(name, async () => assert.deepEqual(await matching(only(make())), [...expected].sort()));
  }

  it('refuses amounts that are not exact in the token', async () => {
    for (const [rule, message] of [
      [balance(token, '>=', '1.0000000000000000001'), /18 decimal places/],
      [balance(badge, '>=', '1.5'), /whole number/],
      [balance(token, '>=', '-1'), /amount such as/],
      [balance(token, '>=', '1e3'), /amount such as/],
      [balance(token, '>', '1'), /operator ">" is not available/],
      [balance(token, 'between', ['1']), /two amounts/],
    ] as const) {
      const r = await preview(only(rule));
      assert.equal(r.status, 400, r.text);
      assert.ok(
        r.body.errors?.rule?.some((m) => message.test(m)),
        r.text,
      );
    }
  });
});

describe('did an event at least K times', () => {
  const cases: [string, () => SegmentRule, Name[]][] = [
    ['Transfer at least once, ever', () => event('Transfer', '>=', [1]), ['poor', 'rich']],
    ['Transfer at least 3 times, ever', () => event('Transfer', '>=', [3]), ['rich']],
    ['Transfer at least 4 times, ever', () => event('Transfer', '>=', [4]), []],
    ['Transfer at least twice in the last 10 days', () => event('Transfer', '>=', [2, 10]), ['rich']],
    ['Transfer at least 3 times in the last 10 days', () => event('Transfer', '>=', [3, 10]), []],
    ['Transfer at least once in the last 3 days', () => event('Transfer', '>=', ['1', '3']), ['rich']],
    ['Transfer fewer than once: never', () => event('Transfer', '<', [1]), except('poor', 'rich')],
    ['Transfer fewer than 3 times', () => event('Transfer', '<', [3]), except('rich')],
    ['Approval at least once', () => event('Approval', '>=', [1]), ['stranger']],
  ];
  for (const [name, make, expected] of cases) {
    it(name, async () => assert.deepEqual(await matching(only(make())), [...expected].sort()));
  }

  it('refuses counts and periods out of range, and an event not watched', async () => {
    for (const value of [[0], [1, 0], [1, 36_501], [1.5], 'x', [], [1, 2, 3]]) {
      const r = await preview(only(event('Transfer', '>=', value)));
      assert.equal(r.status, 400, `${JSON.stringify(value)}: ${r.text}`);
      assert.ok(
        r.body.errors?.rule?.some((m) => /how many times/.test(m)),
        r.text,
      );
    }
    const r = await preview(only(event('Mint', '>=', [1])));
    assert.equal(r.status, 400, r.text);
    assert.ok(
      r.body.errors?.rule?.some((m) => /Contract no longer watched/.test(m)),
      r.text,
    );
  });
});

describe('first seen on chain', () => {
  const cases: [string, () => SegmentRule, Name[]][] = [
    ['before 2025-01-01', () => firstSeen('<', '2025-01-01'), ['rich']],
    ['before 2024-01-05 (the day itself is not before)', () => firstSeen('<', '2024-01-05'), []],
    ['after 2024-01-05', () => firstSeen('>', '2024-01-05'), ['poor']],
    ['between 2024-01-05 and 2025-06-01', () => firstSeen('between', ['2024-01-05', '2025-06-01']), ['poor', 'rich']],
    ['within the last 30 days', () => firstSeen('lastDays', 30), []],
    ['never seen (no wallet, or another tenant saw it)', () => firstSeen('null'), except('poor', 'rich')],
    ['seen', () => firstSeen('notNull'), ['poor', 'rich']],
  ];
  for (const [name, make, expected] of cases) {
    it(name, async () => assert.deepEqual(await matching(only(make())), [...expected].sort()));
  }
});

describe('a rule and its negation', () => {
  it('split the audience in two, for every kind', async () => {
    const rules = [
      balance(token, '>=', '100'),
      balance(token, '<', '100'),
      balance(token, 'between', ['0.000000000000000001', '100']),
      event('Transfer', '>=', [2]),
      event('Transfer', '>=', [1, 30]),
      event('Transfer', '<', [1]),
      firstSeen('<', '2025-01-01'),
      firstSeen('null'),
    ];
    for (const r of rules) {
      const yes = await matching(only(r));
      const no = await matching(only(r, true));
      assert.deepEqual(
        yes.filter((n) => no.includes(n)),
        [],
        `${JSON.stringify(r)}: no contact on both sides`,
      );
      assert.deepEqual([...yes, ...no].sort(), ALL, `${JSON.stringify(r)}: every contact on one side`);
    }
  });
});

describe("another tenant's contract", () => {
  it('is refused in a saved segment and in the live count, like a contract not watched', async () => {
    const rule = only(balance(basicToken, '>=', '1'));
    const saved = await send('POST', '/v1/segments', { name: 'Not ours', rule });
    assert.equal(saved.status, 400, saved.text);
    assert.ok(
      saved.body.errors?.rule?.some((m) => m.includes(`chain.balance.${basicToken}`)),
      saved.text,
    );
    assert.ok(
      saved.body.errors?.rule?.some((m) => m.includes('Contract no longer watched')),
      saved.text,
    );
    const counted = await preview(rule);
    assert.equal(counted.status, 400, counted.text);
    // Basic Guild's own rule counts its own facts only (Lab's wallets are not its contacts).
    const theirs = await preview(rule, basic);
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.count, 0);
  });

  it("does not count another tenant's first sightings or events", async () => {
    assert.deepEqual(await matching(only(firstSeen('<', '2024-01-02'))), []);
    assert.deepEqual(await matching(only(event('Transfer', '>=', [1, 3]))), ['rich']);
  });
});

async function sendCount(segmentId: string): Promise<{ preview: number; audience: number; taken: number }> {
  const db = gw.handle.db;
  const selection: AudienceSelection = {
    include_lists: [],
    include_segments: [segmentId],
    exclude_lists: [],
    exclude_segments: [],
  };
  const campaignId = await createCampaign(db, {
    tenantId: labId,
    templateId: null as unknown as string,
    audience: selection,
  });
  const audience = await countAudience(db, labId, selection, null);
  const taken = await takeAudience(db, campaignId, labId, selection, null);
  const segment = await send<Segment>('GET', `/v1/segments/${segmentId}`);
  const counted = await preview(segment.body.rule);
  return {
    preview: counted.status === 200 ? counted.body.count : -1,
    audience: audience.reachable,
    taken: taken ?? -1,
  };
}

describe("a segment's count and a send to it", () => {
  it('reach the same contacts', async () => {
    const rules: [string, SegmentGroup][] = [
      ['Holders', only(balance(token, '>=', '100'))],
      ['Recent movers', only(event('Transfer', '>=', [2, 10]))],
      ['Not early', only(firstSeen('<', '2025-01-01'), true)],
      [
        'Holders or approvers',
        { combinator: 'or', rules: [balance(token, '>=', '0.5'), event('Approval', '>=', [1])] },
      ],
    ];
    for (const [name, rule] of rules) {
      const saved = await send<Segment>('POST', '/v1/segments', { name, rule });
      assert.equal(saved.status, 201, saved.text);
      const counts = await sendCount(saved.body._id);
      assert.ok(counts.preview > 0, `${name}: matches someone`);
      assert.deepEqual(counts, { preview: counts.preview, audience: counts.preview, taken: counts.preview }, name);
    }
  });
});

describe('a contract deleted', () => {
  it('is refused on save and matches nobody in a segment saved before', async () => {
    const db = gw.handle.db;
    const gone = await insertWatchedContract(db, {
      tenantId: labId,
      name: 'Short-lived',
      events: ['Transfer(address,address,uint256)'],
      token: { decimals: 0, symbol: 'SL' },
    });
    await insertHolding(db, labId, gone, W.rich, '10');
    const rule = only(balance(gone, '>=', '1'));
    const saved = await send<Segment>('POST', '/v1/segments', { name: 'Short-lived holders', rule });
    assert.equal(saved.status, 201, saved.text);
    assert.deepEqual(await sendCount(saved.body._id), { preview: 1, audience: 1, taken: 1 });

    await db.delete(watchedContracts).where(eq(watchedContracts.id, gone));
    const fields = await send<SegmentFieldList>('GET', '/v1/segments/fields');
    assert.ok(!fields.body.records.some((f) => f.name.includes(gone)), 'no longer offered');
    const again = await send('PATCH', `/v1/segments/${saved.body._id}`, { name: 'Short-lived holders', rule });
    assert.equal(again.status, 400, again.text);
    assert.ok(
      again.body.errors?.rule?.some((m) => m.includes('Contract no longer watched')),
      again.text,
    );
    const counts = await sendCount(saved.body._id);
    assert.equal(counts.audience, 0, 'a send reaches nobody through it');
    assert.equal(counts.taken, 0);
    assert.equal(counts.preview, -1, 'the rule being edited says why');
    const grid = await send<{ pagination: { count: number } }>('GET', `/v1/contacts?segmentId=${saved.body._id}`);
    assert.equal(grid.status, 200, grid.text);
    assert.equal(grid.body.pagination.count, 0, '"View contacts" shows nobody');
  });
});
