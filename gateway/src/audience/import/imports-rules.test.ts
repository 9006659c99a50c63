// The importer's pure parts, table-driven: splitting a file into records, the column mapping,
// the row rules and the in-file duplicate set.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MAX_IMPORT_ROW_CHARS } from '../../contracts';
import { checkMapping, MAPPING_MESSAGES, planColumns, type MappableAttribute } from './import-mapping';
import { CsvRecordReader, type CsvRecord } from './import-reader';
import { isBlankRow, readRow, ROW_MESSAGES } from './import-rows';
import { SeenValues } from './import-seen';
import { detectFormat, looksBinary, looksEmpty } from './import-sniff';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

let fileNo = 0;
/** Every record of `content`, read `perRead` records at a time. */
async function records(content: string | Buffer, perRead = 2): Promise<Omit<CsvRecord, 'end'>[]> {
  const file = path.join(dir, `f${fileNo++}.csv`);
  fs.writeFileSync(file, content);
  const handle = await open(file);
  try {
    const head = Buffer.alloc(65536);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const reader = new CsvRecordReader(handle, detectFormat(head.subarray(0, bytesRead)));
    const out: CsvRecord[] = [];
    for (;;) {
      const got = await reader.read(perRead, Infinity);
      if (got.length === 0) break;
      out.push(...got);
    }
    // Offsets chain: each record starts where the previous one ended.
    assert.equal(out.at(-1)?.end ?? 0, out.length ? Buffer.byteLength(content) : 0);
    return out.map(({ line, text, problem }) => ({ line, text, problem }));
  } finally {
    await handle.close();
  }
}

const ok = (line: number, text: string) => ({ line, text, problem: null });

describe('splitting a file into records', () => {
  const cases: { name: string; content: string; expected: Omit<CsvRecord, 'end'>[] }[] = [
    {
      name: 'LF and CRLF line breaks, last line without one',
      content: 'email,name\na@x.io,Ann\r\nb@x.io,Bob',
      expected: [ok(1, 'email,name'), ok(2, 'a@x.io,Ann'), ok(3, 'b@x.io,Bob')],
    },
    {
      name: 'quoted values with line breaks, delimiters and doubled quotes',
      content: 'email,name\n"a@x.io","Ann\nMulti, line"\nb@x.io,"B ""q"" b"\n',
      expected: [ok(1, 'email,name'), ok(2, '"a@x.io","Ann\nMulti, line"'), ok(4, 'b@x.io,"B ""q"" b"')],
    },
    {
      name: 'a quote inside an unquoted value is text',
      content: 'a,b"c,d\ne,f\n',
      expected: [ok(1, 'a,b"c,d'), ok(2, 'e,f')],
    },
    {
      name: 'spaces between a closing quote and the delimiter',
      content: '"a@x.io" ,"Ann"  \nb,c\n',
      expected: [ok(1, '"a@x.io" ,"Ann"  '), ok(2, 'b,c')],
    },
    {
      name: 'an unclosed quote fails its first line only',
      content: 'email,name\na@x.io,"Ann\nb@x.io,Bob\nc@x.io,Carl\n',
      expected: [
        ok(1, 'email,name'),
        { line: 2, text: 'a@x.io,"Ann', problem: 'broken_quote' },
        ok(3, 'b@x.io,Bob'),
        ok(4, 'c@x.io,Carl'),
      ],
    },
    {
      name: 'text right after a closing quote',
      content: 'email,name\na@x.io,"Ann"x,y\nb@x.io,Bob\n',
      expected: [
        ok(1, 'email,name'),
        { line: 2, text: 'a@x.io,"Ann"x,y', problem: 'broken_quote' },
        ok(3, 'b@x.io,Bob'),
      ],
    },
    {
      name: 'a quote closed on a later line, wrongly',
      content: 'h\na@x.io,"Ann\nb@x.io,"Bob"z\nc@x.io,Carl\n',
      expected: [
        ok(1, 'h'),
        { line: 2, text: 'a@x.io,"Ann', problem: 'broken_quote' },
        { line: 3, text: 'b@x.io,"Bob"z', problem: 'broken_quote' },
        ok(4, 'c@x.io,Carl'),
      ],
    },
    {
      name: 'a UTF-8 BOM is dropped, blank lines are records',
      content: '\uFEFFemail;name\n\na@x.io;Ann\n',
      expected: [ok(1, 'email;name'), ok(2, ''), ok(3, 'a@x.io;Ann')],
    },
    {
      name: 'old Mac line breaks (CR)',
      content: 'email,name\ra@x.io,Ann\rb@x.io,Bob\r',
      expected: [ok(1, 'email,name'), ok(2, 'a@x.io,Ann'), ok(3, 'b@x.io,Bob')],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      assert.deepEqual(await records(c.content), c.expected);
      assert.deepEqual(await records(c.content, 1000), c.expected, 'same records whatever the read size');
    });
  }

  it('rows longer than the limit fail, a few KB of them kept, the rows after them are read', async () => {
    const long = 'x'.repeat(3_000_000);
    for (const content of [
      `h\na@x.io,Ann\n${long}\nb@x.io,Bob\n`,
      `h\na@x.io,Ann\nc@x.io,"${long}"\nb@x.io,Bob\n`,
      `h\na@x.io,Ann\nc@x.io,${'y'.repeat(MAX_IMPORT_ROW_CHARS)}\nb@x.io,Bob\n`,
    ]) {
      const got = await records(content);
      assert.deepEqual(
        got.map((r) => [r.line, r.problem]),
        [
          [1, null],
          [2, null],
          [3, 'too_long'],
          [4, null],
        ],
      );
      assert.equal(got[2]?.text.length, 1000);
      assert.equal(got[3]?.text, 'b@x.io,Bob');
    }
  });

  it('the limit counts characters, not bytes', async () => {
    const accents = 'é'.repeat(MAX_IMPORT_ROW_CHARS - 100);
    const got = await records(`h\na@x.io,${accents}\n`);
    assert.equal(got[1]?.problem, null);
    assert.equal(got[1]?.text.length, MAX_IMPORT_ROW_CHARS - 100 + 7);
  });

  it('a broken quote followed by a long stretch: the first line fails, the long line after it too', async () => {
    const got = await records(`h\nc@x.io,"abc\n${'x'.repeat(500_000)}\nb@x.io,Bob\n`);
    assert.deepEqual(got, [
      ok(1, 'h'),
      { line: 2, text: 'c@x.io,"abc', problem: 'broken_quote' },
      { line: 3, text: 'x'.repeat(1000), problem: 'too_long' },
      ok(4, 'b@x.io,Bob'),
    ]);
  });
});

describe('file sniffing', () => {
  it('binary files are told from text', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    assert.equal(looksBinary(png), true);
    assert.equal(looksBinary(Buffer.from('PK\x03\x04xl/workbook.xml')), true);
    assert.equal(looksBinary(Buffer.from('%PDF-1.7\n')), true);
    assert.equal(looksBinary(Buffer.from('email,name\n', 'utf16le')), true);
    assert.equal(looksBinary(Buffer.from('\0\0\0\x01\0\0\0\x02')), true);
    // A stray NUL in a cell fails its row, not the file.
    assert.equal(looksBinary(Buffer.from('email,name\na@b.test,An\0na\nc@d.test,Bo\n')), false);
    assert.equal(looksBinary(Buffer.from('email,name\nPK,x\n')), false);
    assert.equal(looksBinary(Buffer.from('\uFEFFemail,näme\n')), false);
  });

  it('empty files: nothing, a BOM, or white space only', () => {
    for (const text of ['', '\uFEFF', ' \r\n\t\n'])
      assert.equal(looksEmpty(Buffer.from(text), Buffer.byteLength(text)), true);
    assert.equal(looksEmpty(Buffer.from('a'), 1), false);
    assert.equal(looksEmpty(Buffer.from('   '), 100_000), false);
  });

  it('delimiters and line breaks are guessed', () => {
    const cases: [string, string, string][] = [
      ['email,name\na,b\nc,d\n', ',', '\n'],
      ['email;name\r\na;b\r\nc;d\r\n', ';', '\n'],
      ['email\tname\ra\tb\rc\td\r', '\t', '\r'],
      ['email|name\na|b\n', '|', '\n'],
      ['email\na@x.io\n', ',', '\n'],
      ['email#name\na#b\n', ',', '\n'],
    ];
    for (const [text, delimiter, newline] of cases) {
      assert.deepEqual(detectFormat(Buffer.from(text)), { delimiter, newline }, JSON.stringify(text));
    }
  });
});

const plan: MappableAttribute[] = [
  { id: 'id-plan', key: 'plan', name: 'Plan', type: 'text' },
  { id: 'id-score', key: 'score', name: 'Score', type: 'number' },
  { id: 'id-since', key: 'since', name: 'Since', type: 'date' },
];

describe('mappings', () => {
  const cases: { mapping: (string | null)[]; errors: string[] }[] = [
    { mapping: ['email', 'first_name', null], errors: [] },
    { mapping: [null, 'wallet', 'attr:score'], errors: [] },
    { mapping: ['first_name', 'last_name'], errors: [MAPPING_MESSAGES.identity] },
    { mapping: [null, null], errors: [MAPPING_MESSAGES.identity] },
    { mapping: ['email', 'phone'], errors: [MAPPING_MESSAGES.unknown(2, 'phone')] },
    { mapping: ['email', 'attr:nope'], errors: [MAPPING_MESSAGES.unknown(2, 'attr:nope')] },
    { mapping: ['email', 'email'], errors: [MAPPING_MESSAGES.twice('E-mail')] },
    {
      mapping: ['wallet', 'attr:plan', 'attr:plan', 'attr:plan'],
      errors: [MAPPING_MESSAGES.twice('The attribute "Plan"')],
    },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.mapping), () => assert.deepEqual(checkMapping(c.mapping, plan), c.errors));
  }

  it('plans columns; a mapped attribute deleted since is reported', () => {
    const planned = planColumns(['email', null, 'attr:score', 'status'], plan);
    assert.deepEqual(planned, {
      ok: true,
      plan: {
        email: 0,
        wallet: null,
        firstName: null,
        lastName: null,
        status: 3,
        attributes: [{ ...plan[1], column: 2 }],
      },
    });
    assert.deepEqual(planColumns(['email', 'attr:gone'], plan), { ok: false, missingKey: 'gone' });
  });
});

describe('row rules', () => {
  const planned = planColumns(
    ['email', 'wallet', 'first_name', 'last_name', 'status', 'attr:score', 'attr:since'],
    plan,
  );
  assert.ok(planned.ok);
  const columns = planned.plan;
  const wallet = '0x52908400098527886e0f7030069857d2e4169ee7';
  const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';

  const cases: { cells: string[]; result: ReturnType<typeof readRow> }[] = [
    {
      cells: [' Ann@Example.COM ', '', 'Ann', 'Lee', 'Active', '1,200', '2024-02-29'],
      result: {
        ok: true,
        values: {
          email: 'ann@example.com',
          wallet: null,
          firstName: 'Ann',
          lastName: 'Lee',
          status: 'subscribed',
          attributes: { 'id-score': 1200, 'id-since': '2024-02-29' },
        },
      },
    },
    {
      cells: ['', wallet],
      result: {
        ok: true,
        values: { email: null, wallet: checksummed, firstName: null, lastName: null, status: null, attributes: null },
      },
    },
    { cells: ['', '', 'Ann'], result: { ok: false, reason: ROW_MESSAGES.identity } },
    { cells: ['ann@', ''], result: { ok: false, reason: 'E-mail: Enter a valid e-mail address.' } },
    {
      cells: ['', '0x123'],
      result: { ok: false, reason: 'Wallet: Enter a wallet address: 0x followed by 40 hexadecimal characters.' },
    },
    {
      cells: ['a@x.io', '', '', '', 'maybe', 'lots', '2024-02-30'],
      result: {
        ok: false,
        reason:
          'Status: Use one of: subscribed, unsubscribed, bounced, complained. Score: Enter a number. Since: Enter a date as YYYY-MM-DD.',
      },
    },
    {
      cells: ['a@x.io', '', 'A'.repeat(101)],
      result: { ok: false, reason: 'First name: Use at most 100 characters.' },
    },
  ];
  for (const c of cases)
    it(JSON.stringify(c.cells).slice(0, 80), () => assert.deepEqual(readRow(c.cells, columns), c.result));

  it('blank rows', () => {
    assert.equal(isBlankRow(['', ' ', '']), true);
    assert.equal(isBlankRow(['', 'x']), false);
  });

  it('the length limit reads as the spec says', () => {
    assert.equal(ROW_MESSAGES.tooLong, 'This row is longer than 65,536 characters.');
    assert.equal(ROW_MESSAGES.duplicate(7), 'Duplicate of row 7 in this file.');
  });
});

describe('values already met in a file', () => {
  it('remembers the first row of each value, through growth', () => {
    const seen = new SeenValues(16);
    for (let i = 1; i <= 50_000; i++) assert.equal(seen.claim(`user${i}@example.com`, i + 1), i + 1);
    assert.equal(seen.count, 50_000);
    for (let i = 1; i <= 50_000; i += 997) assert.equal(seen.rowOf(`user${i}@example.com`), i + 1);
    assert.equal(seen.claim('user7@example.com', 99_999), 8);
    assert.equal(seen.rowOf('nobody@example.com'), 0);
    assert.equal(seen.count, 50_000);
  });
});
