/**
 * Merge tags are Liquid (`{{ contact.first_name | default: "friend" }}`), run by liquidjs:
 * - strict filters: an unknown filter is a syntax error (400 on save, with its line and column);
 * - no file system: `include`, `render` and `layout` are refused when the template is parsed, and
 *   the engine looks templates up in an empty in-memory map, never on disk;
 * - per render a time limit, an allocation limit and a limit on the number of nodes rendered, and
 *   the output's size is checked afterwards (renderMerged);
 * - variables are not strict: a merge tag the catalogue does not know is listed as a warning when
 *   saving (merge-tags.ts) and prints nothing, as in Mailchimp and Customer.io.
 * Two engines: values merged into HTML are escaped, values merged into the subject or the plain-text
 * part are not.
 */
import { Liquid, LiquidError, type Template } from 'liquidjs';

/** Limits of one render (one recipient's subject, preview text, HTML or text). */
export const RENDER_LIMITS = {
  /** Milliseconds: far above a normal merge (bench/README.md, "Liquid's render limit"). */
  timeMs: 200,
  /** Characters that filters and ranges may allocate (liquidjs memoryLimit). */
  memory: 2_000_000,
  /** Tags, outputs and HTML pieces rendered (loops count each turn). */
  nodes: 200_000,
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
    renderLimit: RENDER_LIMITS.timeMs,
    memoryLimit: RENDER_LIMITS.memory,
    ...(escapeOutput ? { outputEscape: 'escape' as const } : {}),
  });
  for (const tag of ['include', 'render', 'layout']) liquid.registerTag(tag, refused);
  return liquid;
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

/** A render that broke a limit or met a bad operation (e.g. dividing by zero). */
export class TemplateRenderError extends Error {
  constructor(
    message: string,
    /**
     * The render ran past RENDER_LIMITS.timeMs. That limit is wall-clock time, so a pause of the whole
     * process (a busy machine, a collection, a frozen process) can trip it: a caller may try again.
     */
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'TemplateRenderError';
  }
}

/** liquidjs's message when `renderLimit` is passed. */
const TIME_LIMIT = /template render limit exceeded/;

/** One part rendered for one recipient, within RENDER_LIMITS. */
export function renderMerged(liquid: Liquid, template: Template[], scope: object): string {
  let out: unknown;
  try {
    out = liquid.renderSync(template, scope, { templateLimit: RENDER_LIMITS.nodes });
  } catch (error) {
    const message = bareMessage(error);
    throw new TemplateRenderError(message, TIME_LIMIT.test(message));
  }
  const text = typeof out === 'string' ? out : String(out);
  // The length of a string built by concatenation is known without flattening it.
  if (text.length > RENDER_LIMITS.outputChars) {
    throw new TemplateRenderError(`The merged e-mail is over ${RENDER_LIMITS.outputChars} characters.`);
  }
  return text;
}

/** The global variables a template reads, as paths ('contact.first_name'); loop variables are left out. */
export function variablesOf(liquid: Liquid, template: Template[]): string[] {
  return liquid.globalFullVariablesSync(template);
}
