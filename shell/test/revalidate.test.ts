import { revalidateOnPathChange } from '../src/router';

const url = (path: string) => new URL(path, 'http://console.test');

describe('revalidateOnPathChange', () => {
  it.each([
    ['/engagement/contacts', '/engagement/contacts?listId=l1', true, false],
    ['/engagement/contacts?listId=l1', '/engagement/contacts', true, false],
    ['/engagement/contacts', '/engagement/lists', true, true],
    ['/engagement/lists/a', '/engagement/lists/b', true, true],
    ['/engagement/contacts', '/engagement/lists', false, false],
  ])('%s -> %s (default %s) revalidates: %s', (from, to, byDefault, expected) => {
    expect(
      revalidateOnPathChange({ currentUrl: url(from), nextUrl: url(to), defaultShouldRevalidate: byDefault }),
    ).toBe(expected);
  });
});
