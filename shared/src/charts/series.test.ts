import { shares, tableRows, timeAxisRange } from './series';

test('one point is centred in a range of at least minSpan', () => {
  expect(timeAxisRange([1_800_000_000], 1800)).toEqual([1_800_000_000 - 900, 1_800_000_000 + 900]);
});

test('points closer than minSpan are widened evenly; wider spans stay as they are', () => {
  expect(timeAxisRange([1000, 1600], 1800)).toEqual([400, 2200]);
  expect(timeAxisRange([1000, 5000, 9000], 1800)).toEqual([1000, 9000]);
});

test('no points: no range', () => {
  expect(timeAxisRange([], 1800)).toBeNull();
});

test('the table alternative and bar shares', () => {
  expect(tableRows(['a', 'b'], [{ label: 'S', values: [1], color: '#000' }])).toEqual([
    { label: 'a', values: [1] },
    { label: 'b', values: [0] },
  ]);
  expect(shares([0, 5, 10, -1])).toEqual([0, 0.5, 1, 0]);
});
