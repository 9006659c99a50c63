import {
  isUnsafeAttribute,
  sanitizeMarkup,
  sanitizeParsedNode,
  sanitizeProject,
  type ParsedNodeLike,
} from './canvas-safety';

test.each([
  ['onerror', 'alert(1)', true],
  ['ONCLICK', 'alert(1)', true],
  ['onmouseover', '', true],
  ['srcdoc', '<script>alert(1)</script>', true],
  ['href', 'javascript:alert(1)', true],
  ['href', ' JavaScript:alert(1)', true],
  ['href', 'java\tscript:alert(1)', true],
  ['href', 'java\nscript:alert(1)', true],
  ['src', 'vbscript:msgbox(1)', true],
  ['src', 'data:text/html,<script>alert(1)</script>', true],
  ['src', 'DATA:TEXT/HTML;base64,PHNjcmlwdD4=', true],
  ['action', 'javascript:alert(1)', true],
  ['http-equiv', 'refresh', true],
  ['href', 'https://example.com/?q=javascript:', false],
  ['href', '{{ unsubscribe_url }}', false],
  ['src', 'data:image/png;base64,iVBORw0KGgo=', false],
  ['src', 'data:image/svg+xml,%3Csvg%3E', false],
  ['href', 'mailto:hello@example.com', false],
  ['css-class', 'dm-text', false],
  ['font-family', "'Segoe UI', Arial", false],
])('isUnsafeAttribute(%j, %j) is %j', (name, value, unsafe) => {
  expect(isUnsafeAttribute(name, value)).toBe(unsafe);
});

test('markup loses handlers, script URLs and script elements, and keeps the rest', () => {
  const out = sanitizeMarkup(
    '<p onclick="alert(1)">Hi <img src="x" onerror="alert(2)" alt="x"><a href="javascript:alert(3)">go</a>' +
      '<a href="https://example.com">ok</a><iframe src="javascript:alert(4)"></iframe><script>alert(5)</script></p>',
  );
  expect(out).toBe('<p>Hi <img src="x" alt="x"><a>go</a><a href="https://example.com">ok</a><iframe></iframe></p>');
});

test("the parser's tree loses handlers, script URLs and scripts before components are made", () => {
  const root: ParsedNodeLike = {
    childNodes: [
      {
        tagName: 'mj-button',
        attributes: { href: ' javascript:alert(1)', 'background-color': '#000' },
        childNodes: [{ tagName: 'img', attributes: { src: 'x', onerror: 'alert(1)' } }],
      },
      { tagName: 'script', childNodes: [] },
      { tagName: 'iframe', attributes: { src: 'data:text/html,<b>x</b>' } },
    ],
  };
  sanitizeParsedNode(root);
  expect(root).toEqual({
    childNodes: [
      {
        tagName: 'mj-button',
        attributes: { 'background-color': '#000' },
        childNodes: [{ tagName: 'img', attributes: { src: 'x' } }],
      },
      { tagName: 'iframe', attributes: {} },
    ],
  });
});

test('project data loses them too: attributes, content set as HTML, components given as HTML', () => {
  const project = {
    assets: [],
    styles: [{ selectors: ['#a'], style: { content: '"<b>"' } }],
    pages: [
      {
        frames: [
          {
            component: {
              type: 'wrapper',
              components: [
                { tagName: 'img', attributes: { src: 'x', onerror: 'alert(1)' } },
                { tagName: 'a', attributes: { href: 'javascript:alert(1)', title: 'A' }, content: 'go' },
                { tagName: 'div', content: '<img src="x" onerror="alert(2)">' },
                { tagName: 'div', components: '<a href="vbscript:x" onclick="y()">z</a>' },
                { type: 'textnode', content: '<not markup>' },
                { tagName: 'script', content: 'alert(3)' },
              ],
            },
          },
        ],
      },
    ],
  };
  const safe = sanitizeProject(project);
  expect(JSON.stringify(safe)).not.toMatch(/onerror|onclick|javascript:|vbscript:|alert\(3\)/);
  const components = (safe.pages as { frames: { component: { components: unknown[] } }[] }[])[0]!.frames[0]!.component
    .components;
  expect(components).toEqual([
    { tagName: 'img', attributes: { src: 'x' } },
    { tagName: 'a', attributes: { title: 'A' }, content: 'go' },
    { tagName: 'div', content: '<img src="x">' },
    { tagName: 'div', components: '<a>z</a>' },
    { type: 'textnode', content: '<not markup>' },
  ]);
  expect(safe.styles).toBe(project.styles);
  expect(project.pages[0]!.frames[0]!.component.components[0]).toEqual({
    tagName: 'img',
    attributes: { src: 'x', onerror: 'alert(1)' },
  });
});
