// The segment rule compiler against a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
// known contacts, rules in a table, the contacts each rule matches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import {
  MAX_SEGMENT_DEPTH,
  MAX_SEGMENT_RULES,
  type AttributeValue,
  type SegmentGroup,
  type SegmentRule,
} from '../../contracts';
import { segmentCondition, segmentWhere } from './segment-sql';
import { contacts, customAttributes, listMembers, lists, tenants, type CustomAttributeRow } from '../../db/schema';
import { HttpError } from '../../errors';
import { startGateway, type TestGateway } from '../../../test/helpers';

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

const W1 = '0x52908400098527886E0F7030069857D2E4169EE7';
const W3 = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const BACKUP = '0xde709f2102306220921060314715629080e2fb77';
const MISSING_LIST = '00000000-0000-4000-8000-000000000000';

let gw: TestGateway;
let tenantId: string;
let attributes: CustomAttributeRow[];
const listIds: Record<'l1' | 'l2' | 'l3', string> = { l1: '', l2: '', l3: '' };
const names = new Map<string, string>();

type Name = 'alice' | 'bob' | 'wally' | 'carol' | 'dave';
const ALL: Name[] = ['alice', 'bob', 'wally', 'carol', 'dave'];

before(async () => {
  gw = await startGateway();
  const { db } = gw.handle;
  const tenantNamed = async (name: string) => {
    const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name));
    if (!row) throw new Error(`no tenant ${name}`);
    return row.id;
  };
  tenantId = await tenantNamed('Lab Rats');
  const otherTenant = await tenantNamed('Basic Guild');

  attributes = await db
    .insert(customAttributes)
    .values([
      { tenantId, name: 'Score', key: 'score', type: 'number' },
      { tenantId, name: 'Birthday', key: 'birthday', type: 'date' },
      { tenantId, name: 'VIP', key: 'vip', type: 'boolean' },
      { tenantId, name: 'Nickname', key: 'nickname', type: 'text' },
      { tenantId, name: 'Backup wallet', key: 'backup', type: 'wallet' },
    ])
    .returning();
  const id = (key: string) => attributes.find((a) => a.key === key)?.id ?? '';
  const attrs = (values: Record<string, AttributeValue>): Record<string, AttributeValue> =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [id(k), v]));

  const rows = await db
    .insert(contacts)
    .values([
      {
        tenantId,
        email: 'alice@example.com',
        wallet: W1,
        firstName: 'Alice',
        lastName: 'Smith',
        status: 'subscribed',
        source: 'import',
        createdAt: new Date('2024-01-10T12:00:00Z'),
        attributes: attrs({ score: 10, birthday: '1990-05-01', vip: true, nickname: 'Al_100%', backup: BACKUP }),
      },
      {
        tenantId,
        email: 'bob@test.org',
        firstName: 'Bob',
        status: 'unsubscribed',
        source: 'widget',
        createdAt: new Date('2024-01-11T00:00:00Z'),
        // A number where a date belongs: not a date.
        attributes: attrs({ score: 25.5, vip: false, nickname: 'bobby', birthday: 19900501 }),
      },
      {
        tenantId,
        wallet: W3,
        status: 'bounced',
        source: 'api',
        createdAt: new Date('2024-02-01T23:59:59Z'),
        // Values that do not fit their attribute's type: never matched, never a SQL error.
        attributes: attrs({ score: 'oops', birthday: 'not-a-date', vip: 'yes', nickname: '' }),
      },
      {
        tenantId,
        email: 'carol@example.com',
        firstName: 'Carol',
        lastName: 'Jones',
        status: 'complained',
        source: 'manual',
        createdAt: daysAgo(2),
        // A boolean where a number belongs: not a number.
        attributes: attrs({ score: true }),
      },
      {
        tenantId,
        email: 'dave+x@sample.io',
        firstName: 'Dave',
        lastName: "O'Brien",
        status: 'subscribed',
        source: 'import',
        createdAt: daysAgo(40),
        attributes: attrs({ score: 100, birthday: isoDay(daysAgo(3)), nickname: 'D' }),
      },
      // Another tenant: never matched by segmentWhere.
      { tenantId: otherTenant, email: 'alice@example.com', firstName: 'Alice', status: 'subscribed', source: 'import' },
    ])
    .returning({ id: contacts.id, email: contacts.email, wallet: contacts.wallet, tenantId: contacts.tenantId });
  const byEmail = (e: string | null, w: string | null) =>
    rows.find((r) => r.tenantId === tenantId && r.email === e && r.wallet === w)?.id ?? '';
  const ids: Record<Name, string> = {
    alice: byEmail('alice@example.com', W1),
    bob: byEmail('bob@test.org', null),
    wally: byEmail(null, W3),
    carol: byEmail('carol@example.com', null),
    dave: byEmail('dave+x@sample.io', null),
  };
  for (const [name, contactId] of Object.entries(ids)) names.set(contactId, name);

  const made = await db
    .insert(lists)
    .values([
      { tenantId, name: 'L1' },
      { tenantId, name: 'L2' },
      { tenantId, name: 'L3' },
    ])
    .returning({ id: lists.id, name: lists.name });
  for (const l of made) listIds[l.name === 'L1' ? 'l1' : l.name === 'L2' ? 'l2' : 'l3'] = l.id;
  await db.insert(listMembers).values([
    { listId: listIds.l1, contactId: ids.alice },
    { listId: listIds.l1, contactId: ids.bob },
    { listId: listIds.l2, contactId: ids.wally },
  ]);
});
after(() => gw.close());
const context = () => ({ attributes, contracts: [], unwatched: 'refuse' as const });

const group = (rules: SegmentGroup['rules'], combinator: 'and' | 'or' = 'and', not?: boolean): SegmentGroup => ({
  combinator,
  rules,
  ...(not === undefined ? {} : { not }),
});
const rule = (field: string, operator: string, value?: SegmentRule['value']): SegmentRule => ({
  id: `r-${field}-${operator}`,
  field,
  operator,
  ...(value === undefined ? {} : { value }),
});
const only = (r: SegmentRule) => group([r]);
const except = (...out: Name[]) => ALL.filter((n) => !out.includes(n));

async function matching(rule: SegmentGroup): Promise<string[]> {
  const rows = await gw.handle.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(segmentWhere(tenantId, rule, context()));
  return rows.map((r) => names.get(r.id) ?? `other:${r.id}`).sort();
}

describe('segmentCondition: which contacts match', () => {
  const cases: [string, () => SegmentGroup, () => Name[]][] = [
    ['an empty group matches everyone', () => group([]), () => ALL],
    ['e-mail = (any case)', () => only(rule('email', '=', ' ALICE@Example.com ')), () => ['alice']],
    [
      'e-mail != also matches contacts without one',
      () => only(rule('email', '!=', 'alice@example.com')),
      () => except('alice'),
    ],
    ['e-mail contains', () => only(rule('email', 'contains', 'EXAMPLE')), () => ['alice', 'carol']],
    ['e-mail doesNotContain', () => only(rule('email', 'doesNotContain', 'example')), () => ['bob', 'dave', 'wally']],
    ['e-mail beginsWith (plus is literal)', () => only(rule('email', 'beginsWith', 'dave+')), () => ['dave']],
    ['e-mail endsWith', () => only(rule('email', 'endsWith', '.org')), () => ['bob']],
    ['e-mail null', () => only(rule('email', 'null')), () => ['wally']],
    ['e-mail notNull', () => only(rule('email', 'notNull')), () => except('wally')],
    ["first name null ('' is empty)", () => only(rule('first_name', 'null')), () => ['wally']],
    ['last name null', () => only(rule('last_name', 'null')), () => ['bob', 'wally']],
    ['last name notNull', () => only(rule('last_name', 'notNull')), () => ['alice', 'carol', 'dave']],
    ['last name with a quote', () => only(rule('last_name', '=', "o'brien")), () => ['dave']],
    ['wallet = (lower-case input)', () => only(rule('wallet', '=', W1.toLowerCase())), () => ['alice']],
    ['wallet != ', () => only(rule('wallet', '!=', W1)), () => except('alice')],
    ['wallet beginsWith without 0x', () => only(rule('wallet', 'beginsWith', '8617e3')), () => ['wally']],
    ['wallet beginsWith with 0x', () => only(rule('wallet', 'beginsWith', '0x5290')), () => ['alice']],
    ['wallet null', () => only(rule('wallet', 'null')), () => ['bob', 'carol', 'dave']],
    ['status =', () => only(rule('status', '=', 'subscribed')), () => ['alice', 'dave']],
    ['status !=', () => only(rule('status', '!=', 'subscribed')), () => ['bob', 'carol', 'wally']],
    ['status in', () => only(rule('status', 'in', ['bounced', 'complained'])), () => ['carol', 'wally']],
    ['status in as "a,b"', () => only(rule('status', 'in', 'bounced,complained')), () => ['carol', 'wally']],
    ['status notIn', () => only(rule('status', 'notIn', ['subscribed'])), () => ['bob', 'carol', 'wally']],
    ['source =', () => only(rule('source', '=', 'import')), () => ['alice', 'dave']],
    ['list in one', () => only(rule('list', 'in', [listIds.l1])), () => ['alice', 'bob']],
    ['list in any of two', () => only(rule('list', 'in', [listIds.l1, listIds.l2])), () => ['alice', 'bob', 'wally']],
    ['list notIn', () => only(rule('list', 'notIn', [listIds.l1])), () => ['carol', 'dave', 'wally']],
    ['list in an empty list', () => only(rule('list', 'in', [listIds.l3])), () => []],
    ['list in an unknown list', () => only(rule('list', 'in', [MISSING_LIST])), () => []],
    ['created before a day', () => only(rule('created_at', '<', '2024-01-11')), () => ['alice']],
    ['created after a day', () => only(rule('created_at', '>', '2024-01-10')), () => except('alice')],
    [
      'created between two days, inclusive',
      () => only(rule('created_at', 'between', ['2024-01-11', '2024-02-01'])),
      () => ['bob', 'wally'],
    ],
    [
      'created between, reversed',
      () => only(rule('created_at', 'between', ['2024-02-01', '2024-01-11'])),
      () => ['bob', 'wally'],
    ],
    ['created in the last 7 days', () => only(rule('created_at', 'lastDays', 7)), () => ['carol']],
    ['created in the last "60" days', () => only(rule('created_at', 'lastDays', '60')), () => ['carol', 'dave']],
    ['created null', () => only(rule('created_at', 'null')), () => []],
    ['updated notNull', () => only(rule('updated_at', 'notNull')), () => ALL],
    ['updated in the last day', () => only(rule('updated_at', 'lastDays', 1)), () => ALL],
    ['number >', () => only(rule('attr.score', '>', 20)), () => ['bob', 'dave']],
    ['number <= (string input)', () => only(rule('attr.score', '<=', '10')), () => ['alice']],
    ['number = decimal', () => only(rule('attr.score', '=', 25.5)), () => ['bob']],
    ['number != ', () => only(rule('attr.score', '!=', 10)), () => except('alice')],
    ['number between', () => only(rule('attr.score', 'between', [10, 30])), () => ['alice', 'bob']],
    [
      'number between, reversed strings',
      () => only(rule('attr.score', 'between', ['30', '5'])),
      () => ['alice', 'bob'],
    ],
    ['number null (bad stored value counts as none)', () => only(rule('attr.score', 'null')), () => ['carol', 'wally']],
    ['number notNull', () => only(rule('attr.score', 'notNull')), () => ['alice', 'bob', 'dave']],
    ['date attribute <', () => only(rule('attr.birthday', '<', '2000-01-01')), () => ['alice']],
    ['date attribute >', () => only(rule('attr.birthday', '>', '2000-01-01')), () => ['dave']],
    [
      'date attribute between',
      () => only(rule('attr.birthday', 'between', ['1990-05-01', '1990-05-01'])),
      () => ['alice'],
    ],
    ['date attribute in the last 7 days', () => only(rule('attr.birthday', 'lastDays', 7)), () => ['dave']],
    ['date attribute null', () => only(rule('attr.birthday', 'null')), () => ['bob', 'carol', 'wally']],
    ['boolean = true', () => only(rule('attr.vip', '=', true)), () => ['alice']],
    ['boolean = false', () => only(rule('attr.vip', '=', false)), () => ['bob']],
    ['boolean = "true"', () => only(rule('attr.vip', '=', 'true')), () => ['alice']],
    ['boolean null', () => only(rule('attr.vip', 'null')), () => ['carol', 'dave', 'wally']],
    ['boolean notNull', () => only(rule('attr.vip', 'notNull')), () => ['alice', 'bob']],
    ['text attribute contains % literally', () => only(rule('attr.nickname', 'contains', '100%')), () => ['alice']],
    ['text attribute contains _ literally', () => only(rule('attr.nickname', 'contains', '_')), () => ['alice']],
    ['text attribute beginsWith (any case)', () => only(rule('attr.nickname', 'beginsWith', 'BOB')), () => ['bob']],
    ['text attribute = ', () => only(rule('attr.nickname', '=', 'd')), () => ['dave']],
    ["text attribute null ('' is empty)", () => only(rule('attr.nickname', 'null')), () => ['carol', 'wally']],
    [
      'wallet attribute =',
      () => only(rule('attr.backup', '=', BACKUP.toUpperCase().replace('0X', '0x'))),
      () => ['alice'],
    ],
    ['wallet attribute null', () => only(rule('attr.backup', 'null')), () => except('alice')],
    [
      'or',
      () => group([rule('status', '=', 'bounced'), rule('email', 'endsWith', '.org')], 'or'),
      () => ['bob', 'wally'],
    ],
    [
      'and with a nested or',
      () =>
        group([
          rule('source', '=', 'import'),
          group([rule('attr.score', '>', 50), rule('first_name', '=', 'alice')], 'or'),
        ]),
      () => ['alice', 'dave'],
    ],
    ['not on a group', () => group([rule('status', '=', 'subscribed')], 'and', true), () => ['bob', 'carol', 'wally']],
    [
      'not on a group with a missing value inside (still the exact complement)',
      () => group([rule('attr.score', '>', 20)], 'and', true),
      () => ['alice', 'carol', 'wally'],
    ],
    [
      'an empty nested group in an or matches everyone',
      () => group([rule('email', 'null'), group([])], 'or'),
      () => ALL,
    ],
    ['not on an empty group matches no one', () => group([], 'and', true), () => []],
    ['a quote in a value is a value', () => only(rule('first_name', '=', "' or '1'='1")), () => []],
    ['SQL in a value is a value', () => only(rule('email', 'contains', "'; drop table contacts; --")), () => []],
  ];

  for (const [title, rule, expected] of cases) {
    it(title, async () => {
      assert.deepEqual(await matching(rule()), [...expected()].sort());
    });
  }

  it('a rule and its negation split the audience', async () => {
    const rules = [rule('attr.score', '>', 20), rule('email', 'contains', 'example'), rule('attr.vip', '=', true)];
    for (const r of rules) {
      const yes = await matching(group([r]));
      const no = await matching(group([r], 'and', true));
      assert.deepEqual([...yes, ...no].sort(), [...ALL].sort(), JSON.stringify(r));
    }
  });

  it('keeps every value and attribute id out of the SQL text', async () => {
    const evil = "x'); delete from contacts; --";
    const condition = segmentCondition(
      group([
        rule('email', 'contains', evil),
        rule('attr.score', '>', 5),
        rule('status', 'in', ['subscribed']),
        rule('list', 'in', [listIds.l1]),
        rule('created_at', '<', '2024-01-01'),
      ]),
      context(),
    );
    const query = new PgDialect().sqlToQuery(condition);
    assert.ok(!query.sql.includes('delete'), query.sql);
    assert.ok(!query.sql.includes(listIds.l1), query.sql);
    assert.ok(!query.sql.includes(attributes[0]?.id ?? '?'), query.sql);
    assert.ok(!query.sql.includes('subscribed'), query.sql);
    assert.ok(!query.sql.includes('2024'), query.sql);
    assert.ok(query.params.includes(`%${evil}%`));
    const [row] = await gw.handle.db.select({ n: sql<number>`count(*)::int` }).from(contacts);
    assert.ok((row?.n ?? 0) >= 6, 'contacts are still there');
  });
});

describe('segmentCondition: refused rules are a 400 with errors.rule', () => {
  const nested = (depth: number): SegmentGroup =>
    depth <= 1 ? group([rule('email', 'notNull')]) : group([nested(depth - 1)]);
  const cases: [string, () => SegmentGroup, RegExp][] = [
    ['an unknown field', () => only(rule('password', '=', 'x')), /"password" is not a field/],
    ['a column that is not a field', () => only(rule('tenant_id', '=', 'x')), /"tenant_id" is not a field/],
    ['an unknown attribute', () => only(rule('attr.nope', '=', 'x')), /"attr.nope" is not a field/],
    ['an attribute by id instead of key', () => only(rule(`attr.${attributes[0]?.id}`, '=', 1)), /is not a field/],
    ['an operator of another kind', () => only(rule('status', 'contains', 'sub')), /Status: the operator "contains"/],
    ['lastDays on text', () => only(rule('email', 'lastDays', 3)), /E-mail: the operator "lastDays"/],
    ['an unknown operator', () => only(rule('email', 'like', '%')), /E-mail: the operator "like"/],
    ['= on a list', () => only(rule('list', '=', MISSING_LIST)), /List membership: the operator "="/],
    ['contains on a number', () => only(rule('attr.score', 'contains', '1')), /Score: the operator "contains"/],
    ['a number for text', () => only(rule('email', 'contains', 5)), /E-mail contains: enter a text value/],
    ['an empty text', () => only(rule('first_name', '=', '  ')), /First name =: enter a value/],
    ['no value', () => only(rule('last_name', 'beginsWith')), /Last name beginsWith/],
    ['a status not in the list', () => only(rule('status', '=', 'active')), /Status =: "active" is not one of/],
    ['a status list with a stranger', () => only(rule('status', 'in', ['subscribed', 'x'])), /"x" is not one of/],
    ['an empty status list', () => only(rule('status', 'in', [])), /Status in: choose one or more/],
    ['an array for =', () => only(rule('source', '=', ['import'])), /Source =: choose a value/],
    [
      'a list id that is not a uuid',
      () => only(rule('list', 'in', ['abc'])),
      /List membership in: "abc" is not a list id/,
    ],
    ['a list id with SQL', () => only(rule('list', 'notIn', "1') or 1=1 --")), /is not a list id/],
    ['no lists', () => only(rule('list', 'in', [])), /choose one or more lists/],
    ['a word for a number', () => only(rule('attr.score', '>', 'ten')), /Score >: enter a number/],
    ['a boolean for a number', () => only(rule('attr.score', '>', true)), /Score >: enter a number/],
    ['one value for between', () => only(rule('attr.score', 'between', [1])), /Score between: enter two numbers/],
    [
      'three values for between',
      () => only(rule('created_at', 'between', ['2024-01-01', '2024-01-02', '2024-01-03'])),
      /enter two dates/,
    ],
    ['a month 13', () => only(rule('created_at', '<', '2024-13-01')), /Created <: enter a date as YYYY-MM-DD/],
    ['February 30', () => only(rule('attr.birthday', '>', '2024-02-30')), /Birthday >: enter a date/],
    ['a time in a date', () => only(rule('created_at', '>', '2024-01-01T00:00:00Z')), /enter a date/],
    ['lastDays 0', () => only(rule('created_at', 'lastDays', 0)), /Created lastDays: enter a whole number of days/],
    ['lastDays 1.5', () => only(rule('attr.birthday', 'lastDays', 1.5)), /enter a whole number of days/],
    ['a word for a boolean', () => only(rule('attr.vip', '=', 'yes')), /VIP =: choose true or false/],
    ['a short wallet', () => only(rule('wallet', '=', '0x1234')), /Wallet =: enter a wallet address/],
    ['a wallet prefix with a non-hex character', () => only(rule('wallet', 'beginsWith', '0xzz')), /Wallet beginsWith/],
    ['groups too deep', () => nested(MAX_SEGMENT_DEPTH + 1), new RegExp(`at most ${MAX_SEGMENT_DEPTH} levels deep`)],
    [
      'too many rules in total',
      () =>
        group([
          group(Array.from({ length: 30 }, () => rule('email', 'notNull'))),
          group(Array.from({ length: MAX_SEGMENT_RULES - 29 }, () => rule('email', 'notNull'))),
        ]),
      new RegExp(`at most ${MAX_SEGMENT_RULES} rules`),
    ],
  ];

  for (const [title, make, message] of cases) {
    it(title, () => {
      assert.throws(
        () => segmentCondition(make(), context()),
        (error: unknown) => {
          assert.ok(error instanceof HttpError);
          assert.equal(error.statusCode, 400);
          assert.equal(error.message, 'Check the segment rules.');
          const messages = error.errors?.rule ?? [];
          assert.ok(
            messages.some((m) => message.test(m)),
            `${JSON.stringify(messages)} should match ${message}`,
          );
          return true;
        },
      );
    });
  }

  it('names every bad rule at once', () => {
    assert.throws(
      () =>
        segmentCondition(
          group([rule('nope', '='), group([rule('status', '=', 'x')]), rule('email', 'notNull')]),
          context(),
        ),
      (error: unknown) => error instanceof HttpError && error.errors?.rule?.length === 2,
    );
  });

  it('accepts the deepest allowed nesting and the most rules allowed', () => {
    assert.doesNotThrow(() => segmentCondition(nested(MAX_SEGMENT_DEPTH), context()));
    const most = group([
      group(Array.from({ length: 25 }, () => rule('email', 'notNull'))),
      group(Array.from({ length: MAX_SEGMENT_RULES - 25 }, () => rule('email', 'notNull'))),
    ]);
    assert.doesNotThrow(() => segmentCondition(most, context()));
  });

  it('ignores rule and group ids', async () => {
    const withIds: SegmentGroup = {
      id: 'root',
      combinator: 'and',
      rules: [{ id: 'x', field: 'email', operator: 'null' }],
    };
    assert.deepEqual(await matching(withIds), ['wally']);
  });
});
