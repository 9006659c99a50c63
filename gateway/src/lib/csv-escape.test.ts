import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportFileName, exportHeader, exportRow } from '../audience/contacts/contact-export';
import type { ContactRow } from '../db/schema';
import { CSV_BOM, csvCell, csvLine } from './csv';

describe('csvCell: RFC 4180 quoting and formula defusing', () => {
  const cases: [input: string | number | boolean | null | undefined, expected: string][] = [
    ['plain', 'plain'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    [true, 'true'],
    // Spreadsheet formulas and their lookalikes get a leading quote.
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1 555 0100', "'+1 555 0100"],
    // A plain number runs nothing and must read back as itself.
    ['-2', '-2'],
    [-2, '-2'],
    ['-2.5', '-2.5'],
    ['+3', '+3'],
    ['-1e3', '-1e3'],
    ['-2+3', "'-2+3"],
    ['-A1', "'-A1"],
    ['- 2', "'- 2"],
    ['@cmd', "'@cmd"],
    ['\tindent', "'\tindent"],
    ['\rreturn', `"'\rreturn"`],
    // The payload of the OWASP example: defused, then quoted (it has quotes and a comma).
    ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
    // Only the start counts.
    ['a=b', 'a=b'],
    ['x-1', 'x-1'],
    [' =1', ' =1'],
    // Quoting.
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ['Zoë; Łukasz', 'Zoë; Łukasz'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input) ?? 'undefined', () => assert.equal(csvCell(input), expected));
  }

  it('csvLine joins cells with commas and ends with CRLF', () => {
    assert.equal(csvLine(['a', null, '=1', 'b,c']), `a,,'=1,"b,c"\r\n`);
  });
});

describe('contact export rows', () => {
  const attributes = [
    { id: 'a1', key: 'tier' },
    { id: 'a2', key: 'score' },
    { id: 'a3', key: 'vip' },
  ];
  const row: ContactRow = {
    id: '00000000-0000-4000-8000-000000000001',
    tenantId: '00000000-0000-4000-8000-000000000002',
    email: 'ada@example.com',
    wallet: null,
    firstName: '=cmd|" /C calc"!A0',
    lastName: 'Lovelace, Countess',
    status: 'subscribed',
    source: 'manual',
    attributes: { a1: '@gold', a2: -5, a3: true, gone: 'inert' },
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
    updatedAt: new Date('2026-01-03T00:00:00.000Z'),
  };

  it('has the base columns, then one per attribute key', () => {
    assert.equal(
      exportHeader(attributes),
      'email,wallet,first_name,last_name,status,source,created_at,updated_at,lists,tier,score,vip\r\n',
    );
  });

  it('escapes every cell, sorts list names and skips values of deleted attributes', () => {
    assert.equal(
      exportRow(row, ['VIP', '-Negative', 'Alpha'], attributes),
      [
        'ada@example.com',
        '',
        `"'=cmd|"" /C calc""!A0"`,
        '"Lovelace, Countess"',
        'subscribed',
        'manual',
        '2026-01-02T03:04:05.678Z',
        '2026-01-03T00:00:00.000Z',
        "'-Negative; Alpha; VIP",
        "'@gold",
        '-5',
        'true',
      ].join(',') + '\r\n',
    );
  });

  it('leaves cells of attributes without a value empty', () => {
    assert.ok(exportRow({ ...row, attributes: {} }, [], attributes).endsWith(',,,,\r\n'));
  });

  it('names the file after the day', () => {
    assert.equal(exportFileName(new Date('2026-05-01T23:59:00Z')), 'contacts-2026-05-01.csv');
  });

  it('starts files with a UTF-8 BOM', () => assert.equal(CSV_BOM, '\uFEFF'));
});
