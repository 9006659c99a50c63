import { parseListForm, sortListErrors } from './list-form';

describe('list form', () => {
  it.each([
    [
      { name: ' VIP ', description: ' Big ones ' },
      { ok: true, input: { name: 'VIP', description: 'Big ones' } },
    ],
    [
      { name: '   ', description: '' },
      { ok: false, errors: { name: 'Enter a name.' } },
    ],
    [
      { name: 'x'.repeat(101), description: '' },
      { ok: false, errors: { name: 'Use at most 100 characters.' } },
    ],
  ])('parseListForm %#', (values, expected) => {
    expect(parseListForm(values)).toEqual(expected);
  });

  it('sorts server errors into name, description and the rest', () => {
    expect(sortListErrors({ name: 'Taken.', description: 'Long.', autoimport: 'No.' })).toEqual({
      fields: { name: 'Taken.', description: 'Long.' },
      other: ['No.'],
    });
  });
});
