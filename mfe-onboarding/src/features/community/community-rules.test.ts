import { ApiError } from '@console/shared/api';
import { communityErrorsOf, communityToForm, firstErrorField, formToTextInput } from './community-values';
import { addEntry, removeEntry, withOneEntry } from './what-you-get';
import { previewOf } from './image-state';

describe("'What you get' entries", () => {
  it.each([
    [[], ['']],
    [['a'], ['a']],
  ])('withOneEntry(%j) = %j', (items, expected) => expect(withOneEntry(items)).toEqual(expected));

  it('removing the last entry leaves one empty entry', () => {
    expect(removeEntry(['a'], 0)).toEqual(['']);
    expect(removeEntry(['a', 'b'], 0)).toEqual(['b']);
  });

  it('adds up to 20 entries', () => {
    expect(addEntry(['a'])).toEqual(['a', '']);
    const full = Array.from({ length: 20 }, () => 'x');
    expect(addEntry(full)).toHaveLength(20);
  });
});

describe('community values', () => {
  it('a new community starts empty with the tenant name and one entry', () => {
    expect(communityToForm(null, 'Acme')).toMatchObject({ title: 'Acme', what_you_get: [''], priority: 0 });
  });

  it('the text save drops empty entries and carries no image state or alias', () => {
    const input = formToTextInput({ ...communityToForm(null, 'Acme'), what_you_get: [' a ', '', '  '], slug: ' x ' });
    expect(input.what_you_get).toEqual(['a']);
    expect(input.slug).toBe('x');
    expect(input).not.toHaveProperty('logo');
    expect(input).not.toHaveProperty('background');
    expect(input).not.toHaveProperty('alias');
  });

  it('server errors: first per field, item keys to the list, the rest as the message', () => {
    const errors = communityErrorsOf(
      new ApiError(400, {
        message: 'Invalid.',
        errors: { 'what_you_get.1': ['Too long.'], background: ['Bad.'], other: ['Odd.'] },
      }),
    );
    expect(errors).toEqual({ fields: { what_you_get: 'Too long.', background: 'Bad.' }, message: 'Odd.' });
    expect(firstErrorField(errors)).toBe('what_you_get');
    expect(communityErrorsOf(new ApiError(500, { message: 'Boom.' }))).toEqual({ fields: {}, message: 'Boom.' });
  });

  it('image states: what the preview shows', () => {
    expect(previewOf({ kind: 'stored', url: 'u' })).toBe('u');
    expect(previewOf({ kind: 'cleared' })).toBeNull();
  });
});
