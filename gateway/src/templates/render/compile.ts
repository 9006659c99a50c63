/**
 * A template version compiled once: MJML to HTML with `mjml` 5 (merge tags left as written), and the
 * plain-text part made from that HTML with html-to-text (a compiled converter). Both are stored with
 * the version; each recipient is then only a Liquid merge (prepared.ts).
 *
 * Bad input is a TemplateInputError whose field errors name where it is: MJML errors 'Line 12: …'
 * under `mjml`; Liquid syntax errors 'Line 1, column 7: …' under `subject`, `preview_text` or
 * `mjml`; MJML over 1 MB. The validation is strict: an MJML validator error refuses the save.
 * No file is ever read: `mj-include` is ignored, no .mjmlconfig is looked for, and MJML's default
 * web fonts (Google Fonts links) are switched off.
 */
import type mjml2htmlType from 'mjml';
import { once } from '../../lib/once';
import { TEMPLATE_LIMITS } from '../../contracts';
import type { FieldErrors } from '../../errors';
import { describeLiquidError, htmlLiquid, LiquidSyntaxError, parseLiquid, textLiquid } from './liquid';
import { escapeOutsideLiquid, lineColumn, misplacedTokens, protectLiquid, restoreLiquid } from './protect';

/** What a version's content is. */
export interface TemplateContent {
  subject: string;
  preview_text: string;
  mjml: string;
}

/** A version compiled: the HTML and the plain-text part, merge tags left as written. */
export interface CompiledContent {
  html: string;
  text: string;
}

export interface CompileSettings {
  /** The gateway's public address (GATEWAY_PUBLIC_URL): social icons are served from it. */
  publicUrl: string;
}

/** Raised when this changes what compiling makes: stored HTML compiled by an older revision is compiled again. */
export const RENDERER_REVISION = 2;

/** The key stored with a version's HTML: a version compiled with another key is compiled again. */
export function compiledWith(settings: CompileSettings): string {
  return `r${RENDERER_REVISION} ${settings.publicUrl}`;
}

/** Bad template content: a 400 with these field errors. */
export class TemplateInputError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('The template has errors.');
    this.name = 'TemplateInputError';
  }
}

/** Field errors listed at most this many at a time (the first ones matter). */
const MAX_ERRORS = 10;

/**
 * MJML, its social element and html-to-text load on the first compile, not when the gateway starts: a
 * process that compiles nothing (a worker sending stored versions, most test files) never pays for them.
 */
const compilers = once(async () => {
  const [{ default: mjml2html }, { compile: compileHtmlToText }, { moveIconHost, SOCIAL_PRESET }] = await Promise.all([
    import('mjml'),
    import('html-to-text'),
    import('./social'),
  ]);
  const mjmlOptions = {
    validationLevel: 'soft' as const,
    fonts: {},
    keepComments: false,
    ignoreIncludes: true,
    minify: false,
    beautify: false,
    presets: [SOCIAL_PRESET],
  };
  /** The plain-text part: headings keep their case, images are left out, links print their address. */
  const htmlToText = compileHtmlToText({
    wordwrap: 78,
    baseElements: { selectors: ['body'] },
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      { selector: 'table', format: 'block' },
      { selector: 'tr', format: 'block' },
      { selector: 'td', format: 'block' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    ],
  });
  return { mjml2html, mjmlOptions, htmlToText, moveIconHost };
});

/**
 * The hidden preview-text box's style: hidden the way mailbox clients honour (display:none, no
 * height or width, transparent, Outlook's mso-hide), with no font colour or size of its own. MJML's
 * mj-preview hides it with white 1px text, which receivers' filters read as text hidden from the
 * reader (SpamAssassin's HTML_FONT_LOW_CONTRAST).
 */
const PREHEADER_STYLE =
  'display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;visibility:hidden';

/** The preview text's box, followed by blank space so no body text shows after it. */
function preheader(previewText: string): string {
  const filler = '&#847;&zwnj;&nbsp;'.repeat(60);
  return `<div style="${PREHEADER_STYLE}">${escapeOutsideLiquid(previewText)}${filler}</div>`;
}

/** The hidden preview-text box first in the body: ours, or MJML's mj-preview (white 1px text). */
const PREHEADER_BOX =
  /(<body\b[^>]*>\s*)<div style="display:none;(?:font-size:1px|max-height:0);[^"]*">([\s\S]*?)<\/div>/i;

/**
 * A compiled HTML with another preview text (Liquid kept, for a campaign whose preview text is its own
 * rather than its template's): the hidden box first in the body is replaced, or added when there is none.
 */
export function withPreviewText(html: string, previewText: string): string {
  if (PREHEADER_BOX.test(html))
    return html.replace(PREHEADER_BOX, (_m, body: string) => `${body}${preheader(previewText)}`);
  return html.replace(/<body\b[^>]*>/i, (body) => `${body}${preheader(previewText)}`);
}

/** MJML's own mj-preview box, restyled as ours (its text kept). */
function withPreheaderStyle(html: string): string {
  return html.replace(
    PREHEADER_BOX,
    (_m, body: string, inner: string) => `${body}<div style="${PREHEADER_STYLE}">${inner}</div>`,
  );
}

/**
 * A compiled HTML with another subject as its page title (Liquid kept, for a campaign whose subject is
 * its own): only the title made from the template's subject is replaced, an `mj-title` stays.
 */
export function withSubjectTitle(html: string, templateSubject: string, subject: string): string {
  const written = `<title>${escapeOutsideLiquid(templateSubject)}</title>`;
  return html.replace(written, () => `<title>${escapeOutsideLiquid(subject)}</title>`);
}

/** The subject as the page title (view in browser), and the preview text first in the body (unless the MJML has its own). */
function withTitleAndPreheader(html: string, content: TemplateContent, mjmlHasPreview: boolean): string {
  const out = html.replace('<title></title>', () => `<title>${escapeOutsideLiquid(content.subject)}</title>`);
  if (mjmlHasPreview) return withPreheaderStyle(out);
  return content.preview_text ? withPreviewText(out, content.preview_text) : out;
}

function liquidErrors(errors: FieldErrors, field: keyof TemplateContent, source: string): void {
  try {
    parseLiquid(htmlLiquid, source);
  } catch (error) {
    if (!(error instanceof LiquidSyntaxError)) throw error;
    (errors[field] ??= []).push(describeLiquidError(error));
  }
}

/** Size and Liquid syntax of the three fields (the contract has checked types, lengths and characters). */
export function checkContent(content: TemplateContent): FieldErrors {
  const errors: FieldErrors = {};
  const bytes = Buffer.byteLength(content.mjml, 'utf8');
  if (bytes > TEMPLATE_LIMITS.mjmlBytes) {
    errors.mjml = [`The MJML is ${bytes.toLocaleString('en-US')} bytes; the limit is 1 MB (1,000,000 bytes).`];
    return errors;
  }
  if (!content.mjml.trim()) errors.mjml = ['Line 1: The MJML is empty.'];
  liquidErrors(errors, 'subject', content.subject);
  liquidErrors(errors, 'preview_text', content.preview_text);
  if (!errors.mjml) liquidErrors(errors, 'mjml', content.mjml);
  return errors;
}

/**
 * Compiles a version's content in this thread, or throws TemplateInputError: CPU work of a few ms for a
 * newsletter and up to seconds for a hostile 1 MB design, so the gateway calls it through the off-loop
 * pool (compile-task.ts `compileContent`); the pool's threads call it here.
 */
export async function compileHere(content: TemplateContent, settings: CompileSettings): Promise<CompiledContent> {
  const checked = checkContent(content);
  if (Object.keys(checked).length > 0) throw new TemplateInputError(checked);

  const words = protectLiquid(content.mjml, { mjml: true });
  const { mjml2html, mjmlOptions, htmlToText, moveIconHost } = await compilers();
  let result: Awaited<ReturnType<typeof mjml2htmlType>>;
  try {
    result = await mjml2html(words.text, mjmlOptions);
  } catch (error) {
    // The parser's own failures ('Malformed MJML…') name no line.
    const message = error instanceof Error ? error.message : String(error);
    throw new TemplateInputError({ mjml: [`Line 1: ${restoreLiquid(words, message)}`] });
  }
  if (result.errors.length > 0) {
    throw new TemplateInputError({
      mjml: result.errors.slice(0, MAX_ERRORS).map((e) => `Line ${e.line}: ${restoreLiquid(words, e.message)}`),
    });
  }
  const misplaced = misplacedTokens(words, result.html);
  if (misplaced.length > 0) {
    throw new TemplateInputError({
      mjml: misplaced.slice(0, MAX_ERRORS).map((token) => {
        const { line, column } = lineColumn(content.mjml, token.begin);
        return `Line ${line}, column ${column}: ${token.raw} is not where MJML shows anything: move it into a text, button or raw block.`;
      }),
    });
  }

  const withWords = moveIconHost(result.html, settings.publicUrl);
  const text = restoreLiquid(words, htmlToText(withWords)).trim();
  const html = withTitleAndPreheader(restoreLiquid(words, withWords), content, /<mj-preview\b/i.test(content.mjml));
  // The merge tags must still fit together in the compiled HTML and text (an {% if %} opened in one
  // element and closed in another that MJML moved would not).
  for (const [liquid, part] of [
    [htmlLiquid, html],
    [textLiquid, text],
  ] as const) {
    try {
      parseLiquid(liquid, part);
    } catch (error) {
      if (!(error instanceof LiquidSyntaxError)) throw error;
      throw new TemplateInputError({
        mjml: [
          `Line 1: The merge tags do not fit together once compiled (${error.message}): open and close each {% if %} or {% for %} around whole elements or inside one.`,
        ],
      });
    }
  }
  return { html, text };
}
