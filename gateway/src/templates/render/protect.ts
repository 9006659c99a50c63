/**
 * Merge tags through MJML. MJML is compiled once per version with its merge tags left as written;
 * each recipient is then merged into the compiled HTML. So MJML must neither see nor change the
 * Liquid: each tag and output is swapped for a plain word (`lq<nonce>n<i>x`) before compiling and
 * put back afterwards. Words survive MJML's parser, validator, CSS inliner and html-to-text.
 *
 * A Liquid tag standing between MJML elements (`{% if %}<mj-section>…</mj-section>{% endif %}`)
 * would be text where MJML drops text, so its word is wrapped in `<mj-raw>` (allowed in every
 * MJML container): conditional sections and columns work. Words keep the line breaks of the tags
 * they replace, so MJML's line numbers are the source's.
 */
import { randomBytes } from 'node:crypto';
import { Tokenizer, TokenKind } from 'liquidjs';

export interface ProtectedToken {
  /** The Liquid as written. */
  raw: string;
  /** Where it starts in the source (0-based offset), for error messages. */
  begin: number;
}

export interface Protected {
  /** The source with every Liquid tag and output replaced by its word. */
  text: string;
  tokens: ProtectedToken[];
  /** Matches the words (case-insensitive: html-to-text may change case); group 1 is the token index. */
  pattern: RegExp;
}

/** MJML elements whose content is text or HTML (a word there is content, not structure). */
const CONTENT_ELEMENTS = new Set([
  'mj-text',
  'mj-button',
  'mj-raw',
  'mj-table',
  'mj-navbar-link',
  'mj-accordion-title',
  'mj-accordion-text',
  'mj-social-element',
  'mj-title',
  'mj-preview',
  'mj-style',
  'mj-html-attribute',
  'mj-attributes',
]);

function nonce(source: string): string {
  for (;;) {
    const candidate = `lq${randomBytes(5)
      .toString('hex')
      .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)] ?? 'g')}`;
    if (!source.toLowerCase().includes(candidate)) return candidate;
  }
}

/** Swaps every Liquid tag and output of `source` for a word (see above). */
export function protectLiquid(source: string, options: { mjml: boolean }): Protected {
  const prefix = nonce(source);
  const tokens: ProtectedToken[] = [];
  let text = '';
  for (const token of new Tokenizer(source).readTopLevelTokens()) {
    const raw = source.slice(token.begin, token.end);
    if (token.kind === TokenKind.HTML) {
      text += raw;
      continue;
    }
    const breaks = raw.match(/\n/g)?.length ?? 0;
    text += `${prefix}n${tokens.length}x${'\n'.repeat(breaks)}`;
    tokens.push({ raw, begin: token.begin });
  }
  const pattern = new RegExp(`${prefix}n(\\d+)x`, 'gi');
  return { text: options.mjml ? wrapStructuralWords(text, pattern) : text, tokens, pattern };
}

const MARKUP = /<!--[\s\S]*?-->|<(\/?)(mjml|mj-[a-z-]+)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/gi;

/** Wraps the words that stand directly in an MJML container in `<mj-raw>`. */
function wrapStructuralWords(text: string, pattern: RegExp): string {
  const stack: string[] = [];
  let out = '';
  let at = 0;
  const words = (chunk: string) => {
    const top = stack[stack.length - 1];
    if (top === undefined || CONTENT_ELEMENTS.has(top)) return chunk;
    return chunk.replace(new RegExp(pattern.source, 'gi'), (word) => `<mj-raw>${word}</mj-raw>`);
  };
  for (const m of text.matchAll(MARKUP)) {
    const index = m.index ?? 0;
    const top = stack[stack.length - 1];
    const name = (m[2] ?? '').toLowerCase();
    // Inside a content element only its own closing tag counts.
    if (top !== undefined && CONTENT_ELEMENTS.has(top) && !(m[1] === '/' && name === top)) continue;
    out += words(text.slice(at, index)) + m[0];
    at = index + m[0].length;
    if (!name) continue; // a comment
    if (m[1] === '/') {
      const open = stack.lastIndexOf(name);
      if (open >= 0) stack.length = open;
    } else if (m[4] !== '/') {
      stack.push(name);
    }
  }
  return out + words(text.slice(at));
}

/** Puts the Liquid back in place of its words. */
export function restoreLiquid(p: Protected, text: string): string {
  if (p.tokens.length === 0) return text;
  return text.replace(p.pattern, (word, index: string) => p.tokens[Number(index)]?.raw ?? word);
}

/** The tokens whose word is not in `text` exactly once (MJML dropped or repeated them). */
export function misplacedTokens(p: Protected, text: string): ProtectedToken[] {
  const seen = new Array<number>(p.tokens.length).fill(0);
  for (const m of text.matchAll(p.pattern)) {
    const i = Number(m[1]);
    if (i < seen.length) seen[i] = (seen[i] ?? 0) + 1;
  }
  return p.tokens.filter((_, i) => seen[i] !== 1);
}

/** 1-based line and column of an offset. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, offset);
  const line = (before.match(/\n/g)?.length ?? 0) + 1;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Text escaped for HTML, the Liquid in it kept as written (the preview text and subject put into the HTML). */
export function escapeOutsideLiquid(source: string): string {
  let out = '';
  for (const token of new Tokenizer(source).readTopLevelTokens()) {
    const raw = source.slice(token.begin, token.end);
    out += token.kind === TokenKind.HTML ? raw.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`) : raw;
  }
  return out;
}
