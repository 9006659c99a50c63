/**
 * Per-recipient rendering. A version is parsed once into a PreparedTemplate (its subject, preview
 * text, compiled HTML and text part as parsed Liquid); each recipient is then `renderMessage` with
 * their merge scope: no MJML, no parsing, no HTML-to-text per recipient. Campaigns keep one
 * PreparedTemplate for a whole send.
 */
import { Output, Tokenizer, TokenKind, type Liquid, type Template, type TagToken } from 'liquidjs';
import type { MergeScope } from '../merge-tags';
import type { CompiledContent, TemplateContent } from './compile';
import { htmlLiquid, parseLiquid, renderBudget, renderMerged, textLiquid } from './liquid';

export interface PreparedTemplate {
  readonly subject: Template[];
  readonly previewText: Template[];
  readonly html: Template[];
  readonly text: Template[];
  /** No tag of the template binds a variable (assign, capture, for, ...): outputs of the send's constants can be folded. */
  readonly foldable: boolean;
}

/** Tags that set variables: with one of them a `community` output might not mean the community. */
const BINDING_TAGS = new Set(['assign', 'capture', 'increment', 'decrement', 'for', 'tablerow', 'liquid']);

function bindsVariables(source: string): boolean {
  return new Tokenizer(source)
    .readTopLevelTokens()
    .some((t) => t.kind === TokenKind.Tag && BINDING_TAGS.has((t as TagToken).name));
}

/** One recipient's e-mail. */
export interface RenderedMessage {
  subject: string;
  preview_text: string;
  html: string;
  text: string;
}

/** Parses a compiled version for merging (about a millisecond for a newsletter; cache the result). */
export function prepareTemplate(
  content: Pick<TemplateContent, 'subject' | 'preview_text'>,
  compiled: CompiledContent,
): PreparedTemplate {
  return {
    subject: parseLiquid(textLiquid, content.subject),
    previewText: parseLiquid(textLiquid, content.preview_text),
    html: parseLiquid(htmlLiquid, compiled.html),
    text: parseLiquid(textLiquid, compiled.text),
    foldable: ![content.subject, content.preview_text, compiled.html, compiled.text].some(bindsVariables),
  };
}

/** A piece of output fixed for the whole send (a folded `{{ community.… }}`): liquidjs writes what render returns. */
function fixed(token: Template['token'], value: string): Template {
  return { token, render: () => value };
}

function isCommunityPath(path: string): boolean {
  return path === 'community' || path.startsWith('community.');
}

function fold(liquid: Liquid, templates: Template[], constants: Pick<MergeScope, 'community'>): Template[] {
  return templates.map((t) => {
    if (!(t instanceof Output)) return t;
    const paths = liquid.globalFullVariablesSync([t]);
    if (paths.length === 0 || !paths.every(isCommunityPath)) return t;
    return fixed(t.token, renderMerged(liquid, [t], constants));
  });
}

/**
 * The template for one send: every top-level output that reads only the community (the same for
 * every recipient: name, page, postal address) merged once, so each recipient merges only what is
 * theirs. The newsletter's HTML has 14 outputs, 10 of them the community's. Unchanged when a tag
 * of the template binds variables.
 */
export function bindSend(template: PreparedTemplate, constants: Pick<MergeScope, 'community'>): PreparedTemplate {
  if (!template.foldable) return template;
  return {
    subject: fold(textLiquid, template.subject, constants),
    previewText: fold(textLiquid, template.previewText, constants),
    html: fold(htmlLiquid, template.html, constants),
    text: fold(textLiquid, template.text, constants),
    foldable: true,
  };
}

/** A header line: merged values cannot add line breaks to it. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/**
 * One recipient's subject, preview text, HTML and text, the four parts on one budget of steps
 * (liquid.ts RENDER_LIMITS). Throws TemplateRenderError past a limit.
 */
export function renderMessage(template: PreparedTemplate, scope: MergeScope): RenderedMessage {
  const budget = renderBudget();
  return {
    subject: oneLine(renderMerged(textLiquid, template.subject, scope, budget)),
    preview_text: oneLine(renderMerged(textLiquid, template.previewText, scope, budget)),
    html: renderMerged(htmlLiquid, template.html, scope, budget),
    text: renderMerged(textLiquid, template.text, scope, budget),
  };
}
