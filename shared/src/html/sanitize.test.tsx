import { render } from '@testing-library/react';
import { isSafeLink, sanitizeHtml } from './sanitize';
import { SafeHtml } from './safe-html';

describe('sanitizeHtml', () => {
  it('keeps the allowed formatting', () => {
    const html =
      '<p>Hello <strong>big</strong> <em>world</em> <b>b</b> <i>i</i> <u>u</u> <code>x</code><br></p><ul><li>one</li></ul><ol><li>two</li></ol><span>s</span>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('removes <script> elements and their content', () => {
    const out = sanitizeHtml('<p>ok</p><script>window.__pwned = 1</script>');
    expect(out).toBe('<p>ok</p>');
    expect(out).not.toMatch(/script|pwned/i);
  });

  it('removes event handler attributes such as onerror= and onclick=', () => {
    const out = sanitizeHtml('<img src=x onerror="window.__pwned=1"><p onclick="alert(1)">hi</p>');
    expect(out).not.toMatch(/onerror|onclick|pwned|<img/i);
    expect(out).toBe('<p>hi</p>');
  });

  it('drops javascript:, data: and vbscript: hrefs', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
    ]) {
      const out = sanitizeHtml(`<a href="${href}">x</a>`);
      expect(out).toBe('<a>x</a>');
    }
  });

  it('keeps http, https and mailto links and opens them safely in a new tab', () => {
    const container = document.createElement('div');
    container.innerHTML = sanitizeHtml(
      '<a href="https://example.com/a">a</a><a href="http://example.com">b</a><a href="mailto:cs@example.com">c</a>',
    );
    const links = Array.from(container.querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/a',
      'http://example.com',
      'mailto:cs@example.com',
    ]);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('drops relative hrefs and href on anything but <a>', () => {
    expect(sanitizeHtml('<a href="/advertising">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<span href="https://example.com">x</span>')).toBe('<span>x</span>');
  });

  it('removes style, iframe, img, form and object elements, style/class/data-/aria- attributes', () => {
    const out = sanitizeHtml(
      '<style>p{}</style><iframe src="https://evil.test"></iframe><img src="javascript:alert(1)"><form><input></form><object data="x"></object>' +
        '<p style="color:red" class="x" data-x="1" aria-label="y" id="z" title="t">text</p>',
    );
    expect(out).toBe('<p>text</p>');
  });

  it('keeps the text of elements that are not allowed', () => {
    expect(sanitizeHtml('<div><h1>Title</h1> body</div>')).toBe('Title body');
  });

  it('handles empty input', () => {
    expect(sanitizeHtml('')).toBe('');
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml(undefined)).toBe('');
  });

  it('does not change the global DOMPurify configuration (private instance)', async () => {
    const { default: DOMPurify } = await import('dompurify');
    sanitizeHtml('<a href="https://example.com">x</a>');
    expect(DOMPurify.sanitize('<a href="https://example.com">x</a>')).toBe('<a href="https://example.com">x</a>');
  });
});

describe('isSafeLink', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com', true],
    ['mailto:a@b.c', true],
    ['javascript:alert(1)', false],
    ['/relative', false],
    ['ftp://example.com', false],
    ['', false],
  ])('%s -> %s', (href, safe) => {
    expect(isSafeLink(href)).toBe(safe);
  });
});

describe('<SafeHtml>', () => {
  it('renders the sanitised HTML', () => {
    const { container } = render(
      <SafeHtml html={'<p>Hi <strong>there</strong><script>window.__pwned=1</script></p>'} data-testid="body" />,
    );
    expect(container.innerHTML).toBe('<div data-testid="body"><p>Hi <strong>there</strong></p></div>');
  });
});
