// The renderer alone (no database): MJML and Liquid errors with their positions, merge tags through
// MJML (conditional sections included), escaping, limits, no file access, social icons, starters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEMPLATE_STARTERS } from '../../contracts';
import { knownMergeTags, mergeTagWarnings, sampleLinks, sampleScope, type MergeScope } from '../merge-tags';
import { blankDesign, STARTERS } from '../starters/index';
import { compileHere, TemplateInputError, type TemplateContent } from './compile';
import { NO_INCLUDES, RENDER_LIMITS, TemplateRenderError } from './liquid';
import { bindSend, prepareTemplate, renderMessage } from './prepared';
import { MJML_ICON_HOST } from './social';

const settings = { publicUrl: 'https://gw.example.test' };
const community = { name: 'Acme DAO', url: 'https://gw.example.test/c/acme', postal_address: '1 Chain St, Berlin' };

function mjml(body: string, headExtra = ''): string {
  return `<mjml>\n<mj-head>${headExtra}</mj-head>\n<mj-body>\n${body}\n</mj-body>\n</mjml>`;
}

function column(inner: string): string {
  return `<mj-section>\n<mj-column>\n${inner}\n</mj-column>\n</mj-section>`;
}

function content(body: string, extra: Partial<TemplateContent> = {}): TemplateContent {
  return { subject: 'Hello', preview_text: '', mjml: mjml(body), ...extra };
}

function scope(contact: MergeScope['contact'] = {}): MergeScope {
  return { ...sampleScope([], community, sampleLinks(settings.publicUrl)), contact };
}

async function fieldErrors(c: TemplateContent): Promise<Record<string, string[]>> {
  try {
    await compileHere(c, settings);
  } catch (error) {
    if (error instanceof TemplateInputError) return error.errors;
    throw error;
  }
  assert.fail('the content compiled');
}

async function render(c: TemplateContent, s: MergeScope) {
  return renderMessage(prepareTemplate(c, await compileHere(c, settings)), s);
}

describe('compiling MJML', () => {
  it('refuses an unknown element with its line', async () => {
    const errors = await fieldErrors(content(column('<mj-text>ok</mj-text>\n<mj-sparkle>no</mj-sparkle>')));
    assert.equal(errors.mjml?.length, 1);
    assert.match(errors.mjml?.[0] ?? '', /^Line 7: Element mj-sparkle doesn't exist/);
  });

  it('refuses text that is not MJML', async () => {
    const errors = await fieldErrors(content('', { mjml: 'hello there' }));
    assert.match(errors.mjml?.[0] ?? '', /^Line 1: /);
  });

  it('refuses MJML over 1 MB (bytes of UTF-8, not characters)', async () => {
    const text = 'é'.repeat(510_000); // 510,000 characters, 1,020,000 bytes
    const errors = await fieldErrors(content(column(`<mj-text>${text}</mj-text>`)));
    assert.match(errors.mjml?.[0] ?? '', /limit is 1 MB/);
  });

  it('reads no file: mj-include is left out', async () => {
    const c = content(column('<mj-text>before</mj-text>') + '\n<mj-include path="/etc/passwd" />');
    const { html } = await compileHere(c, settings);
    assert.doesNotMatch(html, /root:/);
    assert.match(html, /before/);
  });

  it('fetches no web font (MJML would link Google Fonts for its default Ubuntu)', async () => {
    const { html } = await compileHere(content(column('<mj-text font-family="Ubuntu, Arial">Hi</mj-text>')), settings);
    assert.doesNotMatch(html, /fonts\.googleapis\.com/);
  });

  it('puts the subject in the title and the preview text first in the body', async () => {
    const { html } = await compileHere(
      content(column('<mj-text>Body</mj-text>'), { subject: 'A & B', preview_text: 'Peek <here>' }),
      settings,
    );
    assert.match(html, /<title>A &#38; B<\/title>/);
    assert.match(html, /<body[^>]*><div style="display:none;[^"]*">Peek &#60;here&#62;/);
  });

  it('hides the preview text without a font colour or size (no low-contrast text), mj-preview too', async () => {
    const ours = await compileHere(content(column('<mj-text>Body</mj-text>'), { preview_text: 'Peek' }), settings);
    const theirs = await compileHere(
      {
        subject: 'Hello',
        preview_text: '',
        mjml: mjml(column('<mj-text>Body</mj-text>'), '<mj-preview>Own peek</mj-preview>'),
      },
      settings,
    );
    for (const [html, text] of [
      [ours.html, 'Peek'],
      [theirs.html, 'Own peek'],
    ] as const) {
      const box = /<body[^>]*>\s*<div style="([^"]*)">([^<&]*)/.exec(html);
      assert.equal(box?.[2], text);
      assert.match(box?.[1] ?? '', /display:none/);
      assert.match(box?.[1] ?? '', /mso-hide:all/);
      assert.doesNotMatch(box?.[1] ?? '', /color|font-size/);
    }
  });
});

describe('Liquid syntax', () => {
  it('names the field, line and column of a syntax error', async () => {
    const errors = await fieldErrors(
      content(column('<mj-text>\n  Hi {% iff x %}\n</mj-text>'), { subject: 'Hi {{ contact.first_name ' }),
    );
    assert.match(errors.subject?.[0] ?? '', /^Line 1, column 4: output "\{\{ contact.first_name " not closed/);
    assert.match(errors.mjml?.[0] ?? '', /^Line 7, column 6: tag "iff" not found/);
  });

  it('refuses an unknown filter (strict filters)', async () => {
    const errors = await fieldErrors(content(column('<mj-text>{{ contact.first_name | shout }}</mj-text>')));
    assert.match(errors.mjml?.[0] ?? '', /undefined filter: shout/);
  });

  it('refuses include, render and layout (no file system)', async () => {
    for (const tag of ["{% include 'footer' %}", "{% render 'x' %}", "{% layout 'base' %}"]) {
      const errors = await fieldErrors(content(column(`<mj-text>${tag}</mj-text>`)));
      assert.match(errors.mjml?.[0] ?? '', new RegExp(NO_INCLUDES.slice(0, 30)), tag);
    }
  });

  it('reports a tag MJML would drop (outside <mjml>) with its position', async () => {
    const c = content('', { mjml: `{{ contact.first_name }}\n${mjml(column('<mj-text>x</mj-text>'))}` });
    const errors = await fieldErrors(c);
    assert.match(
      errors.mjml?.[0] ?? '',
      /^Line 1, column 1: \{\{ contact.first_name \}\} is not where MJML shows anything/,
    );
  });
});

describe('merging', () => {
  it('merges in text, attributes, subject and preview text, escaping values in HTML only', async () => {
    const c = content(
      column(
        '<mj-text>Hi {{ contact.first_name | default: "friend" }}!</mj-text>\n<mj-button href="{{ unsubscribe_url }}">Leave</mj-button>',
      ),
      { subject: 'News for {{ contact.first_name }}', preview_text: 'For {{ contact.first_name }}' },
    );
    const message = await render(c, scope({ first_name: 'Ann <b>' }));
    assert.equal(message.subject, 'News for Ann <b>');
    assert.equal(message.preview_text, 'For Ann <b>');
    assert.match(message.html, /Hi Ann &lt;b&gt;!/);
    assert.match(message.html, /href="https:\/\/gw\.example\.test\/email\/unsubscribe\/sample"/);
    assert.match(message.text, /Hi Ann <b>!/);
    assert.match(message.text, /Leave \[https:\/\/gw\.example\.test\/email\/unsubscribe\/sample\]/);
    const friend = await render(c, scope({ first_name: '' }));
    assert.match(friend.html, /Hi friend!/);
  });

  it('keeps a section inside {% if %} only when the condition holds', async () => {
    const c = content(
      `${column('<mj-text>Always</mj-text>')}\n{% if contact.vip %}\n${column('<mj-text>VIP only</mj-text>')}\n{% endif %}`,
    );
    assert.match((await render(c, scope({ vip: true }))).html, /VIP only/);
    const plain = await render(c, scope({ vip: false }));
    assert.doesNotMatch(plain.html, /VIP only/);
    assert.doesNotMatch(plain.text, /VIP only/);
    assert.match(plain.html, /Always/);
  });

  it('prints nothing for an unknown variable and lists it as a warning', async () => {
    const c = content(
      column('<mj-text>[{{ contact.nickname }}] {{ unsubscribe_url }} {{ community.postal_address }}</mj-text>'),
      {
        subject: '{{ contact.frist_name }}',
      },
    );
    assert.match((await render(c, scope())).html, /\[\]/);
    const warnings = mergeTagWarnings(c, knownMergeTags([]), { kind: 'marketing', hasPostalAddress: true });
    assert.deepEqual(
      warnings.map((w) => [w.field, w.tag]),
      [
        ['subject', 'contact.frist_name'],
        ['mjml', 'contact.nickname'],
      ],
    );
  });

  it('warns a marketing e-mail without an unsubscribe link or postal address', () => {
    const c = content(column('<mj-text>Hi {{ contact.first_name }}</mj-text>'));
    const tags = (kind: 'marketing' | 'transactional') =>
      mergeTagWarnings(c, knownMergeTags([]), { kind, hasPostalAddress: true }).map((w) => w.tag);
    assert.deepEqual(tags('marketing'), ['unsubscribe_url', 'community.postal_address']);
    assert.deepEqual(tags('transactional'), []);
  });

  it("merges the community's outputs once per send, with the same result", async () => {
    const c = content(
      column(
        '<mj-text>{{ community.name }} for {{ contact.first_name }} at {{ community.postal_address | upcase }}</mj-text>' +
          '<mj-text>{% if contact.vip %}{{ community.url }}{% endif %}</mj-text>',
      ),
      { subject: '{{ community.name }}: {{ contact.first_name }}' },
    );
    const prepared = prepareTemplate(c, await compileHere(c, settings));
    const s = scope({ first_name: 'Ann', vip: true });
    const bound = bindSend(prepared, s);
    assert.deepEqual(renderMessage(bound, s), renderMessage(prepared, s));
    assert.match(renderMessage(bound, s).html, /Acme DAO for Ann at 1 CHAIN ST, BERLIN/);
    // Folded: a recipient whose scope names another community still gets the send's.
    const other = { ...s, community: { ...s.community, name: 'Other' } };
    assert.equal(renderMessage(bound, other).subject, 'Acme DAO: Ann');
    assert.equal(renderMessage(prepared, other).subject, 'Other: Ann');
  });

  it('folds nothing when a tag binds variables', async () => {
    const c = content(column('<mj-text>{% assign community = contact %}{{ community.first_name }}</mj-text>'), {
      subject: '{{ community.name }}',
    });
    const prepared = prepareTemplate(c, await compileHere(c, settings));
    const s = scope({ first_name: 'Ann' });
    assert.equal(bindSend(prepared, s), prepared);
    assert.match(renderMessage(prepared, s).html, />Ann</);
  });

  it('stops a render past its limits', async () => {
    const loop = content(column('<mj-text>{% for i in (1..100000000) %}{{ i }}{% endfor %}</mj-text>'));
    assert.throws(
      () => renderMessage(prepareTemplate(loop, { html: loop.mjml, text: '' }), scope()),
      TemplateRenderError,
    );
    const big = 'x'.repeat(60_000);
    const wide = content(column(`<mj-text>{% for i in (1..100) %}${big}{% endfor %}</mj-text>`));
    assert.ok(100 * big.length > RENDER_LIMITS.outputChars);
    await assert.rejects(render(wide, scope()), TemplateRenderError);
  });
});

describe('social icons', () => {
  it('come from the gateway, for MJML networks and web3 ones, never from the MJML authors host', async () => {
    const c = content(
      column(
        '<mj-social>' +
          '<mj-social-element name="x-noshare" href="https://x.com/acme">X</mj-social-element>' +
          '<mj-social-element name="discord" href="https://discord.gg/acme">Discord</mj-social-element>' +
          `<mj-social-element name="github" src="${MJML_ICON_HOST}github.png" href="https://github.com/acme">GitHub</mj-social-element>` +
          '</mj-social>',
      ),
    );
    const { html } = await compileHere(c, settings);
    assert.doesNotMatch(html, /mailjet\.com/);
    assert.match(html, /src="https:\/\/gw\.example\.test\/static\/social\/x\.png"/);
    assert.match(html, /src="https:\/\/gw\.example\.test\/static\/social\/discord\.png"/);
    assert.match(html, /src="https:\/\/gw\.example\.test\/static\/social\/github\.png"/);
    assert.match(html, /background:#5865F2/i);
  });
});

describe('starters', () => {
  for (const key of TEMPLATE_STARTERS) {
    it(`${key}: compiles, loads nothing from outside, carries the footer, merges`, async () => {
      const design = STARTERS[key].design(settings);
      const compiled = await compileHere(design, settings);
      for (const [, src] of compiled.html.matchAll(/\ssrc="([^"]*)"/g)) {
        assert.ok(src?.startsWith(`${settings.publicUrl}/static/`), `image from outside: ${src}`);
      }
      assert.doesNotMatch(compiled.html, /<link\b|@import|url\(http/i);
      assert.match(compiled.html, /prefers-color-scheme: dark/);
      assert.deepEqual(mergeTagWarnings(design, knownMergeTags([]), { kind: 'marketing', hasPostalAddress: true }), []);
      const message = renderMessage(prepareTemplate(design, compiled), scope({ first_name: 'Ada', wallet: '0xabc' }));
      assert.match(message.html, /1 Chain St, Berlin/);
      assert.match(message.text, /Unsubscribe \[https:\/\/gw\.example\.test\/email\/unsubscribe\/sample\]/);
      assert.doesNotMatch(message.html + message.text + message.subject, /\{\{|\{%/);
    });
  }

  it('a blank marketing template has the footer; a transactional one has none', async () => {
    const marketing = await compileHere(blankDesign(settings, 'marketing'), settings);
    const transactional = await compileHere(blankDesign(settings, 'transactional'), settings);
    assert.match(marketing.html, /\{\{ unsubscribe_url \}\}/);
    assert.doesNotMatch(transactional.html, /unsubscribe_url/);
  });
});
