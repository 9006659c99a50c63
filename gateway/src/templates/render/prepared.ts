/**
 * Per-recipient rendering. A version is parsed once into a PreparedTemplate (its subject, preview
 * text, compiled HTML and text part as parsed Liquid); each recipient is then `renderMessage` with
 * their merge scope: no MJML, no parsing, no HTML-to-text per recipient. Campaigns keep one
 * PreparedTemplate for a whole send.
 */
import type { Template } from 'liquidjs';
import type { MergeScope } from '../merge-tags';
import type { CompiledContent, TemplateContent } from './compile';
import { htmlLiquid, parseLiquid, renderMerged, textLiquid } from './liquid';

export interface PreparedTemplate {
  readonly subject: Template[];
  readonly previewText: Template[];
  readonly html: Template[];
  readonly text: Template[];
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
  };
}

/** A header line: merged values cannot add line breaks to it. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/** One recipient's subject, preview text, HTML and text. Throws TemplateRenderError past a limit. */
export function renderMessage(template: PreparedTemplate, scope: MergeScope): RenderedMessage {
  return {
    subject: oneLine(renderMerged(textLiquid, template.subject, scope)),
    preview_text: oneLine(renderMerged(textLiquid, template.previewText, scope)),
    html: renderMerged(htmlLiquid, template.html, scope),
    text: renderMerged(textLiquid, template.text, scope),
  };
}
