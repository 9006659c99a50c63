import { valueCountText } from './value-count-text';

it.each([
  [12345, '12,345 contacts have a value for this attribute. Deleting it removes those values.'],
  [2, '2 contacts have a value for this attribute. Deleting it removes those values.'],
  [1, '1 contact has a value for this attribute. Deleting it removes that value.'],
  [0, 'No contacts have a value for this attribute.'],
  [undefined, 'Deleting it removes the values contacts hold for it.'],
])('%p -> %p', (count, text) => {
  expect(valueCountText(count)).toBe(text);
});
