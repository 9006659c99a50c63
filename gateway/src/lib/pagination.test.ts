import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { likePattern, paginate, pageWindow } from './pagination';

describe('paginate', () => {
  const cases: [page: number, perPage: number, count: number, expected: ReturnType<typeof paginate>][] = [
    [1, 10, 0, { starting: 0, ending: 0, count: 0, previous: null, next: null }],
    [1, 10, 5, { starting: 1, ending: 5, count: 5, previous: null, next: null }],
    [1, 10, 10, { starting: 1, ending: 10, count: 10, previous: null, next: null }],
    [1, 10, 11, { starting: 1, ending: 10, count: 11, previous: null, next: 2 }],
    [2, 10, 11, { starting: 11, ending: 11, count: 11, previous: 1, next: null }],
    [2, 10, 35, { starting: 11, ending: 20, count: 35, previous: 1, next: 3 }],
    [4, 10, 35, { starting: 31, ending: 35, count: 35, previous: 3, next: null }],
    [9, 10, 35, { starting: 0, ending: 0, count: 35, previous: 4, next: null }],
    [3, 1000, 2500, { starting: 2001, ending: 2500, count: 2500, previous: 2, next: null }],
    [2, 10, 0, { starting: 0, ending: 0, count: 0, previous: 1, next: null }],
  ];
  for (const [page, perPage, count, expected] of cases) {
    it(`page ${page} of ${count} rows by ${perPage}`, () => {
      assert.deepEqual(paginate(page, perPage, count), expected);
    });
  }

  it('pageWindow gives offset and limit', () => {
    assert.deepEqual(pageWindow(1, 10), { offset: 0, limit: 10 });
    assert.deepEqual(pageWindow(3, 25), { offset: 50, limit: 25 });
  });

  it('likePattern escapes wildcards', () => {
    assert.equal(likePattern('50%_off\\'), '%50\\%\\_off\\\\%');
  });
});
