import { previewTable, readCsvPreview } from './read-csv-preview';

describe('previewTable', () => {
  it.each([
    [
      'header row',
      [
        ['Email', 'Name'],
        ['a@b.example', 'Ann'],
      ],
      true,
      { headers: ['Email', 'Name'], rows: [['a@b.example', 'Ann']] },
    ],
    [
      'no header row',
      [
        ['a@b.example', 'Ann'],
        ['c@d.example', 'Cy'],
      ],
      false,
      {
        headers: ['Column 1', 'Column 2'],
        rows: [
          ['a@b.example', 'Ann'],
          ['c@d.example', 'Cy'],
        ],
      },
    ],
    [
      'ragged rows and blank headers',
      [['Email', ' '], ['x'], ['y', 'z', 'extra']],
      true,
      {
        headers: ['Email', 'Column 2', 'Column 3'],
        rows: [
          ['x', '', ''],
          ['y', 'z', 'extra'],
        ],
      },
    ],
    ['nothing', [], true, { headers: [], rows: [] }],
  ])('%s', (_name, raw, hasHeader, expected) => {
    expect(previewTable(raw, hasHeader)).toEqual(expected);
  });
});

describe('readCsvPreview', () => {
  it('reads the header and five rows', async () => {
    const lines = ['email,name', ...Array.from({ length: 20 }, (_, i) => `u${i}@x.example,User ${i}`)];
    const rows = await readCsvPreview(new File([lines.join('\n')], 'a.csv', { type: 'text/csv' }));
    expect(rows).toHaveLength(6);
    expect(rows[0]).toEqual(['email', 'name']);
    expect(rows[5]).toEqual(['u4@x.example', 'User 4']);
  });

  it('handles quotes and a BOM', async () => {
    const rows = await readCsvPreview(
      new File(['\ufeffemail,"Last, name"\r\na@b.example,"O\'Hara, ""K"""\r\n'], 'b.csv'),
    );
    expect(rows).toEqual([
      ['email', 'Last, name'],
      ['a@b.example', 'O\'Hara, "K"'],
    ]);
  });

  it('gives no rows for an empty file', async () => {
    expect(await readCsvPreview(new File([''], 'empty.csv'))).toEqual([]);
    expect(await readCsvPreview(new File(['\n\n  \n'], 'blank.csv'))).toEqual([]);
  });
});
