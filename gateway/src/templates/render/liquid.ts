/**
 * Merge tags are Liquid (`{{ contact.first_name | default: "friend" }}`), run by liquidjs:
 * - strict filters: an unknown filter is a syntax error (400 on save, with its line and column);
 * - no file system: `include`, `render` and `layout` are refused when the template is parsed, and
 *   the engine looks templates up in an empty in-memory map, never on disk;
 * - per message limits on the template's own work, never on the clock: steps (every tag, output and
 *   HTML piece rendered, every turn of a loop; one budget for the subject, preview text, HTML and
 *   text), characters allocated by filters and ranges (liquidjs memoryLimit, per part), characters
 *   parsed (parseLimit) and characters of output. The same template and contact always pass or fail
 *   alike, however busy the machine. Renders run in the off-loop pool (lib/off-loop/pool.ts), whose
 *   wall-clock guard is the last resort (docs/templates.md, "Render limits and the off-loop pool");
 * - variables are not strict: a merge tag the catalogue does not know is listed as a warning when
 *   saving (merge-tags.ts) and prints nothing, as in Mailchimp and Customer.io.
 * Two engines: values merged into HTML are escaped, values merged into the subject or the plain-text
 * part are not.
 */
import { Liquid, LiquidError, type Template } from 'liquidjs';
import { tokenAmount } from './token-amount';

/** Limits of one recipient's message (its subject, preview text, HTML and text). */
export const RENDER_LIMITS = {
  /**
   * Steps of one message: tags, outputs and HTML pieces rendered, each turn of a loop counted, over
   * its four parts together. The newsletter starter takes about a hundred; a loop over 100 items of
   * 20 tags each about 4,000. A step with filters costs a few microseconds, so a message at the limit
   * costs at most tenths of a second of a pool's thread (bench/README.md, "Renders off the loop").
   */
  steps: 25_000,
  /** Characters that filters and ranges may allocate in one part (liquidjs memoryLimit). */
  memory: 2_000_000,
  /** Characters of one rendered part. */
  outputChars: 5_000_000,
  /** Characters parsed at once (the MJML is at most 1 MB). */
  parseChars: 3_000_000,
} as const;

export const NO_INCLUDES = 'Includes are not available in e-mail templates: write the content in place.';

const refused: Parameters<Liquid['registerTag']>[1] = {
  parse() {
    throw new Error(NO_INCLUDES);
  },
  render() {
    return '';
  },
};

function engine(escapeOutput: boolean): Liquid {
  const liquid = new Liquid({
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    // Lookups go to this empty map, never to the file system.
    templates: {},
    cache: false,
    parseLimit: RENDER_LIMITS.parseChars,
    memoryLimit: RENDER_LIMITS.memory,
    ...(escapeOutput ? { outputEscape: 'escape' as const } : {}),
  });
  for (const tag of ['include', 'render', 'layout']) liquid.registerTag(tag, refused);
  liquid.registerFilter('token', tokenAmount);
  countSteps(liquid);
  return liquid;
}

/** The steps a message may still take (renderMessage opens one budget per message). */
export interface RenderBudget {
  steps: number;
}

/** The budget of the render running now (renders are synchronous: one at a time on a thread). */
let running: RenderBudget | null = null;

/** Past the budget's steps: a TemplateRenderError with this message. */
export const TOO_MANY_STEPS = `The template does more than ${RENDER_LIMITS.steps.toLocaleString('en-US')} steps for one recipient (every loop turn counts): make its loops shorter.`;
export const TOO_LONG = `The merged e-mail is over ${RENDER_LIMITS.outputChars.toLocaleString('en-US')} characters.`;

/**
 * Every list of templates liquidjs renders (the whole part, each branch taken, each turn of a loop)
 * goes through its renderer's `renderTemplates`: each is charged its length plus one to the running
 * budget, and the output written so far is measured (so a loop stops at the cap, not after it).
 */
function countSteps(liquid: Liquid): void {
  const renderer = liquid.renderer;
  const render = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = function (templates, ctx, emitter) {
    const budget = running;
    if (budget) {
      budget.steps -= templates.length + 1;
      if (budget.steps < 0) throw new TemplateRenderError(TOO_MANY_STEPS);
      const written: unknown = emitter && Reflect.get(emitter, 'buffer');
      if (typeof written === 'string' && written.length > RENDER_LIMITS.outputChars) {
        throw new TemplateRenderError(TOO_LONG);
      }
    }
    return render(templates, ctx, emitter);
  };
}

/** Merges into HTML: every value is HTML-escaped (a contact named `<b>` stays text). */
export const htmlLiquid = engine(true);
/** Merges into the subject, preview text and plain-text part: values as they are. */
export const textLiquid = engine(false);

/** A Liquid syntax error with where it is (1-based line and column of the source). */
export class LiquidSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'LiquidSyntaxError';
  }
}

/** liquidjs's message without its ', line:1, col:5' tail (the position is given separately). */
function bareMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/,? line:\d+, col:\d+\s*$/, '').trim();
}

function positionOf(error: unknown): [number, number] {
  if (error instanceof LiquidError) {
    const token: unknown = Reflect.get(error, 'token');
    const getPosition: unknown = token && typeof token === 'object' ? Reflect.get(token, 'getPosition') : null;
    if (typeof getPosition === 'function') {
      const position: unknown = getPosition.call(token);
      if (Array.isArray(position) && typeof position[0] === 'number' && typeof position[1] === 'number') {
        return [position[0], position[1]];
      }
    }
  }
  return [1, 1];
}

/** Parses Liquid source, or throws LiquidSyntaxError with the line and column. */
export function parseLiquid(liquid: Liquid, source: string): Template[] {
  try {
    return liquid.parse(source);
  } catch (error) {
    const [line, column] = positionOf(error);
    throw new LiquidSyntaxError(bareMessage(error), line, column);
  }
}

/** 'Line 3, column 14: tag "iff" not found' (the wording of a field error). */
export function describeLiquidError(error: LiquidSyntaxError): string {
  return `Line ${error.line}, column ${error.column}: ${error.message}`;
}

/**
 * A render that broke a limit or met a bad operation (e.g. dividing by zero). Deterministic: the same
 * template and scope fail again, so a send records it as final.
 */
export class TemplateRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateRenderError';
  }
}

/** A fresh budget for one message. */
export function renderBudget(): RenderBudget {
  return { steps: RENDER_LIMITS.steps };
}

/** One part rendered for one recipient, within RENDER_LIMITS, charged to `budget` (a part's own by default). */
export function renderMerged(
  liquid: Liquid,
  template: Template[],
  scope: object,
  budget: RenderBudget = renderBudget(),
): string {
  let out: unknown;
  const outer = running;
  running = budget;
  try {
    out = liquid.renderSync(template, scope);
  } catch (error) {
    if (error instanceof TemplateRenderError) throw error;
    // liquidjs wraps what a tag throws: our own limits come back as the cause.
    const cause: unknown = error instanceof Error ? Reflect.get(error, 'originalError') : null;
    if (cause instanceof TemplateRenderError) throw cause;
    throw new TemplateRenderError(bareMessage(error));
  } finally {
    running = outer;
  }
  const text = typeof out === 'string' ? out : String(out);
  // The length of a string built by concatenation is known without flattening it.
  if (text.length > RENDER_LIMITS.outputChars) throw new TemplateRenderError(TOO_LONG);
  return text;
}

/** The global variables a template reads, as paths ('contact.first_name'); loop variables are left out. */
export function variablesOf(liquid: Liquid, template: Template[]): string[] {
  return liquid.globalFullVariablesSync(template);
}
