import type { Contact, ContactFilter } from '@console/shared/contracts';
import { COLUMNS_STORAGE_KEY, parseVisibleColumns } from './column-visibility';
import { filterKey, filterSearchParams, filtersFromSearchParams, hasFilters, toContactFilter } from './contact-filter';
import { contactLabel, listNames, listSummary, pluralContacts, shortenWallet } from './contact-format';
import { attributeValue, contactToForm, emptyContactForm, formToInput, sortFieldErrors } from './contact-form';
import {
  NO_SELECTION,
  checkedOnPage,
  offersSelectAll,
  selectedCount,
  toContactSelection,
  togglePage,
  toggleRow,
  type GridSelection,
} from './contact-selection';

const WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('contact format', () => {
  it.each([
    [WALLET, '0x5290…9EE7'],
    ['0x1234', '0x1234'],
  ])('shortenWallet(%s) = %s', (wallet, short) => {
    expect(shortenWallet(wallet)).toBe(short);
  });

  it.each([
    [{ email: 'a@b.test', wallet: WALLET, first_name: 'A', last_name: 'B' }, 'a@b.test'],
    [{ email: null, wallet: WALLET, first_name: 'A', last_name: 'B' }, WALLET],
    [{ email: null, wallet: null, first_name: 'Ada', last_name: '' }, 'Ada'],
    [{ email: null, wallet: null, first_name: '', last_name: '' }, 'c1'],
  ])('contactLabel %#', (fields, label) => {
    expect(contactLabel({ _id: 'c1', ...fields })).toBe(label);
  });

  it.each([
    [1, '1 contact'],
    [2, '2 contacts'],
    [1234, '1,234 contacts'],
  ])('pluralContacts(%d)', (count, text) => {
    expect(pluralContacts(count)).toBe(text);
  });

  it('names lists by id, skipping unknown ids, and summarises past two', () => {
    const names = new Map([
      ['l1', 'VIP'],
      ['l2', 'Newsletter'],
      ['l3', 'Whales'],
    ]);
    expect(listNames(['l2', 'zz', 'l1'], names)).toEqual(['Newsletter', 'VIP']);
    expect(listSummary([])).toBe('');
    expect(listSummary(['A', 'B'])).toBe('A, B');
    expect(listSummary(['A', 'B', 'C', 'D'])).toBe('A, B +2');
  });
});

describe('contact filter', () => {
  it.each([
    ['?listId=l1&segmentId=s_1&status=bounced', { listId: 'l1', segmentId: 's_1', status: 'bounced' }],
    ['?status=vip', {}],
    ['?listId=a%20b&segmentId=', {}],
    ['?source=api&listId=%20l2%20', { listId: 'l2' }],
  ])('filtersFromSearchParams(%s)', (search, expected) => {
    expect(filtersFromSearchParams(new URLSearchParams(search))).toEqual(expected);
  });

  it.each<[string, Record<string, string>, string | undefined, ContactFilter]>([
    ['only the search', {}, undefined, { searchString: 'ada' }],
    [
      'every known filter',
      { listId: 'l1', status: 'subscribed', source: 'api', attribute: 'tier', attributeValue: 'gold', segmentId: 's1' },
      undefined,
      {
        searchString: 'ada',
        listId: 'l1',
        status: 'subscribed',
        source: 'api',
        attribute: 'tier',
        attributeValue: 'gold',
        segmentId: 's1',
      },
    ],
    ['unknown status and source are dropped', { status: 'vip', source: 'fax' }, undefined, { searchString: 'ada' }],
    ['a value without an attribute is dropped', { attributeValue: 'gold' }, undefined, { searchString: 'ada' }],
    ['a fixed list wins', { listId: 'l1' }, 'l9', { searchString: 'ada', listId: 'l9' }],
  ])('toContactFilter: %s', (_name, filters, fixed, expected) => {
    expect(toContactFilter('ada', filters, fixed)).toEqual(expected);
  });

  it('sends only non-empty values and keys filters independent of order', () => {
    expect(filterSearchParams({ searchString: '', status: 'bounced' })).toEqual({ status: 'bounced' });
    expect(filterKey({ searchString: 'a', status: 'bounced', listId: 'l' })).toBe(
      filterKey({ listId: 'l', status: 'bounced', searchString: 'a' }),
    );
    expect(filterKey({ searchString: 'a' })).not.toBe(filterKey({ searchString: 'b' }));
  });

  it('hasFilters ignores empty values and unknown keys', () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ status: '', other: 'x' })).toBe(false);
    expect(hasFilters({ source: 'api' })).toBe(true);
  });
});

describe('contact selection', () => {
  const page = ['a', 'b', 'c'];
  const ids = (...list: string[]): GridSelection => ({ kind: 'ids', ids: new Set(list) });
  const filter: ContactFilter = { searchString: 'x', status: 'subscribed' };

  it.each<[string, GridSelection, GridSelection]>([
    ['adds a row', NO_SELECTION, ids('b')],
    ['removes a row', ids('b', 'z'), ids('z')],
    ['leaves "all that match" for the page minus the row', { kind: 'filter' }, ids('a', 'c')],
  ])('toggleRow: %s', (_name, before, after) => {
    expect(toggleRow(before, 'b', page)).toEqual(after);
  });

  it.each<[string, GridSelection, boolean, GridSelection]>([
    ['checks the page, keeping other pages', ids('z'), true, ids('z', 'a', 'b', 'c')],
    ['unchecks only the page', ids('z', 'a', 'b'), false, ids('z')],
    ['unchecking ends "all that match"', { kind: 'filter' }, false, NO_SELECTION],
    ['checking keeps "all that match"', { kind: 'filter' }, true, { kind: 'filter' }],
  ])('togglePage: %s', (_name, before, checked, after) => {
    expect(togglePage(before, page, checked)).toEqual(after);
  });

  it('counts, checks and offers "all that match"', () => {
    expect(selectedCount(ids('a', 'z'), 42)).toBe(2);
    expect(selectedCount({ kind: 'filter' }, 42)).toBe(42);
    expect([...checkedOnPage(ids('a', 'z'), page)]).toEqual(['a']);
    expect([...checkedOnPage({ kind: 'filter' }, page)]).toEqual(page);
    expect(offersSelectAll(ids('a', 'b', 'c'), page, 42)).toBe(true);
    expect(offersSelectAll(ids('a', 'b', 'c'), page, 3)).toBe(false);
    expect(offersSelectAll(ids('a', 'b'), page, 42)).toBe(false);
    expect(offersSelectAll({ kind: 'filter' }, page, 42)).toBe(false);
    expect(offersSelectAll(NO_SELECTION, [], 0)).toBe(false);
  });

  it('makes the wire selection', () => {
    expect(toContactSelection(NO_SELECTION, filter)).toBeNull();
    expect(toContactSelection(ids('a', 'b'), filter)).toEqual({ ids: ['a', 'b'] });
    expect(toContactSelection({ kind: 'filter' }, filter)).toEqual({ filter });
  });
});

describe('contact form', () => {
  const attributes = [
    { key: 'tier', name: 'Tier', type: 'text' as const },
    { key: 'score', name: 'Score', type: 'number' as const },
    { key: 'vip', name: 'VIP', type: 'boolean' as const },
    { key: 'joined', name: 'Joined', type: 'date' as const },
  ];

  it.each([
    ['text', ' gold ', 'gold'],
    ['text', '  ', null],
    ['number', '42.5', 42.5],
    ['number', '4x', '4x'],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['date', '2026-01-05', '2026-01-05'],
    ['wallet', WALLET, WALLET],
  ] as const)('attributeValue(%s, %p) = %p', (type, text, value) => {
    expect(attributeValue(type, text)).toBe(value);
  });

  it('a new contact sends trimmed fields, nulls for empty e-mail/wallet, only attributes with a value', () => {
    const values = {
      ...emptyContactForm(['l1']),
      email: ' ada@example.test ',
      first_name: ' Ada ',
      attributes: { tier: 'gold', score: '' },
    };
    expect(formToInput(values, attributes, 'create')).toEqual({
      email: 'ada@example.test',
      wallet: null,
      first_name: 'Ada',
      last_name: '',
      status: 'subscribed',
      lists: ['l1'],
      attributes: { tier: 'gold' },
    });
  });

  it('an edit sends every attribute (null clears one) and round-trips a contact', () => {
    const contact: Contact = {
      _id: 'c1',
      email: null,
      wallet: WALLET,
      first_name: 'Ada',
      last_name: 'L',
      status: 'bounced',
      source: 'api',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      lists: ['l2'],
      attributes: { score: 7, vip: true },
    };
    const form = contactToForm(contact);
    expect(form.attributes).toEqual({ score: '7', vip: 'true' });
    expect(formToInput(form, attributes, 'edit')).toEqual({
      email: null,
      wallet: WALLET,
      first_name: 'Ada',
      last_name: 'L',
      status: 'bounced',
      lists: ['l2'],
      attributes: { tier: null, score: 7, vip: true, joined: null },
    });
  });

  it('sorts server field errors into fields and form-level messages', () => {
    expect(
      sortFieldErrors(
        { email: 'Taken.', 'attributes.tier': 'Too long.', 'attributes.gone': 'Unknown attribute.', source: 'No.' },
        ['tier'],
      ),
    ).toEqual({ fields: { email: 'Taken.', 'attributes.tier': 'Too long.' }, other: ['Unknown attribute.', 'No.'] });
  });
});

describe('column visibility', () => {
  it.each([
    [null, []],
    ['not json', []],
    ['{"a":1}', []],
    ['["tier","tier",3,"score"]', ['tier', 'score']],
  ])('parseVisibleColumns(%p)', (raw, keys) => {
    expect(parseVisibleColumns(raw)).toEqual(keys);
  });

  it('stores under its own key', () => {
    expect(COLUMNS_STORAGE_KEY).toBe('contacts.columns');
  });
});
