/**
 * A version's MJML compiled in the off-loop pool (lib/off-loop/pool.ts), never on the gateway's event
 * loop: a 1 MB design takes the MJML compiler seconds, and no tenant's save may hold another tenant's
 * request (docs/fair-load.md, "Work off the event loop").
 */
import type { FieldErrors } from '../../errors';
import { offLoop, offLoopTask } from '../../lib/off-loop/pool';
import {
  compileHere,
  TemplateInputError,
  type CompiledContent,
  type CompileSettings,
  type TemplateContent,
} from './compile';

interface CompileInput {
  content: TemplateContent;
  settings: CompileSettings;
}

/** What a thread answers: the compiled content, or the field errors of a TemplateInputError. */
type CompileOutcome = { ok: true; value: CompiledContent } | { ok: false; errors: FieldErrors };

export const compileTask = offLoopTask<CompileInput, CompileOutcome>('template-compile');

/**
 * The pool's guard for a compile: MJML's work is bounded by the content's size (1 MB at most), not by
 * anything the template repeats, and a thread's first compile also loads MJML; so the guard is wider
 * than a render's, only against a compiler that never ends.
 */
export const COMPILE_GUARD_MS = 60_000;

/** The thread's side: compile, and carry a TemplateInputError back as its field errors. */
export async function compileInThread({ content, settings }: CompileInput): Promise<CompileOutcome> {
  try {
    return { ok: true, value: await compileHere(content, settings) };
  } catch (error) {
    if (error instanceof TemplateInputError) return { ok: false, errors: error.errors };
    throw error;
  }
}

/**
 * Compiles a version's content in the off-loop pool. Throws TemplateInputError for bad content,
 * OffLoopRetry (a 503 with Retry-After to a request) when the pool gave the work up.
 */
export async function compileContent(content: TemplateContent, settings: CompileSettings): Promise<CompiledContent> {
  const outcome = await offLoop().run(
    compileTask,
    {
      content: { subject: content.subject, preview_text: content.preview_text, mjml: content.mjml },
      settings: { publicUrl: settings.publicUrl },
    },
    { guardMs: Math.max(COMPILE_GUARD_MS, offLoop().settings.guardMs) },
  );
  if (outcome.ok) return outcome.value;
  throw new TemplateInputError(outcome.errors);
}
