/**
 * Rendering a template for one recipient in the off-loop pool (lib/off-loop/pool.ts): previews, test
 * sends, thumbnails and view in browser hand the version's compiled sources and the recipient's merge
 * scope to a worker, which parses them (kept per sources), binds the send's constants and merges.
 * The gateway's thread only waits for the answer, so a template at its limits holds no other request.
 */
import { createHash } from 'node:crypto';
import { offLoop, offLoopTask } from '../../lib/off-loop/pool';
import type { MergeScope } from '../merge-tags';
import { LiquidSyntaxError, TemplateRenderError } from './liquid';
import { bindSend, prepareTemplate, renderMessage, type PreparedTemplate, type RenderedMessage } from './prepared';

/** What a version (or a campaign's take on it) renders from: Liquid sources, compiled. */
export interface TemplateSources {
  subject: string;
  previewText: string;
  html: string;
  text: string;
}

/** The key of sources in the workers' memory (the same sources parse once per thread). */
export function sourcesKey(sources: TemplateSources): string {
  const hash = createHash('sha256');
  for (const part of [sources.subject, sources.previewText, sources.html, sources.text]) {
    hash.update(String(part.length)).update(':').update(part);
  }
  return hash.digest('base64url');
}

/** A render's outcome: the message, or why not (a limit, a bad operation, a syntax error). */
export type RenderOutcome<T> =
  { ok: true; value: T } | { ok: false; error: string; syntax?: { line: number; column: number } };

const PREPARED_KEPT = 50;
/** Parsed sources of this thread, by key, most recently used last. */
const prepared = new Map<string, PreparedTemplate | LiquidSyntaxError>();

/** The sources parsed (from this thread's memory when parsed lately); a syntax error is remembered too. */
export function preparedHere(key: string, sources: TemplateSources): PreparedTemplate | LiquidSyntaxError {
  let hit = prepared.get(key);
  if (hit) {
    prepared.delete(key);
  } else {
    try {
      hit = prepareTemplate(
        { subject: sources.subject, preview_text: sources.previewText },
        { html: sources.html, text: sources.text },
      );
    } catch (error) {
      if (!(error instanceof LiquidSyntaxError)) throw error;
      hit = error;
    }
    if (prepared.size >= PREPARED_KEPT) prepared.delete(prepared.keys().next().value ?? key);
  }
  prepared.set(key, hit);
  return hit;
}

/** A failure of the render as an outcome (what crosses the thread boundary). */
export function failedOutcome(error: unknown): { ok: false; error: string; syntax?: { line: number; column: number } } {
  if (error instanceof LiquidSyntaxError) {
    return { ok: false, error: error.message, syntax: { line: error.line, column: error.column } };
  }
  if (error instanceof TemplateRenderError) return { ok: false, error: error.message };
  throw error;
}

export interface RenderInput {
  key: string;
  sources: TemplateSources;
  scope: MergeScope;
}

/** The worker's side: parse (or reuse), bind the scope's community, merge. */
export function renderHere(input: RenderInput): RenderOutcome<RenderedMessage> {
  try {
    const template = preparedHere(input.key, input.sources);
    if (template instanceof LiquidSyntaxError) throw template;
    return { ok: true, value: renderMessage(bindSend(template, { community: input.scope.community }), input.scope) };
  } catch (error) {
    return failedOutcome(error);
  }
}

export const renderTask = offLoopTask<RenderInput, RenderOutcome<RenderedMessage>>('template-render');

/**
 * One recipient's message, rendered in the off-loop pool as a campaign renders it (bound to the send,
 * then merged). Throws TemplateRenderError past a limit, LiquidSyntaxError for sources that do not
 * parse, OffLoopRetry when the pool gave the work up.
 */
export async function renderOffLoop(sources: TemplateSources, scope: MergeScope): Promise<RenderedMessage> {
  const outcome = await offLoop().run(renderTask, { key: sourcesKey(sources), sources, scope });
  if (outcome.ok) return outcome.value;
  if (outcome.syntax) throw new LiquidSyntaxError(outcome.error, outcome.syntax.line, outcome.syntax.column);
  throw new TemplateRenderError(outcome.error);
}
