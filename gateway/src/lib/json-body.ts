import type { FastifyInstance } from 'fastify';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../contracts';
import { badRequest, INVALID_INPUT } from '../errors';

/** Methods whose requests carry no body: an empty one is no body, whatever the Content-Type says. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** Deepest nesting of arrays and objects a body may have (the deepest contract, a segment rule, needs about 12). */
export const MAX_JSON_DEPTH = 100;

export const BODY_MESSAGES = {
  utf8: 'The request body is not valid UTF-8.',
  depth: `Nested too deeply: at most ${MAX_JSON_DEPTH} levels of lists and objects.`,
  key: 'A field name holds control characters or broken symbols.',
} as const;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A field key as the error handler writes them: `attributes.tier`, `what_you_get.2`; `body` for the whole body. */
const fieldKey = (path: readonly (string | number)[]) => (path.length ? path.join('.') : 'body');

/**
 * The first thing in a parsed body that PostgreSQL could not store or that is nested too deeply, as a
 * field error: text with NUL, other control characters or lone surrogates (in values and in keys, such
 * as a custom attribute map's), or nesting beyond MAX_JSON_DEPTH. Recursion is bounded by the depth limit.
 */
export function bodyProblem(value: unknown): Record<string, string[]> | null {
  const path: (string | number)[] = [];
  const walk = (node: unknown, depth: number): Record<string, string[]> | null => {
    if (typeof node === 'string') return isStorableText(node) ? null : { [fieldKey(path)]: [UNSTORABLE_TEXT_MESSAGE] };
    if (node === null || typeof node !== 'object') return null;
    if (depth >= MAX_JSON_DEPTH) return { [fieldKey(path.slice(0, 1))]: [BODY_MESSAGES.depth] };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        const problem = walk(node[i], depth + 1);
        path.pop();
        if (problem) return problem;
      }
      return null;
    }
    for (const [key, child] of Object.entries(node)) {
      if (!isStorableText(key)) return { [fieldKey(path)]: [BODY_MESSAGES.key] };
      path.push(key);
      const problem = walk(child, depth + 1);
      path.pop();
      if (problem) return problem;
    }
    return null;
  };
  return walk(value, 0);
}

/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), and:
 * - an empty body on a GET, HEAD, DELETE or OPTIONS is no body. curl scripts, Postman and many SDKs
 *   send `Content-Type: application/json` on every request, bodiless ones included. A malformed
 *   non-empty body is still a 400, and so is an empty one on a method that needs a body;
 * - bytes that are not UTF-8 are a 400 (decoding would silently turn them into U+FFFD);
 * - text PostgreSQL cannot store (NUL, control characters other than tab, LF and CR, lone surrogates),
 *   anywhere in the body, keys included, and nesting deeper than MAX_JSON_DEPTH are a 400 naming the
 *   field, before any handler or recursive schema sees the body. The contracts' `text()` fields say the
 *   same for each field (and for query strings); this also covers keys and free-form JSON.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (bytes.length === 0 && BODYLESS_METHODS.has(req.method)) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      done(badRequest(BODY_MESSAGES.utf8));
      return;
    }
    parseJson(req, text, (error, value) => {
      if (error) {
        done(error);
        return;
      }
      const problem = bodyProblem(value);
      if (problem) done(badRequest(INVALID_INPUT, problem));
      else done(null, value);
    });
  });
}
