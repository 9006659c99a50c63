import { expandSelfClosing } from './mjml-source';
import { HEAD_PART_TYPE, INERT, hasBlockHead, headPartMjml, headPartOf } from './head-parts';

const HEAD = `<mj-head>
    <mj-raw>
      <meta name="color-scheme" content="light dark">
    </mj-raw>
    <mj-attributes>
      <mj-all font-family="-apple-system, 'Segoe UI', Arial" />
      <mj-button background-color="#6b04fd" color="#ffffff" border-radius="8px" />
      <mj-section background-color="#ffffff" css-class="dm-card" />
      <mj-class name="muted" color="#5b6275" />
    </mj-attributes>
    <mj-title>Newsletter</mj-title>
    <mj-style>.dm-text a { color: #6b04fd; }</mj-style>
  </mj-head>`;

/** The head parsed as the editor parses a template (HTML, self-closed elements written out). */
function parsedHead(head = HEAD): Element {
  const doc = new DOMParser().parseFromString(
    `<mjml>${expandSelfClosing(head)}<mj-body></mj-body></mjml>`,
    'text/html',
  );
  return doc.querySelector('mj-head')!;
}

test('mj-attributes is one inert component that keeps its MJML: no child blocks', () => {
  const attributes = parsedHead().querySelector('mj-attributes')!;
  const part = headPartOf(attributes);
  expect(part).not.toBe(false);
  if (!part) return;
  expect(part.type).toBe(HEAD_PART_TYPE);
  expect(part.components).toEqual([]);
  // Saved as it came: each default with its attributes.
  const mjml = headPartMjml(part.tagName, {}, part.markup);
  for (const def of [
    `<mj-all font-family="-apple-system, 'Segoe UI', Arial"></mj-all>`,
    '<mj-button background-color="#6b04fd" color="#ffffff" border-radius="8px"></mj-button>',
    '<mj-section background-color="#ffffff" css-class="dm-card"></mj-section>',
    '<mj-class name="muted" color="#5b6275"></mj-class>',
  ]) {
    expect(mjml).toContain(def);
  }
  expect(mjml.startsWith('<mj-attributes>')).toBe(true);
  expect(mjml.endsWith('</mj-attributes>')).toBe(true);
});

test('a head part can be neither selected, hovered, dragged, copied nor removed, and is not a layer', () => {
  expect(INERT).toEqual(
    expect.objectContaining({
      selectable: false,
      hoverable: false,
      draggable: false,
      droppable: false,
      removable: false,
      copyable: false,
      layerable: false,
    }),
  );
});

test("the head's title and raw meta are head parts; mj-style stays the preset's; the body's elements are not", () => {
  const head = parsedHead();
  expect(headPartOf(head.querySelector('mj-title'))).toEqual(
    expect.objectContaining({ tagName: 'mj-title', markup: 'Newsletter' }),
  );
  expect(headPartOf(head.querySelector('mj-raw'))).toEqual(expect.objectContaining({ tagName: 'mj-raw' }));
  expect(headPartOf(head.querySelector('mj-style'))).toBe(false);
  // mj-button inside mj-attributes is not a block of its own, nor is a body's button a head part.
  expect(headPartOf(head.querySelector('mj-attributes mj-button'))).toBe(false);
  const body = new DOMParser().parseFromString(
    '<mjml><mj-body><mj-section><mj-column><mj-button>Go</mj-button></mj-column></mj-section></mj-body></mjml>',
    'text/html',
  );
  expect(headPartOf(body.querySelector('mj-button'))).toBe(false);
  expect(headPartOf('mj-attributes')).toBe(false);
});

test('attributes are written back, quoted; the inner MJML loses handlers and script URLs', () => {
  expect(headPartMjml('mj-breakpoint', { width: '320px', id: 'i1' }, '')).toBe(
    '<mj-breakpoint width="320px"></mj-breakpoint>',
  );
  expect(headPartMjml('mj-title', { lang: 'a"b' }, 'x')).toBe('<mj-title lang="a&quot;b">x</mj-title>');
  const part = headPartOf(
    parsedHead(
      '<mj-head><mj-attributes><mj-button href="javascript:alert(1)" onclick="x()" color="#000" /></mj-attributes></mj-head>',
    ).querySelector('mj-attributes'),
  );
  expect(part && part.markup).toBe('<mj-button color="#000"></mj-button>');
});

test('a design saved with its head as blocks is known, so it opens from its MJML', () => {
  const project = (head: unknown[]) => ({
    pages: [
      {
        frames: [
          {
            component: {
              type: 'wrapper',
              components: [{ type: 'mjml', components: [{ type: 'mj-head', tagName: 'mj-head', components: head }] }],
            },
          },
        ],
      },
    ],
  });
  const blocks = [{ tagName: 'mj-attributes', components: [{ type: 'mj-button', tagName: 'mj-button' }] }];
  expect(hasBlockHead(project(blocks))).toBe(true);
  expect(
    hasBlockHead(project([{ type: HEAD_PART_TYPE, tagName: 'mj-attributes', markup: '' }, { type: 'mj-style' }])),
  ).toBe(false);
  expect(hasBlockHead(project([]))).toBe(false);
  expect(hasBlockHead({})).toBe(false);
});
