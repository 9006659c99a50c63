import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttributeType, ContactInput } from '../../contracts';
import {
  MESSAGES,
  normaliseEmail,
  normaliseStatus,
  normaliseWallet,
  parseAttributeValue,
  type FieldResult,
} from './contact-fields';
import { checkIdentity, parseContactInput, UNKNOWN_ATTRIBUTE } from './contact-input';
import { pagePlan, prefixPattern, sortMatches, SORT_MATCHES_UP_TO } from './contact-query';
import type { FieldErrors } from '../../errors';

const ok = <T>(value: T): FieldResult<T> => ({ ok: true, value });
const fail = (reason: string): FieldResult<never> => ({ ok: false, reason });

// A known EIP-55 vector (from the EIP).
const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('normaliseEmail', () => {
  const cases: [unknown, FieldResult<string | null>][] = [
    ['Ada@Example.COM', ok('ada@example.com')],
    ['  ada@example.com  ', ok('ada@example.com')],
    ['', ok(null)],
    [null, ok(null)],
    [undefined, ok(null)],
    ['ada@example', fail(MESSAGES.email)],
    ['ada example@x.com', fail(MESSAGES.email)],
    ['@example.com', fail(MESSAGES.email)],
    ['ada@@example.com', fail(MESSAGES.email)],
    [`${'a'.repeat(250)}@x.com`, fail(MESSAGES.email)],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)}`, () => {
      assert.deepEqual(normaliseEmail(input as string | null | undefined), expected);
    });
  }
});

describe('normaliseWallet', () => {
  const cases: [string | null, FieldResult<string | null>][] = [
    [CHECKSUMMED, ok(CHECKSUMMED)],
    [CHECKSUMMED.toLowerCase(), ok(CHECKSUMMED)],
    [`0x${CHECKSUMMED.slice(2).toUpperCase()}`, ok(CHECKSUMMED)],
    [` ${CHECKSUMMED} `, ok(CHECKSUMMED)],
    ['', ok(null)],
    [null, ok(null)],
    ['0x123', fail(MESSAGES.wallet)],
    [`${CHECKSUMMED}00`, fail(MESSAGES.wallet)],
    [`0x${'g'.repeat(40)}`, fail(MESSAGES.wallet)],
    // One letter's case flipped: mixed case that is not the checksum.
    ['0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed', fail(MESSAGES.walletChecksum)],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)}`, () => assert.deepEqual(normaliseWallet(input), expected));
  }
});

describe('normaliseStatus', () => {
  const cases: [string, FieldResult<string | null>][] = [
    ['subscribed', ok('subscribed')],
    [' Unsubscribed ', ok('unsubscribed')],
    ['active', ok('subscribed')],
    ['spam', ok('complained')],
    ['bounce', ok('bounced')],
    ['', ok(null)],
    ['maybe', fail(MESSAGES.status)],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)}`, () => assert.deepEqual(normaliseStatus(input), expected));
  }
});

describe('parseAttributeValue', () => {
  const cases: [AttributeType, unknown, FieldResult<unknown>][] = [
    ['text', ' gold ', ok('gold')],
    ['text', 12, ok('12')],
    ['text', true, ok('true')],
    ['text', 'x'.repeat(1001), fail(MESSAGES.text)],
    ['text', '', ok(null)],
    ['text', null, ok(null)],
    ['number', '1,234.5', ok(1234.5)],
    ['number', 7, ok(7)],
    ['number', '-3', ok(-3)],
    ['number', 'abc', fail(MESSAGES.number)],
    ['number', Number.POSITIVE_INFINITY, fail(MESSAGES.number)],
    ['number', true, fail(MESSAGES.number)],
    ['date', '2024-02-29', ok('2024-02-29')],
    ['date', '2023-02-29', fail(MESSAGES.date)],
    ['date', '2024-13-01', fail(MESSAGES.date)],
    ['date', '01/02/2024', fail(MESSAGES.date)],
    ['date', 20240101, fail(MESSAGES.date)],
    ['boolean', 'Yes', ok(true)],
    ['boolean', '0', ok(false)],
    ['boolean', false, ok(false)],
    ['boolean', 'perhaps', fail(MESSAGES.boolean)],
    ['wallet', CHECKSUMMED.toLowerCase(), ok(CHECKSUMMED)],
    ['wallet', '0x12', fail(MESSAGES.wallet)],
    ['wallet', 12, fail(MESSAGES.wallet)],
  ];
  for (const [type, raw, expected] of cases) {
    it(`${type} ${JSON.stringify(raw)?.slice(0, 30)}`, () =>
      assert.deepEqual(parseAttributeValue(type, raw), expected));
  }
});

describe('parseContactInput', () => {
  const attributes = [
    { id: 'a-tier', key: 'tier', type: 'text' as const },
    { id: 'a-score', key: 'score', type: 'number' as const },
  ];

  it('normalises the given fields and sorts attribute values into set and clear', () => {
    const input: ContactInput = {
      email: ' Ada@Example.com',
      wallet: CHECKSUMMED.toLowerCase(),
      first_name: ' Ada ',
      status: 'bounced',
      attributes: { tier: 'gold', score: null },
    };
    assert.deepEqual(parseContactInput(input, attributes), {
      values: {
        email: 'ada@example.com',
        wallet: CHECKSUMMED,
        firstName: 'Ada',
        status: 'bounced',
        setAttributes: { 'a-tier': 'gold' },
        clearAttributes: ['a-score'],
      },
      errors: {},
    });
  });

  it('gives field errors per field and per attribute key', () => {
    const { errors } = parseContactInput(
      { email: 'nope', wallet: '0x1', attributes: { score: 'many', nope: 1 } },
      attributes,
    );
    assert.deepEqual(errors, {
      email: [MESSAGES.email],
      wallet: [MESSAGES.wallet],
      'attributes.score': [MESSAGES.number],
      'attributes.nope': [UNKNOWN_ATTRIBUTE],
    });
  });

  it('leaves fields that were not given undefined (PATCH keeps them)', () => {
    assert.deepEqual(parseContactInput({}, attributes).values, { setAttributes: {}, clearAttributes: [] });
  });
});

describe('checkIdentity', () => {
  const both = { email: [MESSAGES.identity], wallet: [MESSAGES.identity] };
  const cases: [
    string,
    { email?: string | null; wallet?: string | null },
    { email: string | null; wallet: string | null } | null,
    FieldErrors,
  ][] = [
    ['create without either', {}, null, both],
    ['create with e-mail', { email: 'a@b.co' }, null, {}],
    ['create with wallet only', { wallet: CHECKSUMMED }, null, {}],
    ['create with both null', { email: null, wallet: null }, null, both],
    ['edit clearing the e-mail, wallet kept', { email: null }, { email: 'a@b.co', wallet: CHECKSUMMED }, {}],
    ['edit clearing the only e-mail', { email: null }, { email: 'a@b.co', wallet: null }, both],
    ['edit clearing both', { email: null, wallet: null }, { email: 'a@b.co', wallet: CHECKSUMMED }, both],
    ['edit touching neither', {}, { email: 'a@b.co', wallet: null }, {}],
  ];
  for (const [name, values, current, expected] of cases) {
    it(name, () => {
      const errors: FieldErrors = {};
      checkIdentity(values, current, errors);
      assert.deepEqual(errors, expected);
    });
  }

  it('does not add the identity message over a format error', () => {
    const errors: FieldErrors = { email: [MESSAGES.email] };
    checkIdentity({}, null, errors);
    assert.deepEqual(errors, { email: [MESSAGES.email] });
  });
});

describe('contact query rules', () => {
  const plans: [offset: number, limit: number, total: number, expected: ReturnType<typeof pagePlan>][] = [
    [0, 10, 0, { reverse: false, offset: 0, limit: 0 }],
    [0, 10, 25, { reverse: false, offset: 0, limit: 10 }],
    [10, 10, 25, { reverse: false, offset: 10, limit: 10 }],
    // Past the middle: read from the end, in reverse.
    [20, 10, 25, { reverse: true, offset: 0, limit: 5 }],
    [30, 10, 25, { reverse: true, offset: 0, limit: 0 }],
    [500_000, 50, 1_000_000, { reverse: false, offset: 500_000, limit: 50 }],
    [500_050, 50, 1_000_000, { reverse: true, offset: 499_900, limit: 50 }],
    [999_950, 50, 1_000_000, { reverse: true, offset: 0, limit: 50 }],
    [999_990, 50, 1_000_000, { reverse: true, offset: 0, limit: 10 }],
  ];
  for (const [offset, limit, total, expected] of plans) {
    it(`pagePlan(${offset}, ${limit}, ${total})`, () => assert.deepEqual(pagePlan(offset, limit, total), expected));
  }

  it('prefixPattern escapes LIKE wildcards and matches from the start', () => {
    assert.equal(prefixPattern('ada'), 'ada%');
    assert.equal(prefixPattern('50%_off\\'), '50\\%\\_off\\\\%');
  });

  const sorts: [count: number, searching: boolean, field: 'created_at' | 'email' | 'last_name', expected: boolean][] = [
    [SORT_MATCHES_UP_TO, false, 'created_at', true],
    [SORT_MATCHES_UP_TO + 1, false, 'created_at', false],
    [SORT_MATCHES_UP_TO + 1, true, 'created_at', false],
    [SORT_MATCHES_UP_TO + 1, true, 'email', true],
    [SORT_MATCHES_UP_TO + 1, true, 'last_name', true],
    [1_000_000, false, 'email', false],
  ];
  for (const [count, searching, field, expected] of sorts) {
    it(`sortMatches(${count}, ${searching}, ${field}) = ${expected}`, () => {
      assert.equal(sortMatches(count, searching, field), expected);
    });
  }
});
